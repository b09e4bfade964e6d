// The change log and the webhook outbox: entries in (change, seq) order from any position,
// written with their transaction or not at all, pruned up to a change; endpoints; deliveries
// claimed in order per endpoint and record, leased, settled, never claimed twice at once, and
// claims and settlements that take no change number. Durable adapters keep all of it.
import { isCalendarError, type ChangeEntry, type Storage, type WebhookDelivery, type WebhookEndpointRecord } from '@evcal/core/adapter';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';
import { eventRecord, termRecord, venueRecord } from './fixtures';

export const entry = (change: number, seq: number, over: Partial<ChangeEntry> = {}): ChangeEntry => ({
  change, seq, kind: 'event', id: 100 + seq, action: 'created', revision: change, at: 1_000 * change,
  before: null, after: { status: 'publish', authorId: 1 }, ...over,
});

export const endpoint = (id: string, over: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord => ({
  id, url: `https://hooks.example/${id}`, secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0', types: [], description: '',
  enabled: true, disabledReason: null, created: 1, updated: 1, ...over,
});

export const delivery = (endpointId: string, change: number, seq: number, over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  endpointId, change, seq, messageId: `msg_${change}_${seq}`, recordKey: `event:${100 + seq}`, type: 'event.created',
  payload: `{"change":${change}}`, state: 'pending', attempts: 0, nextAttemptAt: 0, leasedUntil: null, lastAttemptAt: null,
  lastStatus: null, lastError: null, ...over,
});

/** Appends entries in a write transaction of their own, as core does (with a record write). */
export async function logged(s: Storage, entries: (change: number) => ChangeEntry[], deliveries: (change: number) => WebhookDelivery[] = () => []): Promise<number> {
  return s.transaction(async (tx) => {
    await tx.changes.append(entries(tx.change));
    const d = deliveries(tx.change);
    if (d.length) await tx.webhooks.enqueue(d);
    return tx.change;
  });
}

export const keys = (list: readonly WebhookDelivery[]) => list.map((d) => `${d.endpointId}/${d.change}.${d.seq}`);

