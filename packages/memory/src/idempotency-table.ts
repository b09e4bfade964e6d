// The idempotency records of a memory storage, and the view a transaction has of them: like
// the record tables (table.ts), a view collects its writes and applies them in one
// synchronous step on commit. Records are kept in the order they were inserted, which is the
// order they expire in while the calendar's time to live stays the same, so pruning reads
// from the front and stops at the first record that has not expired.
import { storageError, type IdempotencyRecord } from '@evcal/core/adapter';

const slotOf = (scope: string, key: string) => `${scope}\n${key}`;

/** The committed records, by scope and key, in insertion order. */
export class IdempotencyTable {
  readonly rows = new Map<string, IdempotencyRecord>();

  snapshot(): IdempotencyRecord[] {
    return [...this.rows.values()];
  }

  load(records: readonly IdempotencyRecord[] | undefined): void {
    this.rows.clear();
    for (const r of [...(records ?? [])].sort((a, b) => a.created - b.created)) this.rows.set(slotOf(r.scope, r.key), r);
  }
}

/** The records as one transaction sees them. */
export class IdempotencyView {
  /** Written in this transaction: a record, or null for one deleted. */
  private readonly changes = new Map<string, IdempotencyRecord | null>();

  constructor(private readonly table: IdempotencyTable) {}

  get dirty(): boolean {
    return this.changes.size > 0;
  }

  get(scope: string, key: string): IdempotencyRecord | undefined {
    const slot = slotOf(scope, key);
    const changed = this.changes.get(slot);
    return changed === undefined ? this.table.rows.get(slot) : changed ?? undefined;
  }

  insert(record: IdempotencyRecord): void {
    if (this.get(record.scope, record.key)) {
      throw storageError('conflict', new Error(`evcal/memory: an idempotency record for "${record.key}" exists`));
    }
    this.changes.set(slotOf(record.scope, record.key), record);
  }

  delete(scope: string, key: string): void {
    if (this.get(scope, key)) this.changes.set(slotOf(scope, key), null);
  }

  prune(now: number, limit: number): number {
    let removed = 0;
    for (const [slot, record] of this.table.rows) {
      if (removed >= limit || record.expires > now) break;
      if (this.changes.has(slot)) continue;
      this.changes.set(slot, null);
      removed++;
    }
    return removed;
  }

  commit(): void {
    for (const [slot, record] of this.changes) {
      // Deleted first, so that a record inserted again goes to the end of the order.
      this.table.rows.delete(slot);
      if (record) this.table.rows.set(slot, record);
    }
  }
}
