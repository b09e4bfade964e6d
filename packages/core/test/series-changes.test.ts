// The change log, /changes and webhooks for series (docs/sync.md, docs/webhooks.md): a write
// to a series is one entry naming the occurrences it created, updated, trashed and deleted,
// which get none of their own; an exception changed on its own is one entry naming its series;
// the horizon moving forward is one entry per series it extended; /changes gives a series with
// its occurrences as they are now, within the page's budget.
import { occurrenceId, type Calendar, type ChangeEnvelope, type ChangeEntry, type CallContext, type ChangesJson } from '@evcal/core';
import { describe, expect, it } from 'vitest';
import { admin, anon, as, makeCalendar, NOW } from './helpers';

const A = as(admin);
const DATES = ['2027-03-01', '2027-03-08', '2027-03-15', '2027-03-22', '2027-03-29', '2027-04-05'];
const weeklyInput = { title: 'Jam session', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00', timezone: 'America/New_York', recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=6' };

async function series(cal: Calendar, input: Record<string, unknown> = {}) {
  const made = (await cal.events.create({ ...weeklyInput, ...input }, A)).value;
  return { id: made.id, occ: (date: string) => occurrenceId(made.id, date) };
}

/** The entries logged after `from` (a change number), as their envelopes show them. */
async function entriesAfter(cal: Calendar, from: number): Promise<ChangeEntry[]> {
  return [...await cal.config.storage.changes.read({ change: from + 1, seq: 0 }, 10_000)];
}

const none = { created: [], updated: [], trashed: [], deleted: [] };

