// A bounded memo for what the handler derives from a request's text alone (its query string,
// its path), so that a request asked again, as most are, is not parsed again. The least
// recently made entry goes first; values are frozen, since every request that asks shares them.

/** `(key, make)`: the value kept for `key`, or `make()`'s, kept. At most `limit` entries. */
export function boundedMemo<V>(limit: number): (key: string, make: () => V) => V {
  const kept = new Map<string, V>();
  return (key, make) => {
    const found = kept.get(key);
    if (found !== undefined) return found;
    const value = deepFreeze(make());
    if (kept.size >= limit) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
    return value;
  };
}

function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
