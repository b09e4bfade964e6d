// Idempotency records: kept per scope and key exactly as given, written with their
// transaction or not at all, one per scope and key (a second insert is a conflict, the
// unique key that decides between servers), deleted, pruned oldest first and at most as many
// as asked, and kept across a reopen by durable adapters.
import { isCalendarError, type IdempotencyRecord, type Storage } from '@evcal/core/adapter';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';
import { eventRecord } from './fixtures';

const record = (key: string, over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  scope: 'user:1', key, fingerprint: `POST /events ${key}`, answer: '{"status":201,"body":"{}"}', created: 1_000, expires: 2_000, ...over,
});

/** Inserts records in a write transaction of their own, with an event as a keyed write has. */
async function kept(s: Storage, ...records: IdempotencyRecord[]): Promise<void> {
  await s.transaction(async (tx) => {
    for (const r of records) await tx.idempotency.insert(r);
  });
}

export function idempotencyGroup(ctx: SuiteContext): void {
  describe('idempotency records', () => {
    it('keeps a record per scope and key exactly as given', async () => {
      const s = await ctx.fresh();
      expect(await s.idempotency.get('user:1', 'a')).toBeUndefined();
      // Every printable ASCII character, 255 of them, and an answer with text outside ASCII.
      const long = Array.from({ length: 255 }, (_, i) => String.fromCharCode(0x20 + (i % 95))).join('');
      const answer = JSON.stringify({ status: 201, headers: { location: 'https://x.example/e/1' }, body: '{"title":"Café ☕ — 𝄞"}' });
      const records = [record('a'), record('a', { scope: 'user:2', fingerprint: 'other', expires: 3_000 }), record(long, { scope: 'anonymous', answer })];
      await kept(s, ...records);
      expect(await s.idempotency.get('user:1', 'a')).toEqual(records[0]);
      expect(await s.idempotency.get('user:2', 'a')).toEqual(records[1]);
      expect(await s.idempotency.get('anonymous', long)).toEqual(records[2]);
      expect(await s.idempotency.get('user:3', 'a')).toBeUndefined();
      expect(await s.idempotency.get('user:1', 'A')).toBeUndefined();
      // Instants past 2^31 and 2^32 ms (2038) stay exact.
      await kept(s, record('late', { created: 2 ** 41 + 7, expires: 2 ** 41 + 86_400_007 }));
      expect(await s.idempotency.get('user:1', 'late')).toEqual(record('late', { created: 2 ** 41 + 7, expires: 2 ** 41 + 86_400_007 }));
    });

    it('refuses a second record for a scope and key as a conflict, and keeps the first', async () => {
      const s = await ctx.fresh();
      await kept(s, record('k'));
      const error = await kept(s, record('k', { fingerprint: 'second', answer: 'second' })).then(() => undefined, (e: unknown) => e);
      expect(isCalendarError(error) && error.code).toBe('conflict');
      expect(await s.idempotency.get('user:1', 'k')).toEqual(record('k'));
    });

    it('writes nothing of a transaction that fails, and everything of one that commits (adapters with transactions)', async () => {
      const s = await ctx.fresh();
      if (!s.capabilities.transactions) return;
      await expect(s.transaction(async (tx) => {
        await tx.events.insert(eventRecord(1, { revision: tx.change }));
        await tx.idempotency.insert(record('lost'));
        throw new Error('boom');
      })).rejects.toThrow('boom');
      expect(await s.idempotency.get('user:1', 'lost')).toBeUndefined();
      expect(await s.events.get(1)).toBeUndefined();
      // Inside the transaction, its own record is read back; outside, only once it commits.
      await s.transaction(async (tx) => {
        await tx.events.insert(eventRecord(2, { revision: tx.change }));
        await tx.idempotency.insert(record('won'));
        expect(await tx.idempotency.get('user:1', 'won')).toEqual(record('won'));
      });
      expect(await s.idempotency.get('user:1', 'won')).toEqual(record('won'));
      expect(await s.events.get(2)).toBeDefined();
    });

    it('deletes a record, after which the key takes a new one', async () => {
      const s = await ctx.fresh();
      await kept(s, record('k'), record('other'));
      await s.transaction(async (tx) => {
        await tx.idempotency.delete('user:1', 'k');
        await tx.idempotency.delete('user:1', 'never');
        await tx.idempotency.insert(record('k', { fingerprint: 'new', created: 5_000, expires: 9_000 }));
      });
      expect(await s.idempotency.get('user:1', 'k')).toEqual(record('k', { fingerprint: 'new', created: 5_000, expires: 9_000 }));
      await s.idempotency.delete('user:1', 'other');
      expect(await s.idempotency.get('user:1', 'other')).toBeUndefined();
    });

    it('prunes expired records, those that expired first first, at most `limit`', async () => {
      const s = await ctx.fresh();
      // Inserted in the order they expire, as a calendar with one time to live writes them.
      await kept(s, record('e1', { created: 0, expires: 100 }), record('e2', { created: 10, expires: 110 }));
      await kept(s, record('e3', { created: 20, expires: 120 }), record('live', { created: 30, expires: 500 }));
      expect(await s.idempotency.prune(150, 2)).toBe(2);
      expect(await s.idempotency.get('user:1', 'e1')).toBeUndefined();
      expect(await s.idempotency.get('user:1', 'e2')).toBeUndefined();
      expect(await s.idempotency.get('user:1', 'e3')).toEqual(record('e3', { created: 20, expires: 120 }));
      // `expires` itself is expired; a record expiring later stays.
      expect(await s.idempotency.prune(120, 10)).toBe(1);
      expect(await s.idempotency.get('user:1', 'e3')).toBeUndefined();
      expect(await s.idempotency.prune(499, 10)).toBe(0);
      expect(await s.idempotency.get('user:1', 'live')).toEqual(record('live', { created: 30, expires: 500 }));
    });

    it.skipIf(!ctx.options.reopen)('keeps records across a reopen (durable adapters)', async () => {
      const s = await ctx.fresh();
      await kept(s, record('a'), record('b', { scope: 'anonymous' }));
      const again = await ctx.reopen(s);
      expect(await again.idempotency.get('user:1', 'a')).toEqual(record('a'));
      expect(await again.idempotency.get('anonymous', 'b')).toEqual(record('b', { scope: 'anonymous' }));
    });
  });
}