describe('the change log of a series', () => {
  it('logs one entry for a series created, changed, split, made one event again and trashed, naming its occurrences', async () => {
    const cal = makeCalendar();
    const heard: ChangeEnvelope[] = [];
    cal.on('change', (c) => heard.push(c));
    const s = await series(cal);
    const all = DATES.map(s.occ);
    expect(heard).toEqual([{ type: 'event.created', id: s.id, revision: expect.any(Number), timestamp: new Date(NOW).toISOString(), occurrences: { ...none, created: all } }]);

    let mark = await cal.config.storage.lastChange();
    await cal.events.patch({ id: s.id, title: 'Jam' }, A);
    expect((await entriesAfter(cal, mark)).map((e) => [e.kind, e.id, e.action, e.occurrences])).toEqual([['event', s.id, 'updated', { ...none, updated: all }]]);

    // One occurrence alone: an exception, its own entry naming its series.
    mark = await cal.config.storage.lastChange();
    await cal.events.patch({ id: s.occ('2027-03-15'), title: 'Special jam' }, A);
    const [exception] = await entriesAfter(cal, mark);
    expect(exception).toMatchObject({ kind: 'event', id: s.occ('2027-03-15'), action: 'updated', series: s.id });
    expect(exception).not.toHaveProperty('occurrences');
    expect(heard.at(-1)).toEqual({ type: 'event.updated', id: s.occ('2027-03-15'), revision: exception!.revision, timestamp: expect.any(String), series: s.id });

    // A series edit leaves the exception's own title, so it does not touch it.
    mark = await cal.config.storage.lastChange();
    await cal.events.patch({ id: s.id, title: 'Jam again' }, A);
    expect((await entriesAfter(cal, mark)).map((e) => e.occurrences)).toEqual([{ ...none, updated: all.filter((id) => id !== s.occ('2027-03-15')) }]);

    // This and following: the old series ends, the new one takes the later occurrences (same ids).
    mark = await cal.config.storage.lastChange();
    const moved = (await cal.events.patch({ id: s.occ('2027-03-22'), title: 'Late jam', scope: 'following' }, A)).value as { post_parent: number };
    const split = await entriesAfter(cal, mark);
    expect(split.map((e) => [e.id, e.action])).toEqual([[s.id, 'updated'], [moved.post_parent, 'created']]);
    expect(split[1]!.occurrences).toEqual({ ...none, updated: [s.occ('2027-03-22'), s.occ('2027-03-29'), s.occ('2027-04-05')] });
    expect(split.every((e) => e.id <= 2 ** 31)).toBe(true);

    // Back to one event: its occurrences are deleted.
    mark = await cal.config.storage.lastChange();
    await cal.events.patch({ id: s.id, recurrence: '' }, A);
    expect((await entriesAfter(cal, mark)).map((e) => [e.id, e.action, e.occurrences])).toEqual([[s.id, 'updated', { ...none, deleted: all.slice(0, 3) }]]);

    // Trashing the new series trashes its occurrences, in one entry.
    mark = await cal.config.storage.lastChange();
    await cal.events.delete({ id: moved.post_parent }, A);
    expect((await entriesAfter(cal, mark)).map((e) => [e.id, e.action, e.occurrences])).toEqual([[moved.post_parent, 'trashed', { ...none, trashed: all.slice(3) }]]);
  });

  it('logs "delete this and following" as one entry of the series, and one trashed occurrence as its own', async () => {
    const cal = makeCalendar();
    const s = await series(cal);
    let mark = await cal.config.storage.lastChange();
    await cal.events.delete({ id: s.occ('2027-03-08') }, A);
    expect((await entriesAfter(cal, mark)).map((e) => [e.id, e.action, e.series])).toEqual([[s.occ('2027-03-08'), 'trashed', s.id]]);
    mark = await cal.config.storage.lastChange();
    await cal.events.delete({ id: s.occ('2027-03-22'), scope: 'following' }, A);
    expect((await entriesAfter(cal, mark)).map((e) => [e.id, e.action, e.occurrences])).toEqual([[s.id, 'updated', { ...none, deleted: DATES.slice(3).map(s.occ) }]]);
  });

  it('logs the horizon moving forward as one entry per series extended, at the series\' unchanged revision', async () => {
    let clock = NOW;
    const cal = makeCalendar({ now: () => clock, recurrence: { horizonMonths: 12, maxHorizonMonths: 60 } });
    const made = (await cal.events.create({ title: 'Monthly', start_date: '2026-12-07 10:00:00', end_date: '2026-12-07 11:00:00', recurrence: 'FREQ=MONTHLY' }, A)).value;
    await cal.events.create({ ...weeklyInput }, A);
    const revision = (await cal.config.storage.events.get(made.id))!.revision;
    let mark = await cal.config.storage.lastChange();
    clock = NOW + 62 * 86_400_000;
    await cal.extendRecurrences();
    const rolled = await entriesAfter(cal, mark);
    expect(rolled.map((e) => [e.kind, e.id, e.action, e.revision])).toEqual([['event', made.id, 'updated', revision]]);
    expect(rolled[0]!.occurrences!.created.length).toBeGreaterThan(0);
    expect(rolled[0]!.occurrences!.created.every((id) => id > 2 ** 31)).toBe(true);
    // A list reaching past the horizon stores what it shows, logged the same way.
    mark = await cal.config.storage.lastChange();
    const far = await cal.events.list({ start_date: '2030-01-01', end_date: '2030-12-31', per_page: 50 }, A);
    const reached = await entriesAfter(cal, mark);
    expect(reached.map((e) => [e.id, e.action])).toEqual([[made.id, 'updated']]);
    expect(far.total).toBe(12);
    expect((far.body as { events: Array<{ id: number }> }).events.every((e) => reached[0]!.occurrences!.created.includes(e.id))).toBe(true);
  });

  it('queues one webhook delivery for a series edit, its payload naming the occurrences', async () => {
    const cal = makeCalendar();
    const ep = await cal.webhooks.create({ url: 'https://hooks.example/in', types: 'event.updated' }, A);
    const s = await series(cal);
    await cal.events.patch({ id: s.id, title: 'Jam' }, A);
    await cal.events.patch({ id: s.occ('2027-03-08'), title: 'Own' }, A);
    const deliveries = await cal.config.storage.webhooks.deliveries(ep.id, 100);
    expect(deliveries.map((d) => [d.type, d.recordKey, JSON.parse(d.payload).id])).toEqual([
      ['event.updated', `event:${s.id}`, s.id],
      // An exception's deliveries keep their order with its series'.
      ['event.updated', `event:${s.id}`, s.occ('2027-03-08')],
    ]);
    expect(JSON.parse(deliveries[0]!.payload).occurrences).toEqual({ ...none, updated: DATES.map(s.occ) });
    expect(JSON.parse(deliveries[1]!.payload).series).toBe(s.id);
  });
});

/** Every page of /changes after `since`. */
async function follow(cal: Calendar, since: string, ctx: CallContext, perPage = 100): Promise<ChangesJson['changes']> {
  const out: ChangesJson['changes'] = [];
  for (let token = since; ;) {
    const page = await cal.changes.list({ since: token, per_page: perPage }, ctx);
    out.push(...page.changes);
    token = page.next_token;
    if (!page.has_more) return out;
  }
}

