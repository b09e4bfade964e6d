// The storage contract's idempotency records (HTTP `Idempotency-Key`, docs/http.md): the
// answer of a write sent with a key, kept with that key by the write transaction that made it,
// so that a committed write and its record land together or not at all. Core decides what a
// key answers (kernel/idempotency.ts); adapters persist records as given.

/** One write's answer, kept with the key it was sent with. */
export interface IdempotencyRecord {
  /** Whose key: `user:<id>` for a principal, `anonymous` otherwise (keys of different callers never meet). */
  readonly scope: string;
  /** The key as the client sent it: 1 to 255 characters. */
  readonly key: string;
  /** What was asked (the binding's digest of method, address and body): the same key with another fingerprint is refused. */
  readonly fingerprint: string;
  /** The answer as the binding kept it (for HTTP: status, headers and body), opaque to core and adapters. */
  readonly answer: string;
  /** When it was kept, epoch ms (the calendar's clock). */
  readonly created: number;
  /** From when it no longer answers, epoch ms: an expired record is as good as none. */
  readonly expires: number;
}

export interface IdempotencyStore {
  /** The record of `key` of `scope`, expired or not. */
  get(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Keeps a record, inside the write transaction whose answer it is. Fails with `conflict`
   * when the storage holds a record for the same scope and key (an expired one is deleted
   * first): the unique key decides between writers that did not see each other.
   */
  insert(record: IdempotencyRecord): Promise<void>;
  /** Removes the record of `key` of `scope`, if there is one. */
  delete(scope: string, key: string): Promise<void>;
  /**
   * Removes at most `limit` records whose `expires` is at or before `now`, those that expired
   * first first (adapters that keep records in insertion order may take that order); returns
   * how many it removed. Core calls it in write transactions, so cleaning up is bounded per write.
   */
  prune(now: number, limit: number): Promise<number>;
}
