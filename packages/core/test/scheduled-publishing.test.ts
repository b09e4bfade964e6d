// Scheduled posts (behaviour.md "Statuses": `future` becomes `publish` once its publish date has
// passed, as WordPress's cron does): events, venues, organizers and the occurrences of a
// scheduled series are published together, by the first operation after they fall due, in one
// transaction of a few writes however many are due.
import { occurrenceId, type Calendar, type ChangeEntry } from '@evcal/core';
import { describe, expect, it } from 'vitest';
import { admin, anon, as, eventInput, makeCalendar, NOW } from './helpers';

const A = as(admin);
const DAY = 86_400_000;
/** Publish dates one and three days after NOW. */
const [SOON, LATER] = ['2026-11-23 12:00:00', '2026-11-25 12:00:00'];

async function entriesAfter(cal: Calendar, from: number): Promise<ChangeEntry[]> {
  return [...await cal.config.storage.changes.read({ change: from + 1, seq: 0 }, 10_000)];
}

async function status(cal: Calendar, kind: 'events' | 'venues' | 'organizers', id: number): Promise<unknown> {
  return (await cal[kind].get({ id }, A)).value.status;
}

describe('scheduled posts', () => {
  it('publishes every due event, venue and organizer at the first operation, in one change, and leaves the rest scheduled', async () => {
    let clock = NOW;
    const cal = makeCalendar({ now: () => clock });
    const venue = (await cal.venues.create({ venue: 'Hall', status: 'publish', date: SOON }, A)).value.id as number;
    const organizer = (await cal.organizers.create({ organizer: 'Ada', status: 'publish', date: SOON }, A)).value.id as number;
    const due = await Promise.all(['One', 'Two', 'Three'].map(async (title) =>
      (await cal.events.create(eventInput({ title, status: 'publish', date: SOON, categories: ['Music'], venue, organizer }), A)).value.id as number));
    const notYet = (await cal.events.create(eventInput({ title: 'Later', status: 'publish', date: LATER, categories: ['Music'] }), A)).value.id as number;
    expect(await status(cal, 'events', due[0]!)).toBe('future');
    expect((await cal.events.list({}, anon)).total).toBe(0);

    const mark = await cal.config.storage.lastChange();
    clock = NOW + 2 * DAY;
    const listed = await cal.events.list({}, anon);
    expect(listed.body.events.map((e) => e.id)).toEqual(due);
    for (const id of due) expect(await status(cal, 'events', id)).toBe('publish');
    expect([await status(cal, 'venues', venue), await status(cal, 'organizers', organizer), await status(cal, 'events', notYet)]).toEqual(['publish', 'publish', 'future']);

    const entries = await entriesAfter(cal, mark);
    // One transaction: one change number, each post once, from scheduled to published; the
    // category's count of published events moved, so it changed too.
    expect(new Set(entries.map((e) => e.change)).size).toBe(1);
    expect(entries.filter((e) => e.kind !== 'category').map((e) => [e.kind, e.id, e.action, e.before?.status, e.after?.status]).sort()).toEqual([
      ...due.map((id) => ['event', id, 'updated', 'future', 'publish']), ['organizer', organizer, 'updated', 'future', 'publish'], ['venue', venue, 'updated', 'future', 'publish'],
    ].sort());
    expect(entries.filter((e) => e.kind === 'category').map((e) => e.action)).toEqual(['updated']);
    const music = (await cal.categories.list({}, anon)).body.categories[0]!;
    expect([music.name, music.count]).toEqual(['Music', 3]);
    // Each published post carries the change that published it.
    const event = (await cal.events.get({ id: due[1]! }, A)).value;
    expect(event.status).toBe('publish');
    expect(entries.find((e) => e.id === due[1])?.revision).toBe(entries[0]!.change);

    clock = NOW + 4 * DAY;
    await cal.events.list({}, anon);
    expect(await status(cal, 'events', notYet)).toBe('publish');
  });

  it('publishes a scheduled series with the occurrences that follow its status, not one given its own', async () => {
    let clock = NOW;
    const cal = makeCalendar({ now: () => clock });
    const series = (await cal.events.create({
      title: 'Jam', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00', timezone: 'America/New_York',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4', status: 'publish', date: SOON,
    }, A)).value;
    const [first, second, third, fourth] = ['2027-03-01', '2027-03-08', '2027-03-15', '2027-03-22'].map((d) => occurrenceId(series.id, d));
    await cal.events.patch({ id: second!, status: 'draft' }, A);
    expect(await status(cal, 'events', first!)).toBe('future');

    clock = NOW + 2 * DAY;
    const listed = await cal.events.list({ start_date: '2027-01-01' }, anon);
    expect(listed.body.events.map((e) => e.id)).toEqual([first, third, fourth]);
    expect([await status(cal, 'events', series.id), await status(cal, 'events', second!)]).toEqual(['publish', 'draft']);
  });

  it('publishes many due posts at once', async () => {
    let clock = NOW;
    const cal = makeCalendar({ now: () => clock });
    const n = 600;
    await cal.importDataset({
      categories: [{ id: 7, name: 'Music' }],
      events: Array.from({ length: n }, (_, i) => ({
        id: 100 + i, title: `Scheduled ${i}`, status: 'future', date: SOON, date_utc: SOON, start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 22:00:00', categories: [7],
      })),
    });
    clock = NOW + 2 * DAY;
    const listed = await cal.events.list({ start_date: '2027-01-01', per_page: 5 }, anon);
    expect(listed.total).toBe(n);
    expect((await cal.categories.get({ id: 7 }, anon)).value.count).toBe(n);
  });
});
