// Validators and preconditions: what names a representation's state, when it changes, and
// writes that proceed only on the state their caller read (optimistic concurrency); and
// concurrent writes in one process that lose nothing.
import type { Calendar } from '@evcal/core';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '@evcal/memory';
import { admin, anon, as, eventInput, expectInvalid, makeCalendar, refusal } from './helpers';

async function seeded(): Promise<{ calendar: Calendar; id: number; venue: number; organizer: number }> {
  const calendar = makeCalendar();
  const venue = (await calendar.venues.create({ venue: 'Hall' }, as(admin))).value.id as number;
  const organizer = (await calendar.organizers.create({ organizer: 'Ada' }, as(admin))).value.id as number;
  const event = (await calendar.events.create(eventInput({ venue, organizer, categories: ['Music'], tags: ['Free'] }), as(admin))).value;
  return { calendar, id: event.id as number, venue, organizer };
}

const eventTag = async (c: Calendar, id: number) => (await c.events.get({ id }, anon)).validator;
const firstCategory = async (c: Calendar) => ((await c.categories.list({ hide_empty: false }, anon)).body.categories as { id: number }[])[0]!.id;

describe('validators of single resources', () => {
  it('every read of an unchanged event names the same state; a write of the event changes it', async () => {
    const { calendar, id } = await seeded();
    const first = await eventTag(calendar, id);
    expect(first).toMatch(/^e\d+r\d+/);
    expect(await eventTag(calendar, id)).toBe(first);
    const patched = await calendar.events.patch({ id, title: 'Renamed' }, as(admin));
    expect(patched.validator).not.toBe(first);
    expect(await eventTag(calendar, id)).toBe(patched.validator);
  });

  it.each<[string, (s: Awaited<ReturnType<typeof seeded>>) => Promise<unknown>]>([
    ['its venue changes', (s) => s.calendar.venues.patch({ id: s.venue, city: 'Rome' }, as(admin))],
    ['its organizer changes', (s) => s.calendar.organizers.patch({ id: s.organizer, phone: '123' }, as(admin))],
    ['its category is renamed', async (s) => s.calendar.categories.update({ id: await firstCategory(s.calendar), name: 'Jazz' }, as(admin))],
    // The embedded category shows how many published events use it.
    ['another event joins its category', (s) => s.calendar.events.create(eventInput({ title: 'Other', categories: ['Music'] }), as(admin))],
  ])('an event\'s state changes when %s', async (_name, change) => {
    const s = await seeded();
    const before = await eventTag(s.calendar, s.id);
    await change(s);
    expect(await eventTag(s.calendar, s.id)).not.toBe(before);
  });

  it('an event\'s state is unchanged by writes to what it does not embed', async () => {
    const s = await seeded();
    const before = await eventTag(s.calendar, s.id);
    await s.calendar.venues.create({ venue: 'Elsewhere' }, as(admin));
    await s.calendar.events.create(eventInput({ title: 'Unrelated', categories: ['Theatre'] }), as(admin));
    expect(await eventTag(s.calendar, s.id)).toBe(before);
  });

  it('venues, organizers and terms carry validators on reads and writes', async () => {
    const s = await seeded();
    const venue = await s.calendar.venues.get({ id: s.venue }, anon);
    const organizer = await s.calendar.organizers.getBySlug({ slug: 'ada' }, anon);
    const term = await s.calendar.categories.get({ id: await firstCategory(s.calendar) }, anon);
    expect([venue.validator, organizer.validator, term.validator]).toEqual([
      expect.stringMatching(/^v\d+r\d+$/), expect.stringMatching(/^o\d+r\d+$/), expect.stringMatching(/^c\d+r\d+n1$/),
    ]);
    const updated = await s.calendar.venues.patch({ id: s.venue, city: 'Rome' }, as(admin));
    expect(updated.validator).not.toBe(venue.validator);
  });
});

