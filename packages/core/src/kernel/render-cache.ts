// Each record rendered once per state: the JSON text of an event as a list shows it, kept by
// its validator (its revision and the states of what it embeds) and everything else its bytes
// depend on (the addresses, what this caller may see of it). A list of cached events is its
// items' texts joined; nothing is rendered or serialised again until something changes.
//
// Bounded: the least recently used entries go first. Entries never go stale, since a change
// gives a new key; they only stop being asked for.

export interface RenderCache {
  /** The JSON text kept for `key` as UTF-8 bytes, rendering and keeping it when there is none. */
  json(key: string, render: () => unknown): Uint8Array;
  /** Whether it keeps anything (false when made with 0 entries). */
  readonly keeps: boolean;
  /** How many texts are kept. */
  readonly size: number;
}

const utf8 = new TextEncoder();

/**
 * A cache of at most `entries` texts; 0 keeps nothing (every call renders). Texts are kept as
 * UTF-8: what a response sends, encoded once.
 */
export function createRenderCache(entries: number): RenderCache {
  const kept = new Map<string, Uint8Array>();
  return {
    json(key, render) {
      const found = kept.get(key);
      if (found !== undefined) {
        // Most recently used last: the first key is the one to evict.
        kept.delete(key);
        kept.set(key, found);
        return found;
      }
      const text = utf8.encode(JSON.stringify(render()));
      if (entries > 0) {
        if (kept.size >= entries) kept.delete(kept.keys().next().value!);
        kept.set(key, text);
      }
      return text;
    },
    get size() {
      return kept.size;
    },
    keeps: entries > 0,
  };
}
