// The bytes that every list cache of a calendar keeps together (plan-cache.ts): one budget per
// calendar, the lists kept first forgotten first.

/** The bytes every list cache of a calendar may keep together; the lists kept first go first. */
export interface ListBudget {
  /** The limit in bytes; 0 keeps no lists. */
  readonly bytes: number;
  /** Counts a kept list in, then forgets the oldest others until the budget holds (or this one, when it alone exceeds it). */
  hold(entry: Held): void;
  /** Takes a list out (its entry is forgotten). */
  release(entry: Held): void;
}

/** A kept list as the budget sees it; `forget` takes it out of its cache. */
export interface Held {
  bytes: number;
  forget(): void;
}

export function createListBudget(bytes: number): ListBudget {
  const held = new Set<Held>();
  let total = 0;
  const forget = (entry: Held) => {
    if (!held.delete(entry)) return;
    total -= entry.bytes;
    entry.forget();
  };
  return {
    bytes,
    hold(entry) {
      held.add(entry);
      total += entry.bytes;
      if (entry.bytes > bytes) return forget(entry);
      for (const other of held) {
        if (total <= bytes) return;
        if (other !== entry) forget(other);
      }
    },
    release: forget,
  };
}