describe('validators of lists', () => {
  it('the same list asked again names the same state until anything is written', async () => {
    const { calendar } = await seeded();
    const plan = await calendar.events.planList({ per_page: 5 }, anon);
    expect((await calendar.events.planList({ per_page: 5 }, anon)).validator).toBe(plan.validator);
    expect((await calendar.events.planList({ per_page: 6 }, anon)).validator).not.toBe(plan.validator);
    expect((await calendar.events.planList({ per_page: 5 }, as(admin))).validator).not.toBe(plan.validator);
    const result = await plan.run();
    expect(result.validator).toBe(plan.validator);
    await calendar.tags.create({ name: 'Unrelated' }, as(admin));
    expect((await calendar.events.planList({ per_page: 5 }, anon)).validator).not.toBe(plan.validator);
  });

  it('a plan reads nothing but the change counter: a list is read only when run', async () => {
    const { calendar } = await seeded();
    const storage = calendar.config.storage;
    let lists = 0;
    const list = storage.events.list.bind(storage.events);
    (storage.events as { list: typeof list }).list = async (q) => {
      lists++;
      return list(q);
    };
    const plan = await calendar.events.planList({}, anon);
    expect(lists).toBe(0);
    await plan.run();
    expect(lists).toBe(1);
  });
});

describe('preconditions of writes', () => {
  it('a write whose If-Match names the current state proceeds', async () => {
    const { calendar, id } = await seeded();
    const current = await eventTag(calendar, id);
    const patched = (await calendar.events.patch({ id, title: 'Renamed' }, { ...as(admin), preconditions: { ifMatch: ['stale', current] } })).value;
    expect(patched.title).toBe('Renamed');
  });

  it.each<[string, (c: Calendar, id: number, stale: { ifMatch: string[] }) => Promise<unknown>]>([
    ['patch', (c, id, p) => c.events.patch({ id, title: 'Lost' }, { ...as(admin), preconditions: p })],
    ['update', (c, id, p) => c.events.update({ id, title: 'Lost' }, { ...as(admin), preconditions: p })],
    ['update by slug', (c, _id, p) => c.events.updateBySlug({ slug: 'jazz-night', title: 'Lost' }, { ...as(admin), preconditions: p })],
    ['delete', (c, id, p) => c.events.delete({ id }, { ...as(admin), preconditions: p })],
  ])('a %s whose If-Match names an older state is refused and changes nothing', async (_name, write) => {
    const { calendar, id } = await seeded();
    const read = await eventTag(calendar, id);
    await calendar.events.patch({ id, excerpt: 'meanwhile' }, as(admin));
    const now = (await calendar.events.get({ id }, as(admin))).value;
    await refusal(write(calendar, id, { ifMatch: [read] }), 'precondition_failed');
    expect((await calendar.events.get({ id }, as(admin))).value).toEqual(now);
  });

  it('If-Match * needs the record only; If-None-Match * refuses a write to an existing record', async () => {
    const { calendar, id, venue } = await seeded();
    await calendar.events.patch({ id, title: 'Any' }, { ...as(admin), preconditions: { ifMatch: '*' } });
    await refusal(calendar.venues.patch({ id: venue, city: 'X' }, { ...as(admin), preconditions: { ifNoneMatch: '*' } }), 'precondition_failed');
    expect((await calendar.venues.get({ id: venue }, anon)).value.city).toBeUndefined();
  });

  it('terms, venues and organizers check preconditions too', async () => {
    const { calendar, venue, organizer } = await seeded();
    const category = await firstCategory(calendar);
    const stale = { ...as(admin), preconditions: { ifMatch: ['c1r1n0'] } };
    await refusal(calendar.categories.update({ id: category, name: 'X' }, stale), 'precondition_failed');
    await refusal(calendar.categories.delete({ id: category }, stale), 'precondition_failed');
    await refusal(calendar.venues.delete({ id: venue }, stale), 'precondition_failed');
    await refusal(calendar.organizers.update({ id: organizer, organizer: 'X' }, stale), 'precondition_failed');
    const current = (await calendar.categories.get({ id: category }, anon)).validator;
    expect((await calendar.categories.update({ id: category, name: 'Jazz' }, { ...as(admin), preconditions: { ifMatch: [current] } })).value.name).toBe('Jazz');
  });

  it('a precondition is checked after the caller may write and the record exists (404 and 403 first)', async () => {
    const { calendar, id } = await seeded();
    await refusal(calendar.events.patch({ id: 9999, title: 'X' }, { ...as(admin), preconditions: { ifMatch: ['x'] } }), 'event_not_found');
    await refusal(calendar.events.patch({ id, title: 'X' }, { preconditions: { ifMatch: ['x'] } }), 'unauthenticated');
  });
});