describe('GET /changes for a series', () => {
  it('gives a series once, with its occurrences as they are now and the ones to remove', async () => {
    const cal = makeCalendar();
    const token = (await cal.changes.list({}, anon)).next_token;
    const s = await series(cal);
    await cal.events.patch({ id: s.id, title: 'Jam' }, A);
    const [item, ...rest] = await follow(cal, token, anon);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ type: 'event', id: s.id, deleted: false, record: { id: s.id, title: 'Jam', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=6;BYDAY=MO' } } });
    expect(item!.occurrences!.records.map((r) => [r.id, r.title, r.post_parent])).toEqual(DATES.map((d) => [s.occ(d), 'Jam', s.id]));
    expect(item!.occurrences!.deleted).toEqual([]);

    const later = (await cal.changes.list({}, anon)).next_token;
    await cal.events.delete({ id: s.occ('2027-03-29'), scope: 'following' }, A);
    await cal.events.delete({ id: s.occ('2027-03-08') }, A);
    expect((await follow(cal, later, anon)).map((c) => [c.id, c.deleted, c.occurrences?.records.length, c.occurrences?.deleted])).toEqual([
      [s.id, false, 0, [s.occ('2027-03-29'), s.occ('2027-04-05')]],
      [s.occ('2027-03-08'), true, undefined, undefined],
    ]);

    const end = (await cal.changes.list({}, anon)).next_token;
    await cal.events.delete({ id: s.id }, A);
    const [gone] = await follow(cal, end, anon);
    expect(gone).toEqual({ type: 'event', id: s.id, deleted: true, occurrences: { records: [], deleted: [s.occ('2027-03-01'), s.occ('2027-03-08'), s.occ('2027-03-15'), s.occ('2027-03-22')] } });
  });

  it('never tells an anonymous reader of a draft series or its occurrences', async () => {
    const cal = makeCalendar();
    const token = (await cal.changes.list({}, anon)).next_token;
    const s = await series(cal, { status: 'draft' });
    await cal.events.patch({ id: s.id, title: 'Jam' }, A);
    await cal.events.delete({ id: s.id }, A);
    expect(await follow(cal, token, anon)).toEqual([]);
    expect((await follow(cal, token, A)).map((c) => [c.id, c.deleted, c.occurrences?.deleted.length])).toEqual([[s.id, true, 6]]);
  });

  it('keeps an entry of its own for an exception seen otherwise than its series, so readers who saw it remove it', async () => {
    const cal = makeCalendar();
    const s = await series(cal, { status: 'draft' });
    await cal.events.patch({ id: s.occ('2027-03-08'), status: 'publish' }, A);
    const token = (await cal.changes.list({}, anon)).next_token;
    expect((await cal.events.list({ start_date: '2027-01-01', end_date: '2027-12-31' }, anon)).total).toBe(1);
    const mark = await cal.config.storage.lastChange();
    await cal.events.delete({ id: s.id }, A);
    expect((await entriesAfter(cal, mark)).map((e) => [e.id, e.action, e.series, e.occurrences?.trashed.length])).toEqual([
      [s.id, 'trashed', undefined, 5],
      [s.occ('2027-03-08'), 'trashed', s.id, undefined],
    ]);
    // The anonymous reader held the published exception: it learns it is gone, and nothing of the draft series.
    expect(await follow(cal, token, anon)).toEqual([{ type: 'event', id: s.occ('2027-03-08'), deleted: true }]);
  });

  it('counts a series\' occurrences in per_page, and gives at least one entry a page', async () => {
    const cal = makeCalendar();
    const token = (await cal.changes.list({}, anon)).next_token;
    const s = await series(cal);
    const venue = (await cal.venues.create({ venue: 'Hall' }, A)).value;
    // The series' entry weighs 7: a page of 3 still gives it, alone.
    let page = await cal.changes.list({ since: token, per_page: 3 }, anon);
    expect([page.changes.map((c) => c.id), page.has_more]).toEqual([[s.id], true]);
    page = await cal.changes.list({ since: page.next_token, per_page: 3 }, anon);
    expect([page.changes.map((c) => c.id), page.has_more]).toEqual([[venue.id], false]);
    // A page of 8 holds both.
    page = await cal.changes.list({ since: token, per_page: 8 }, anon);
    expect([page.changes.map((c) => c.id), page.has_more]).toEqual([[s.id, venue.id], false]);
  });
});
