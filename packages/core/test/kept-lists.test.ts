// Every list shape a client sends is kept (plan-cache.ts): asked again unchanged, it is
// answered without reading the storage, and its validator holds for a repeated 304. And a kept
// list is never stale: a write, the clock crossing midnight under a relative date, and a
// scheduled post coming due each make the next request read again and see the change.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '@evcal/memory';
import { admin, anon, as, eventInput, makeCalendar } from './helpers';

/** A memory storage that counts the event lists it is asked for (not the scheduler's look for posts due). */
function countingStorage() {
  const storage = createMemoryStorage();
  const reads = { events: 0 };
  const list = storage.events.list.bind(storage.events);
  storage.events.list = (query) => {
    if (query.records === 'listed') reads.events++;
    return list(query);
  };
  return { storage, reads };
}

const titles = (body: { events: unknown }) => (body.events as { title: string }[]).map((e) => e.title);

describe('every list shape is kept', () => {
  const SHAPES: Record<string, Record<string, unknown>> = {
    'a month': { start_date: '2026-12-01', end_date: '2026-12-31', per_page: 5 },
    'a week with a category': { start_date: '2026-11-30', end_date: '2026-12-06', categories: 'music' },
    'a search in a month': { search: 'jazz', start_date: '2026-12-01', end_date: '2026-12-31' },
    'a page past the first': { start_date: '2026-12-01', end_date: '2026-12-31', per_page: 1, page: 2 },
    'strict dates': { start_date: '2026-12-01 00:00:00', end_date: '2026-12-31 23:59:59', strict_dates: true },
    'starts_after and ends_before': { starts_after: '2026-11-30', ends_before: '2027-01-01' },
    'modified_after': { modified_after: '2026-01-01 00:00:00' },
    'include': { include: '1,2' },
    'a venue and featured': { venue: 1, featured: false, start_date: '2026-12-01' },
    'a relative date (tomorrow)': { start_date: 'tomorrow', end_date: '2026-12-31' },
    'a relative date (now)': { start_date: 'now' },
  };

  for (const [shape, input] of Object.entries(SHAPES)) {
    it(`${shape}: asked again, answered without reading the storage, and 304-able`, async () => {
      const { storage, reads } = countingStorage();
      const calendar = makeCalendar({ storage });
      await calendar.venues.create({ venue: 'Hall' }, as(admin));
      await calendar.events.create(eventInput({ title: 'Jazz One', venue: 1, categories: ['Music'], status: 'publish' }), as(admin));
      await calendar.events.create(eventInput({ title: 'Jazz Two', start_date: '2026-12-02 20:00:00', end_date: '2026-12-02 23:00:00', venue: 1, categories: ['Music'] }), as(admin));
      reads.events = 0;
      const first = await calendar.events.list(input, anon);
      expect(reads.events).toBe(1);
      const again = await calendar.events.list(input, anon);
      expect(reads.events, 'read again').toBe(1);
      expect(again.json).toBe(first.json);
      const plan = await calendar.events.planList(input, anon);
      expect(plan.validator).toBe(first.validator);
      expect(plan.stable).toBeDefined();
      expect(await calendar.listUnchanged(plan.stable!)).toBe(true);
    });
  }
});