describe('concurrent writes in one process', () => {
  it('PATCHes of different fields sent at once all land', async () => {
    const { calendar, id } = await seeded();
    await Promise.all(Array.from({ length: 20 }, (_, i) => [
      calendar.events.patch({ id, description: `d${i}` }, as(admin)),
      calendar.events.patch({ id, excerpt: `x${i}` }, as(admin)),
      calendar.events.patch({ id, cost: String(i) }, as(admin)),
    ]).flat());
    const event = (await calendar.events.get({ id }, as(admin))).value;
    expect([event.description, event.excerpt, event.cost]).toEqual([expect.stringMatching(/d\d+/), expect.stringMatching(/x\d+/), expect.stringMatching(/^\$\d+$/)]);
  });
});

describe('lists rendered from each event\'s cached text', () => {
  const listed = async (c: Calendar, ctx = anon, input: Record<string, unknown> = {}) =>
    ((await c.events.list({ per_page: 50, ...input }, ctx)).body.events as Record<string, any>[])[0]!;

  it('show what changed since: the event, its venue, its organizer, its terms and their counts', async () => {
    const s = await seeded();
    expect((await listed(s.calendar)).venue.city).toBeUndefined();
    await s.calendar.venues.patch({ id: s.venue, city: 'Rome' }, as(admin));
    expect((await listed(s.calendar)).venue.city).toBe('Rome');
    await s.calendar.organizers.patch({ id: s.organizer, phone: '123' }, as(admin));
    expect((await listed(s.calendar)).organizer[0].phone).toBe('123');
    await s.calendar.events.create(eventInput({ title: 'Later', start_date: '2026-12-02 20:00:00', end_date: '2026-12-02 23:00:00', categories: ['Music'] }), as(admin));
    expect((await listed(s.calendar)).categories[0].count).toBe(2);
    await s.calendar.categories.update({ id: await firstCategory(s.calendar), name: 'Jazz' }, as(admin));
    expect((await listed(s.calendar)).categories[0].name).toBe('Jazz');
    await s.calendar.events.patch({ id: s.id, title: 'Renamed' }, as(admin));
    expect((await listed(s.calendar)).title).toBe('Renamed');
  });

  it('show each caller what it may see: a protected event redacted, unlocked by its password; a draft venue to editors only', async () => {
    const calendar = makeCalendar();
    // Passwords are set by datasets (no route sets one).
    await calendar.importDataset({
      venues: [{ id: 10, venue: 'Back Room', status: 'draft' }],
      events: [{ id: 20, title: 'Private Party', description: 'Secret', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', status: 'publish', password: 'pw', venue: [10] }],
    });
    const anonymous = await listed(calendar);
    expect([anonymous.description, anonymous.venue]).toEqual(['', []]);
    const unlocked = await listed(calendar, anon, { password: 'pw' });
    expect([unlocked.description, unlocked.venue]).toEqual([expect.stringMatching(/Secret/), []]);
    expect((await listed(calendar, as(admin))).description).toBe('');
    const editing = await listed(calendar, as(admin), { context: 'edit' });
    expect([editing.description, editing.venue.id]).toEqual([expect.stringMatching(/Secret/), 10]);
    // And again, as the first caller: nothing of the others' views leaked into its answer.
    expect(await listed(calendar)).toEqual(anonymous);
  });
});

describe('lists asked again are parsed once, and never answered from an outdated parse', () => {
  it('a category named by slug is looked up again after any write', async () => {
    const s = await seeded();
    const category = await firstCategory(s.calendar);
    expect((await s.calendar.events.list({ categories: 'music' }, anon)).total).toBe(1);
    await s.calendar.categories.delete({ id: category }, as(admin));
    await expectInvalid(s.calendar.events.list({ categories: 'music' }, anon), 'categories');
  });

  it('a relative date follows the clock', async () => {
    let now = Date.UTC(2026, 11, 1, 19, 0);
    const calendar = makeCalendar({ now: () => now });
    await calendar.events.create(eventInput({ start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', timezone: 'UTC' }), as(admin));
    const strictFromNow = { start_date: 'now', strict_dates: true };
    expect((await calendar.events.list(strictFromNow, anon)).total).toBe(1);
    now = Date.UTC(2026, 11, 1, 21, 0);
    expect((await calendar.events.list(strictFromNow, anon)).total).toBe(0);
  });

  it('the default window moves with the day', async () => {
    let now = Date.UTC(2026, 11, 1, 12, 0);
    const calendar = makeCalendar({ now: () => now, timezone: 'UTC' });
    await calendar.events.create(eventInput({ start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', timezone: 'UTC' }), as(admin));
    expect((await calendar.events.list({}, anon)).total).toBe(1);
    now = Date.UTC(2026, 11, 3, 12, 0); // the window now starts on the 2nd
    expect((await calendar.events.list({}, anon)).total).toBe(0);
  });
});

describe('lists asked again, unchanged, are read once', () => {
  /** A memory storage that counts the event lists it is asked for. */
  function countingStorage() {
    const storage = createMemoryStorage();
    const reads = { events: 0 };
    const list = storage.events.list.bind(storage.events);
    storage.events.list = (query) => {
      reads.events++;
      return list(query);
    };
    return { storage, reads };
  }

  it('the same list is not read again until something is written', async () => {
    const { storage, reads } = countingStorage();
    const calendar = makeCalendar({ storage });
    await calendar.events.create(eventInput({ title: 'First' }), as(admin));
    reads.events = 0;
    const first = await calendar.events.list({ per_page: 5 }, anon);
    const again = await calendar.events.list({ per_page: 5 }, anon);
    expect(reads.events).toBe(1);
    expect(again.json).toBe(first.json);
    // Another caller's view of it is read for that caller.
    await calendar.events.list({ per_page: 5 }, as(admin));
    expect(reads.events).toBe(2);
    await calendar.events.create(eventInput({ title: 'Second', start_date: '2026-12-02 20:00:00', end_date: '2026-12-02 23:00:00' }), as(admin));
    reads.events = 0;
    const after = await calendar.events.list({ per_page: 5 }, anon);
    expect(reads.events).toBe(1);
    expect((after.body.events as { title: string }[]).map((e) => e.title)).toEqual(['First', 'Second']);
  });

  it('gives each caller a body of its own', async () => {
    const calendar = makeCalendar();
    await calendar.events.create(eventInput(), as(admin));
    const first = await calendar.events.list({}, anon);
    (first.body.events as unknown[]).length = 0;
    expect((await calendar.events.list({}, anon)).body.events).toHaveLength(1);
  });

  it('reads every time with listCacheBytes 0, and keeps nothing larger than the budget', async () => {
    for (const listCacheBytes of [0, 100]) {
      const { storage, reads } = countingStorage();
      const calendar = makeCalendar({ storage, listCacheBytes });
      await calendar.events.create(eventInput(), as(admin));
      reads.events = 0;
      await calendar.events.list({}, anon);
      await calendar.events.list({}, anon);
      expect(reads.events, `listCacheBytes ${listCacheBytes}`).toBe(2);
    }
  });
});
