// The change counter and write transactions: every committed write transaction advances the
// counter and, alone, gets the next number; a failed one leaves it as it was; what a write
// transaction reads to change cannot change under it before it commits, and a record's revision
// only grows; storage failures are core's closed set of errors.
import { isCalendarError } from '@evcal/core/adapter';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';
import { eventRecord, termRecord, venueRecord } from './fixtures';

export function changesGroup(ctx: SuiteContext): void {
  describe('changes', () => {
    it('numbers each committed write transaction: lastChange() + 1, then lastChange()', async () => {
      const s = await ctx.fresh();
      expect(await s.lastChange()).toBe(0);
      const first = await s.transaction(async (tx) => {
        await tx.venues.insert(venueRecord(1, { revision: tx.change }));
        return tx.change;
      });
      expect(first).toBe(1);
      expect(await s.lastChange()).toBe(1);
      // A transaction inside a transaction joins it: one number.
      const nested = await s.transaction(async (tx) => tx.transaction(async (inner) => {
        await inner.venues.replace(venueRecord(1, { revision: inner.change }));
        return [tx.change, inner.change];
      }));
      expect(nested).toEqual([2, 2]);
      expect(await s.lastChange()).toBe(2);
    });

    it('answers every lastChange() with a value read after it was asked, also when many ask at once', async () => {
      const s = await ctx.fresh();
      // Reads asked together, some while a write commits between them.
      const before = [s.lastChange(), s.lastChange()];
      await new Promise((resolve) => setImmediate(resolve));
      const during = s.lastChange();
      await s.venues.insert(venueRecord(1));
      const after = [s.lastChange(), s.lastChange(), s.lastChange()];
      expect(await Promise.all(before)).toEqual([0, 0]);
      expect([0, 1]).toContain(await during);
      expect(await Promise.all(after)).toEqual([1, 1, 1]);
    });

    it('reads changeNow(), where the storage has it, as the committed counter: never a transaction\'s own before it commits', async (test) => {
      const s = await ctx.fresh();
      if (s.changeNow === undefined) return test.skip('this storage reads its counter only by lastChange()');
      const now = () => s.changeNow!();
      expect(now()).toBe(0);
      await s.venues.insert(venueRecord(1));
      expect(now()).toBe(await s.lastChange());
      // While a transaction runs: the last committed number, or undefined (cannot tell now).
      const during: (number | undefined)[] = [];
      await s.transaction(async (tx) => {
        await tx.venues.replace(venueRecord(1, { revision: tx.change }));
        during.push(now());
        await new Promise((resolve) => setImmediate(resolve));
        during.push(now());
      });
      expect(during).toHaveLength(2);
      for (const value of during) expect([undefined, 1]).toContain(value);
      expect(now()).toBe(2);
      // A transaction that fails leaves it as it was.
      await expect(s.transaction(async (tx) => {
        await tx.venues.replace(venueRecord(1, { revision: tx.change }));
        throw new Error('undone');
      })).rejects.toThrow('undone');
      expect(now()).toBe(2);
      expect(await s.lastChange()).toBe(2);
    });

    it('leaves the counter as it was after a transaction that wrote nothing', async () => {
      const s = await ctx.fresh();
      await s.venues.insert(venueRecord(1));
      expect(await s.transaction(async (tx) => (await tx.venues.get(1))?.id)).toBe(1);
      expect(await s.lastChange()).toBe(1);
      expect(await s.transaction(async (tx) => tx.change)).toBe(2);
      expect(await s.lastChange()).toBe(1);
    });

    it('counts a write outside a transaction as a transaction of its own', async () => {
      const s = await ctx.fresh();
      await s.categories.insert(termRecord(1));
      await s.events.insert(eventRecord(2, { categoryIds: [1] }));
      await s.events.unlink('category', 1, 3);
      expect(await s.lastChange()).toBe(3);
      expect((await s.events.get(2))!.revision).toBe(3);
    });

    it('leaves the counter as it was when a transaction fails (adapters with transactions)', async () => {
      const s = await ctx.fresh();
      if (!s.capabilities.transactions) return;
      await s.venues.insert(venueRecord(1));
      await expect(s.transaction(async (tx) => {
        await tx.venues.insert(venueRecord(2, { revision: tx.change }));
        throw new Error('boom');
      })).rejects.toThrow('boom');
      expect(await s.lastChange()).toBe(1);
      expect(await s.transaction(async (tx) => tx.change)).toBe(2);
    });

    it('runs concurrent read-modify-write transactions in some serial order: no lost update, revisions that grow', async () => {
      const s = await ctx.fresh();
      await s.venues.insert(venueRecord(1, { phone: '0' }));
      // Each reads the counter in the record and writes it back plus one; interleaved, some
      // increments would be lost. Writers may run side by side (PostgreSQL), but what each
      // read to change cannot change under it.
      const steps = await Promise.all(Array.from({ length: 25 }, () => s.transaction(async (tx) => {
        const venue = (await tx.venues.get(1))!;
        await new Promise((resolve) => setTimeout(resolve, 1));
        await tx.venues.replace({ ...venue, phone: String(Number(venue.phone) + 1), revision: tx.change });
        return { read: Number(venue.phone), readRevision: venue.revision, wrote: tx.change };
      })));
      const venue = (await s.venues.get(1))!;
      expect(venue.phone).toBe('25');
      // Some serial order: each read what the one before it wrote, and wrote a newer revision.
      const ordered = [...steps].sort((a, b) => a.read - b.read);
      ordered.forEach((step, i) => {
        expect(step.read).toBe(i);
        expect(step.readRevision).toBe(i === 0 ? 1 : ordered[i - 1]!.wrote);
        expect(step.wrote).toBeGreaterThan(step.readRevision);
      });
      expect(venue.revision).toBe(ordered[24]!.wrote);
      // Each commit advanced the counter, to at least the number it stamped (one after another: exactly 26).
      expect(await s.lastChange()).toBeGreaterThanOrEqual(Math.max(26, venue.revision));
    });

    it('keeps revisions and the counter across a reopen (durable adapters)', async () => {
      if (!ctx.options.reopen) return;
      const s = await ctx.fresh();
      await s.transaction(async (tx) => tx.events.insert(eventRecord(1, { revision: tx.change })));
      await s.transaction(async (tx) => tx.categories.insert(termRecord(2, { revision: tx.change })));
      const again = await ctx.reopen(s);
      expect(await again.lastChange()).toBe(2);
      expect([(await again.events.get(1))!.revision, (await again.categories.get(2))!.revision]).toEqual([1, 2]);
      expect(await again.transaction(async (tx) => tx.change)).toBe(3);
    });

    it('moves the counter past imported revisions with bump("change")', async () => {
      const s = await ctx.fresh();
      await s.transaction(async (tx) => {
        await tx.events.insert(eventRecord(1, { revision: 40 }));
        await tx.sequences.bump('change', 40);
      });
      expect(await s.lastChange()).toBe(40);
      expect(await s.transaction(async (tx) => tx.change)).toBe(41);
    });

    it('reports a record that is not there to replace, or already there to insert, as a conflict', async () => {
      const s = await ctx.fresh();
      await s.events.insert(eventRecord(1));
      for (const attempt of [() => s.events.insert(eventRecord(1)), () => s.events.replace(eventRecord(2)), () => s.venues.replace(venueRecord(3))]) {
        const error = await attempt().then(() => undefined, (e: unknown) => e);
        expect(isCalendarError(error) && error.code, String(error)).toBe('conflict');
      }
    });
  });
}
