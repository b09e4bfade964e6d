// What the outbox tells of each endpoint, for GET /webhooks: its last attempt (when, status,
// error) recorded by the settlement that carries it, its failures in a row counted by the
// storage (several senders settle at once), how many deliveries wait or failed and when the
// next is due; none of it takes a change number, changing the endpoint leaves it, removing
// the endpoint removes it. And `wake`, which makes what waits due at once (a sender starting).
import type { WebhookEndpointStatus } from '@evcal/core/adapter';
import { describe, expect, it } from 'vitest';
import { delivery, endpoint, entry, keys, logged } from './change-log-group';
import type { SuiteContext } from './context';

const idle = (endpointId: string): WebhookEndpointStatus => ({
  endpointId, lastAttemptAt: null, lastStatus: null, lastError: null, consecutiveFailures: 0, waiting: 0, failed: 0, nextAttemptAt: null,
});

const byId = (list: readonly WebhookEndpointStatus[]) => Object.fromEntries(list.map((s) => [s.endpointId, s]));

export function webhookStatusGroup(ctx: SuiteContext): void {
  describe('webhook endpoint status', () => {
    it('records each attempt in its endpoint\'s status, counts failures in a row and the outbox, and takes no change number', async () => {
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      await s.webhooks.insertEndpoint(endpoint('ep_b'));
      expect(byId(await s.webhooks.statuses())).toEqual({ ep_a: idle('ep_a'), ep_b: idle('ep_b') });
      // Three records for ep_a, one for ep_b.
      const c = await logged(s, (n) => [entry(n, 0), entry(n, 1), entry(n, 2)], (n) => [
        delivery('ep_a', n, 0, { nextAttemptAt: 50 }), delivery('ep_a', n, 1, { nextAttemptAt: 60 }), delivery('ep_a', n, 2, { nextAttemptAt: 70 }), delivery('ep_b', n, 0, { nextAttemptAt: 80 }),
      ]);
      let last = await s.lastChange();
      const claimed = await s.webhooks.claim({ now: 100, leasedUntil: 1_000, limit: 10 });
      const [a0, a1, a2] = claimed.filter((d) => d.endpointId === 'ep_a');
      await s.webhooks.settle(a0!, { state: 'pending', attempts: 1, nextAttemptAt: 5_000, lastAttemptAt: 110, lastStatus: 503, lastError: 'HTTP 503' }, { at: 110, status: 503, error: 'HTTP 503' });
      await s.webhooks.settle(a1!, { state: 'failed', attempts: 8, nextAttemptAt: 60, lastAttemptAt: 120, lastStatus: null, lastError: 'connect ECONNREFUSED' }, { at: 120, status: null, error: 'connect ECONNREFUSED' });
      // Settled without an attempt (the endpoint was disabled since the claim): the status stays.
      await s.webhooks.settle(a2!, { state: 'pending', attempts: 0, nextAttemptAt: 70, lastAttemptAt: null, lastStatus: null, lastError: null });
      expect(byId(await s.webhooks.statuses()).ep_a).toEqual({
        endpointId: 'ep_a', lastAttemptAt: 120, lastStatus: null, lastError: 'connect ECONNREFUSED', consecutiveFailures: 2, waiting: 2, failed: 1, nextAttemptAt: 70,
      });
      expect(await s.lastChange()).toBe(last);
      // Changing the endpoint leaves its status.
      await s.webhooks.replaceEndpoint(endpoint('ep_a', { description: 'renamed', updated: 9 }));
      last = await s.lastChange();
      expect(byId(await s.webhooks.statuses()).ep_a).toMatchObject({ lastError: 'connect ECONNREFUSED', consecutiveFailures: 2 });
      // A success: no error, no failures in a row; the delivery leaves the outbox.
      const [again] = (await s.webhooks.claim({ now: 200, leasedUntil: 1_000, limit: 10 })).filter((d) => d.endpointId === 'ep_a');
      expect(keys([again!])).toEqual([`ep_a/${c}.2`]);
      await s.webhooks.settle(again!, { state: 'delivered' }, { at: 210, status: 204, error: null });
      expect(byId(await s.webhooks.statuses()).ep_a).toEqual({
        endpointId: 'ep_a', lastAttemptAt: 210, lastStatus: 204, lastError: null, consecutiveFailures: 0, waiting: 1, failed: 1, nextAttemptAt: 5_000,
      });
      expect(byId(await s.webhooks.statuses()).ep_b).toEqual({ ...idle('ep_b'), waiting: 1, nextAttemptAt: 80 });
      expect(await s.lastChange()).toBe(last);
      // Removing the endpoint removes its status.
      await s.webhooks.deleteEndpoint('ep_a');
      expect((await s.webhooks.statuses()).map((x) => x.endpointId)).toEqual(['ep_b']);
    });

    it('counts every failure of concurrent settlements', async () => {
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      await logged(s, (n) => Array.from({ length: 6 }, (_, i) => entry(n, i)), (n) => Array.from({ length: 6 }, (_, i) => delivery('ep_a', n, i)));
      const claimed = await s.webhooks.claim({ now: 0, leasedUntil: 1_000, limit: 10 });
      expect(claimed).toHaveLength(6);
      await Promise.all(claimed.map((d, i) => s.webhooks.settle(d, {
        state: 'pending', attempts: 1, nextAttemptAt: 500, lastAttemptAt: 10 + i, lastStatus: 500, lastError: 'HTTP 500',
      }, { at: 10 + i, status: 500, error: 'HTTP 500' })));
      expect(byId(await s.webhooks.statuses()).ep_a).toMatchObject({ consecutiveFailures: 6, lastStatus: 500, lastError: 'HTTP 500', waiting: 6 });
    });

    it('wake makes the waiting deliveries due now, keeps leases, leaves failed ones, and takes no change number', async () => {
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      const c = await logged(s, (n) => [entry(n, 0), entry(n, 1), entry(n, 2), entry(n, 3)], (n) => [
        delivery('ep_a', n, 0, { nextAttemptAt: 90_000, attempts: 3 }), delivery('ep_a', n, 1, { nextAttemptAt: 500 }),
        delivery('ep_a', n, 2, { nextAttemptAt: 90_000, state: 'failed', attempts: 8 }), delivery('ep_a', n, 3),
      ]);
      // ep_a/c.3 is due and claimed: its attempt is in flight.
      const [leased] = await s.webhooks.claim({ now: 0, leasedUntil: 50_000, limit: 1 });
      expect(keys([leased!])).toEqual([`ep_a/${c}.3`]);
      const last = await s.lastChange();
      await s.webhooks.wake(1_000);
      expect(await s.lastChange()).toBe(last);
      const after = Object.fromEntries((await s.webhooks.deliveries('ep_a', 10)).map((d) => [d.seq, [d.state, d.nextAttemptAt, d.attempts]]));
      // Woken: due at 1000, attempts kept. Due already (500), failed, and leased: as they were; the lease holds.
      expect(after).toEqual({ 0: ['pending', 1_000, 3], 1: ['pending', 500, 0], 2: ['failed', 90_000, 8], 3: ['pending', 0, 0] });
      expect(keys(await s.webhooks.claim({ now: 1_000, leasedUntil: 2_000, limit: 10 }))).toEqual([`ep_a/${c}.0`, `ep_a/${c}.1`]);
    });

    it('keeps endpoints\' attempts across a reopen (durable adapters)', async () => {
      if (!ctx.options.reopen) return;
      const s = await ctx.fresh();
      await s.webhooks.insertEndpoint(endpoint('ep_a'));
      await logged(s, (n) => [entry(n, 0)], (n) => [delivery('ep_a', n, 0)]);
      const [d] = await s.webhooks.claim({ now: 0, leasedUntil: 99, limit: 1 });
      await s.webhooks.settle(d!, { state: 'pending', attempts: 1, nextAttemptAt: 7_000, lastAttemptAt: 40, lastStatus: 502, lastError: 'HTTP 502' }, { at: 40, status: 502, error: 'HTTP 502' });
      const again = await ctx.reopen(s);
      expect(await again.webhooks.statuses()).toEqual([{
        endpointId: 'ep_a', lastAttemptAt: 40, lastStatus: 502, lastError: 'HTTP 502', consecutiveFailures: 1, waiting: 1, failed: 0, nextAttemptAt: 7_000,
      }]);
    });
  });
}
