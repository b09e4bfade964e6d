// Text folding and search-word splitting shared by the reference engine and every adapter.
// SQL adapters store folded copies of the searchable fields computed with `foldText`, so
// JavaScript and the database agree on case and accents.

/**
 * Case- and accent-insensitive form of a text, as MySQL's `_ci` collations compare it:
 * compatibility-decomposed, combining marks removed, lower-cased.
 */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/**
 * The words of an event search (WordPress `parse_search`): split on blanks, commas and
 * plus signs; a double-quoted phrase stays one word. Folded; empty words dropped.
 */
export function eventSearchWords(search: string): string[] {
  const words: string[] = [];
  for (const m of search.matchAll(/"([^"]*)"?|[^\s",+]+/g)) {
    const word = foldText((m[1] ?? m[0]).trim());
    if (word) words.push(word);
  }
  return words;
}

/** The alphanumeric fragments of a venue or organizer search, folded. */
export function fragmentWords(search: string): string[] {
  return [...foldText(search).matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
}

/** Whether every word occurs in at least one of the (folded) texts. */
export function everyWordInSome(words: readonly string[], folded: readonly string[]): boolean {
  return words.every((w) => folded.some((t) => t.includes(w)));
}

/** Whether some (folded) text contains every word. */
export function someTextHasEvery(words: readonly string[], folded: readonly string[]): boolean {
  return folded.some((t) => words.every((w) => t.includes(w)));
}
