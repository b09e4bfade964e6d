/** The words the search-merge tests search for. */
export const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'replaced'] as const;

/** An event's title in the search-merge tests: two of WORDS, which change with `version`. */
export function searchWords(id: number, version: number): string {
  return `${WORDS[(id + version) % 6]} ${WORDS[(id * 7 + version * 3) % 6]} ${id}`;
}