export function changeLogGroup(ctx: SuiteContext): void {
  describe('change log', () => {
    it('reads committed entries in (change, seq) order from any position, at most `limit`', async () => {
      const s = await ctx.fresh();
      const state = await s.changes.state();
      expect(state.id.length).toBeGreaterThan(0);
      expect(state.prunedThrough).toBe(0);
      const c1 = await logged(s, (c) => [entry(c, 0), entry(c, 1, { kind: 'venue', id: 7, action: 'updated', before: { status: 'draft', authorId: 2 } })]);
      const c2 = await logged(s, (c) => [entry(c, 0, { kind: 'category', id: 3, before: null, after: null, action: 'deleted' })]);
      expect(c2).toBe(c1 + 1);
      const all = await s.changes.read({ change: 0, seq: 0 }, 10);
      expect(all).toEqual([
        entry(c1, 0),
        entry(c1, 1, { kind: 'venue', id: 7, action: 'updated', before: { status: 'draft', authorId: 2 } }),
        entry(c2, 0, { kind: 'category', id: 3, before: null, after: null, action: 'deleted' }),
      ]);
      expect((await s.changes.read({ change: c1, seq: 1 }, 10)).map((e) => [e.change, e.seq])).toEqual([[c1, 1], [c2, 0]]);
      expect((await s.changes.read({ change: c1, seq: 0 }, 1)).map((e) => [e.change, e.seq])).toEqual([[c1, 0]]);
      expect(await s.changes.read({ change: c2 + 1, seq: 0 }, 10)).toEqual([]);
      expect(await s.changes.read({ change: 0, seq: 0 }, 0)).toEqual([]);
    });

    it('keeps the occurrences a series\' entry names, and the series an occurrence\'s entry names', async () => {
      const s = await ctx.fresh();
      const big = 740_055 * 2 ** 31 + 42;
      const occurrences = { created: [big, big + 2 ** 31], updated: [], trashed: [big + 2 ** 32], deleted: [1] };
      const c = await logged(s, (change) => [
        entry(change, 0, { id: 42, occurrences }),
        entry(change, 1, { id: big, action: 'updated', series: 42 }),
        entry(change, 2, { id: 43 }),
      ]);
      const read = await s.changes.read({ change: c, seq: 0 }, 10);
      expect(read).toEqual([entry(c, 0, { id: 42, occurrences }), entry(c, 1, { id: big, action: 'updated', series: 42 }), entry(c, 2, { id: 43 })]);
      expect(read[2]).not.toHaveProperty('occurrences');
      expect(read[2]).not.toHaveProperty('series');
      if (ctx.options.reopen) {
        const again = await ctx.reopen(s);
        expect(await again.changes.read({ change: c, seq: 0 }, 10)).toEqual(read);
      }
    });

    it('writes nothing of a transaction that fails (adapters with transactions)', async () => {
      const s = await ctx.fresh();
      if (!s.capabilities.transactions) return;
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      await expect(s.transaction(async (tx) => {
        await tx.events.insert(eventRecord(1, { revision: tx.change }));
        await tx.changes.append([entry(tx.change, 0)]);
        await tx.webhooks.enqueue([delivery('ep_a', tx.change, 0)]);
        throw new Error('boom');
      })).rejects.toThrow('boom');
      expect(await s.changes.read({ change: 0, seq: 0 }, 10)).toEqual([]);
      expect(await s.webhooks.deliveries('ep_a', 10)).toEqual([]);
    });

    it('prunes every change up to the last one logged before the cutoff, and remembers how far', async () => {
      const s = await ctx.fresh();
      const c1 = await logged(s, (c) => [entry(c, 0, { at: 1_000 }), entry(c, 1, { at: 1_000 })]);
      const c2 = await logged(s, (c) => [entry(c, 0, { at: 5_000 })]);
      const c3 = await logged(s, (c) => [entry(c, 0, { at: 9_000 })]);
      await s.changes.prune(6_000);
      expect((await s.changes.read({ change: 0, seq: 0 }, 10)).map((e) => e.change)).toEqual([c3]);
      expect((await s.changes.state()).prunedThrough).toBe(c2);
      // A cutoff before what was pruned moves nothing back, and takes no change number.
      const last = await s.lastChange();
      await s.changes.prune(2_000);
      expect((await s.changes.state()).prunedThrough).toBe(c2);
      expect(await s.lastChange()).toBe(last);
      expect(c1).toBeLessThan(c2);
    });

    it('keeps the log, its identity and how far it was pruned across a reopen (durable adapters)', async () => {
      if (!ctx.options.reopen) return;
      const s = await ctx.fresh();
      const c1 = await logged(s, (c) => [entry(c, 0, { at: 1 })]);
      const c2 = await logged(s, (c) => [entry(c, 0, { at: 50 }), entry(c, 1, { at: 50, kind: 'tag', id: 9, before: null, after: null })]);
      await s.changes.prune(10);
      const before = await s.changes.state();
      const again = await ctx.reopen(s);
      expect(await again.changes.state()).toEqual(before);
      expect(before.prunedThrough).toBe(c1);
      expect(await again.changes.read({ change: 0, seq: 0 }, 10)).toEqual([entry(c2, 0, { at: 50 }), entry(c2, 1, { at: 50, kind: 'tag', id: 9, before: null, after: null })]);
    });

    it('gives each new storage a log of its own', async () => {
      const [a, b] = [await ctx.fresh(), await ctx.fresh()];
      expect((await a.changes.state()).id).not.toBe((await b.changes.state()).id);
    });

    it('unlink returns the events it changed', async () => {
      const s = await ctx.fresh();
      await s.venues.insert(venueRecord(1));
      await s.categories.insert(termRecord(2));
      await s.events.insert(eventRecord(10, { venueIds: [1], categoryIds: [2] }));
      await s.events.insert(eventRecord(11, { categoryIds: [2] }));
      await s.events.insert(eventRecord(12, { venueIds: [1] }));
      await s.events.insert(eventRecord(13));
      expect([...await s.events.unlink('category', 2, 9)].sort((x, y) => x - y)).toEqual([10, 11]);
      expect([...await s.events.unlink('venue', 1, 10)].sort((x, y) => x - y)).toEqual([10, 12]);
      expect(await s.events.unlink('venue', 1, 11)).toEqual([]);
    });

    it('setStatus moves only the posts in the status given, with the revision given, and the counts follow', async () => {
      const s = await ctx.fresh();
      await s.categories.insert(termRecord(2));
      await s.events.insert(eventRecord(10, { status: 'future', categoryIds: [2] }));
      await s.events.insert(eventRecord(11, { status: 'future', categoryIds: [2] }));
      await s.events.insert(eventRecord(12, { status: 'draft', categoryIds: [2] }));
      await s.venues.insert(venueRecord(1, { status: 'future' }));
      await s.venues.insert(venueRecord(3, { status: 'publish' }));
      expect(await s.events.countByTerm('category', [2], ['publish'])).toEqual(new Map([[2, 0]]));
      expect(await s.events.setStatus([12, 11, 10, 99], 'future', 'publish', 9)).toEqual([10, 11]);
      expect((await s.events.getMany([10, 11, 12])).map((e) => [e.id, e.status, e.revision]).sort()).toEqual([
        [10, 'publish', 9], [11, 'publish', 9], [12, 'draft', eventRecord(12).revision],
      ]);
      expect(await s.events.countByTerm('category', [2], ['publish'])).toEqual(new Map([[2, 2]]));
      const listed = await s.events.list({ records: 'listed', statuses: ['publish'], excludeHidden: false, categoryIds: [2], sort: [{ field: 'id', direction: 'asc' }] });
      expect([listed.items.map((e) => e.id), listed.total]).toEqual([[10, 11], 2]);
      expect(await s.events.setStatus([10, 11], 'future', 'publish', 10)).toEqual([]);
      expect(await s.venues.setStatus([1, 3], 'future', 'publish', 11)).toEqual([1]);
      expect((await s.venues.get(1))).toMatchObject({ status: 'publish', revision: 11 });
      expect(await s.organizers.setStatus([], 'future', 'publish', 12)).toEqual([]);
    });

    it('setStatus moves occurrences too (ids above 2^31)', async () => {
      const s = await ctx.fresh();
      // An occurrence's id: its day (days since 0000-03-01, as core counts them) above 2^31, then its series' id.
      const occurrence = (Date.parse('2026-06-06T00:00:00Z') / 86_400_000 + 719_163) * 2 ** 31 + 7;
      await s.events.insert(eventRecord(7, { status: 'future', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2', rdate: [], exdate: [], idBase: 7 } }));
      await s.events.insert(eventRecord(occurrence, { status: 'future', parentId: 7, startUtc: Date.parse('2026-06-06T18:00:00Z'), slug: 'event-7/2026-06-06', occurrence: { date: '2026-06-06', originalStart: '2026-06-06 18:00:00' } }));
      expect(await s.events.setStatus([occurrence, 7], 'future', 'publish', 9)).toEqual([7, occurrence]);
      expect(await s.events.get(occurrence)).toMatchObject({ status: 'publish', revision: 9 });
    });
  });

  describe('webhook endpoints and outbox', () => {
    it('stores endpoints; a taken id or a missing one is a conflict; deleting removes its deliveries', async () => {
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_b', { created: 2, types: ['event.created', 'venue.updated'] }));
      await s.webhooks.insertEndpoint(endpoint('ep_a', { created: 1, description: 'Search index' }));
      expect((await s.webhooks.listEndpoints()).map((e) => e.id)).toEqual(['ep_a', 'ep_b']);
      expect(await s.webhooks.getEndpoint('ep_b')).toEqual(endpoint('ep_b', { created: 2, types: ['event.created', 'venue.updated'] }));
      expect(await s.webhooks.getEndpoint('ep_zz')).toBeUndefined();
      for (const attempt of [() => s.webhooks.insertEndpoint(endpoint('ep_a')), () => s.webhooks.replaceEndpoint(endpoint('ep_zz'))]) {
        const error = await attempt().then(() => undefined, (e: unknown) => e);
        expect(isCalendarError(error) && error.code, String(error)).toBe('conflict');
      }
      await s.webhooks.replaceEndpoint(endpoint('ep_a', { enabled: false, disabledReason: 'gone', updated: 5 }));
      expect(await s.webhooks.getEndpoint('ep_a')).toMatchObject({ enabled: false, disabledReason: 'gone', updated: 5 });
      await logged(s, (c) => [entry(c, 0)], (c) => [delivery('ep_a', c, 0), delivery('ep_b', c, 0)]);
      await s.webhooks.deleteEndpoint('ep_a');
      expect(await s.webhooks.getEndpoint('ep_a')).toBeUndefined();
      expect(await s.webhooks.deliveries('ep_a', 10)).toEqual([]);
      expect(keys(await s.webhooks.deliveries('ep_b', 10))).toHaveLength(1);
    });

    it('claims the first pending delivery of each endpoint and record, due, of enabled endpoints, in order', async () => {
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      await s.webhooks.insertEndpoint(endpoint('ep_off', { enabled: false, disabledReason: 'manual' }));
      // Record event:100 changed twice; event:101 once; one delivery not due yet.
      const c1 = await logged(s, (c) => [entry(c, 0), entry(c, 1)], (c) => [delivery('ep_a', c, 0), delivery('ep_a', c, 1), delivery('ep_off', c, 0)]);
      const c2 = await logged(s, (c) => [entry(c, 0)], (c) => [delivery('ep_a', c, 0)]);
      const c3 = await logged(s, (c) => [entry(c, 2)], (c) => [delivery('ep_a', c, 2, { nextAttemptAt: 5_000 })]);
      const claimed = await s.webhooks.claim({ now: 1_000, leasedUntil: 31_000, limit: 10 });
      expect(keys(claimed)).toEqual([`ep_a/${c1}.0`, `ep_a/${c1}.1`]);
      expect(claimed.every((d) => d.leasedUntil === 31_000)).toBe(true);
      // Leased: not claimed again before the lease runs out; the second change of event:100 waits for the first.
      expect(keys(await s.webhooks.claim({ now: 2_000, leasedUntil: 32_000, limit: 10 }))).toEqual([]);
      await s.webhooks.settle(claimed[0]!, { state: 'delivered' });
      await s.webhooks.settle(claimed[1]!, { state: 'pending', attempts: 1, nextAttemptAt: 40_000, lastAttemptAt: 2_000, lastStatus: 503, lastError: 'HTTP 503' });
      expect(keys(await s.webhooks.claim({ now: 6_000, leasedUntil: 36_000, limit: 10 }))).toEqual([`ep_a/${c2}.0`, `ep_a/${c3}.2`]);
      const retried = (await s.webhooks.deliveries('ep_a', 10)).find((d) => d.change === c1 && d.seq === 1)!;
      expect(retried).toMatchObject({ attempts: 1, nextAttemptAt: 40_000, leasedUntil: null, lastAttemptAt: 2_000, lastStatus: 503, lastError: 'HTTP 503', state: 'pending' });
      // A lease that ran out is claimed again.
      expect(keys(await s.webhooks.claim({ now: 37_000, leasedUntil: 67_000, limit: 10 }))).toEqual([`ep_a/${c2}.0`, `ep_a/${c3}.2`]);
      expect(keys(await s.webhooks.claim({ now: 70_000, leasedUntil: 99_000, limit: 1 }))).toEqual([`ep_a/${c1}.1`]);
    });

    it('lets a failed delivery stop blocking its record, and prunes failed ones by their last attempt', async () => {
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      const c1 = await logged(s, (c) => [entry(c, 0)], (c) => [delivery('ep_a', c, 0)]);
      const c2 = await logged(s, (c) => [entry(c, 0)], (c) => [delivery('ep_a', c, 0)]);
      const [first] = await s.webhooks.claim({ now: 0, leasedUntil: 10, limit: 10 });
      await s.webhooks.settle(first!, { state: 'failed', attempts: 8, nextAttemptAt: 0, lastAttemptAt: 500, lastStatus: null, lastError: 'timed out' });
      expect(keys(await s.webhooks.claim({ now: 20, leasedUntil: 30, limit: 10 }))).toEqual([`ep_a/${c2}.0`]);
      await s.webhooks.prune(400);
      expect(keys(await s.webhooks.deliveries('ep_a', 10))).toEqual([`ep_a/${c1}.0`, `ep_a/${c2}.0`]);
      await s.webhooks.prune(600);
      expect(keys(await s.webhooks.deliveries('ep_a', 10))).toEqual([`ep_a/${c2}.0`]);
    });

    it('gives concurrent claims disjoint deliveries', async () => {
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      await logged(s, (c) => Array.from({ length: 30 }, (_, i) => entry(c, i)), (c) => Array.from({ length: 30 }, (_, i) => delivery('ep_a', c, i)));
      const claims = await Promise.all(Array.from({ length: 6 }, () => s.webhooks.claim({ now: 1, leasedUntil: 1_000, limit: 7 })));
      const all = claims.flatMap(keys);
      expect(new Set(all).size).toBe(all.length);
      expect(all.length).toBe(30);
    });

    it('claims, settlements and pruning the outbox take no change number', async () => {
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      await logged(s, (c) => [entry(c, 0)], (c) => [delivery('ep_a', c, 0)]);
      const last = await s.lastChange();
      const [d] = await s.webhooks.claim({ now: 0, leasedUntil: 10, limit: 5 });
      await s.webhooks.settle(d!, { state: 'delivered' });
      await s.webhooks.prune(1_000);
      expect(await s.lastChange()).toBe(last);
      expect(await s.webhooks.deliveries('ep_a', 5)).toEqual([]);
    });

    it('keeps endpoints and pending deliveries across a reopen (durable adapters)', async () => {
      if (!ctx.options.reopen) return;
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a', { types: ['event.updated'] }));
      const c = await logged(s, (n) => [entry(n, 0)], (n) => [delivery('ep_a', n, 0), delivery('ep_a', n, 1, { recordKey: 'venue:3' })]);
      await s.webhooks.claim({ now: 0, leasedUntil: 99, limit: 1 });
      const again = await ctx.reopen(s);
      expect(await again.webhooks.listEndpoints()).toEqual([endpoint('ep_a', { types: ['event.updated'] })]);
      expect(await again.webhooks.deliveries('ep_a', 10)).toEqual([delivery('ep_a', c, 0, { leasedUntil: 99 }), delivery('ep_a', c, 1, { recordKey: 'venue:3' })]);
    });
  });
}