describe('a kept list is never stale', () => {
  it('a write: the next request reads again and shows it', async () => {
    const { storage, reads } = countingStorage();
    const calendar = makeCalendar({ storage });
    const month = { start_date: '2026-12-01', end_date: '2026-12-31' };
    await calendar.events.create(eventInput({ title: 'First' }), as(admin));
    const before = await calendar.events.list(month, anon);
    const plan = await calendar.events.planList(month, anon);
    await calendar.events.create(eventInput({ title: 'Second', start_date: '2026-12-09 20:00:00', end_date: '2026-12-09 22:00:00' }), as(admin));
    expect(await calendar.listUnchanged(plan.stable!)).toBe(false);
    reads.events = 0;
    const after = await calendar.events.list(month, anon);
    expect(reads.events).toBe(1);
    expect(titles(before.body)).toEqual(['First']);
    expect(titles(after.body)).toEqual(['First', 'Second']);
    expect(after.validator).not.toBe(before.validator);
  });

  it('a relative date crossing midnight: kept during its day, read again after it', async () => {
    // New York: 23:59:30 on 1 December, then 00:00:30 on the 2nd.
    let now = Date.UTC(2026, 11, 2, 4, 59, 30);
    const { storage, reads } = countingStorage();
    const calendar = makeCalendar({ storage, now: () => now });
    await calendar.events.create(eventInput({ title: 'Tonight', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00' }), as(admin));
    await calendar.events.create(eventInput({ title: 'Tomorrow night', start_date: '2026-12-02 20:00:00', end_date: '2026-12-02 23:00:00' }), as(admin));
    const today = { start_date: 'today', end_date: 'today' };
    reads.events = 0;
    expect(titles((await calendar.events.list(today, anon)).body)).toEqual(['Tonight']);
    const plan = await calendar.events.planList(today, anon);
    now += 20_000; // 23:59:50: the same day, kept
    expect(titles((await calendar.events.list(today, anon)).body)).toEqual(['Tonight']);
    expect(reads.events).toBe(1);
    expect(await calendar.listUnchanged(plan.stable!)).toBe(true);
    now += 40_000; // 00:00:30 on the 2nd
    expect(await calendar.listUnchanged(plan.stable!)).toBe(false);
    expect(titles((await calendar.events.list(today, anon)).body)).toEqual(['Tomorrow night']);
    expect(reads.events).toBe(2);
  });

  it('`now` is resolved before the list is looked up: kept by the instant it resolves to', async () => {
    let now = Date.UTC(2026, 11, 1, 22, 0, 0); // 17:00 in New York
    const { storage, reads } = countingStorage();
    const calendar = makeCalendar({ storage, now: () => now });
    await calendar.events.create(eventInput({ title: 'Early', start_date: '2026-12-01 18:00:00', end_date: '2026-12-01 19:00:00' }), as(admin));
    const fromNow = { start_date: 'now', strict_dates: true };
    reads.events = 0;
    expect(titles((await calendar.events.list(fromNow, anon)).body)).toEqual(['Early']);
    expect(titles((await calendar.events.list(fromNow, anon)).body)).toEqual(['Early']);
    expect(reads.events).toBe(1);
    now += 1000; // another second: another instant, another list (the same events, read again)
    await calendar.events.list(fromNow, anon);
    expect(reads.events).toBe(2);
    now = Date.UTC(2026, 12 - 1, 2, 0, 30, 0); // 19:30 in New York: the event has ended
    expect(titles((await calendar.events.list(fromNow, anon)).body)).toEqual([]);
  });

  it('a scheduled post coming due: kept until it is published, then read again and shown', async () => {
    let now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const { storage, reads } = countingStorage();
    const calendar = makeCalendar({ storage, now: () => now });
    const month = { start_date: '2026-12-01', end_date: '2026-12-31' };
    await calendar.events.create(eventInput({ title: 'Public' }), as(admin));
    // Scheduled for 12:05 UTC today: it comes due within the hour, before anything else is due
    // (the change log's pruning is hourly), so only the post coming due can tell the list changed.
    await calendar.events.create(eventInput({
      title: 'Scheduled', status: 'future', date_utc: '2026-11-22 12:05:00', start_date: '2026-12-03 20:00:00', end_date: '2026-12-03 22:00:00',
    }), as(admin));
    now += 60_000; // past the sweep interval: what was due (nothing) is done before the list
    expect(titles((await calendar.events.list(month, anon)).body)).toEqual(['Public']);
    const plan = await calendar.events.planList(month, anon);
    reads.events = 0;
    expect(titles((await calendar.events.list(month, anon)).body)).toEqual(['Public']);
    expect(reads.events, 'kept while nothing is due').toBe(0);
    now = Date.UTC(2026, 10, 22, 12, 5, 30); // due
    expect(await calendar.listUnchanged(plan.stable!)).toBe(false);
    expect(titles((await calendar.events.list(month, anon)).body)).toEqual(['Public', 'Scheduled']);
  });
});
