// Recurring events end to end (issue 20), through real `evcal serve` processes on every
// storage: weekly, monthly (BYSETPOS), yearly and RDATE/EXDATE series across DST changes are
// listed, read, changed and deleted over HTTP; occurrence ids survive edits of their series
// (and a restart of a durable storage); the feed, expanded by ical.js, gives the JSON list.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { needBuiltCli, startServe } from './support/serve-process';
import { POSTGRES_URL, storageUrls } from './support/storage-urls';

needBuiltCli();

if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the recurrence end-to-end tests on PostgreSQL are skipped.');

const ADMIN = 'tok-admin';
const ARGS = ['--user', `1:administrator:${ADMIN}`, '--now', '2026-11-22T06:30:00Z', '--timezone', 'Europe/Rome'];
const WINDOW = 'start_date=2027-01-01&end_date=2029-12-31&per_page=50';
const SPAN = 2 ** 31;

const storages = storageUrls('rec');

interface Ev {
  id: number; title: string; status: string; start_date: string; end_date: string; utc_start_date: string; description: string;
  post_parent?: number; occurrence?: { original_start_date: string; exception: boolean }; recurrence?: { rrule: string; rdate: string[]; exdate: string[] };
}

async function call(method: string, url: string, json?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as Record<string, unknown> & Ev, text };
}

/** The id of the occurrence of `series` on `date`: day number (0001-01-01 = 1) × 2^31 + series id. */
const occurrenceId = (series: number, date: string) => (Date.parse(`${date}T00:00:00Z`) / 86_400_000 + 719_163) * SPAN + series;

const listed = async (api: string, query = '') => (await call('GET', `${api}/events?${WINDOW}${query}`)).body as unknown as { events: Ev[]; total: number };

/** ical.js's expansion of a feed (series with their exceptions), as [instant, title]. */
function expandFeed(text: string): [number, string][] {
  const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
  const out: [number, string][] = [];
  for (const master of vevents.filter((v) => !v.hasProperty('recurrence-id'))) {
    const uid = master.getFirstPropertyValue('uid');
    const event = new ICAL.Event(master, { exceptions: vevents.filter((v) => v.hasProperty('recurrence-id') && v.getFirstPropertyValue('uid') === uid) });
    if (!event.isRecurring()) {
      out.push([event.startDate.toJSDate().getTime(), event.summary]);
      continue;
    }
    const it = event.iterator();
    for (let next = it.next(); next; next = it.next()) {
      const d = event.getOccurrenceDetails(next);
      if (!d.startDate.isDate) out.push([d.startDate.toJSDate().getTime(), d.item.summary]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

describe.each(storages)('recurring events through evcal serve on %s', (_name, storage, available) => {
  it.skipIf(!available)('lists, reads, changes and deletes series across DST changes; ids survive edits', { timeout: 120_000 }, async () => {
    const url = storage();
    let server = await startServe([...ARGS, '--storage', url]);
    let api = server.api;
    const create = async (input: Record<string, unknown>) => {
      const res = await call('POST', `${api}/events`, input);
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const weekly = await create({ title: 'Jam', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00', timezone: 'America/New_York', recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=8' });
    const monthly = await create({ title: 'Month end', start_date: '2027-01-29 17:00:00', end_date: '2027-01-29 18:00:00', timezone: 'Europe/Berlin', recurrence: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=6' });
    const yearly = await create({ title: 'Anniversary', start_date: '2027-02-10', end_date: '2027-02-10', all_day: true, recurrence: 'FREQ=YEARLY;COUNT=3' });
    const dated = await create({
      title: 'Festival', start_date: '2027-03-26 21:00:00', end_date: '2027-03-26 23:30:00', timezone: 'Europe/Rome',
      recurrence: { rrule: 'FREQ=DAILY;COUNT=5', exdate: ['2027-03-27 21:00:00'], rdate: ['2027-04-05 21:00:00'] },
    });
    expect(weekly.recurrence).toEqual({ rrule: 'FREQ=WEEKLY;COUNT=8;BYDAY=MO', rdate: [], exdate: [] });

    // Lists: every occurrence in the window, as events; totals and filters count them.
    let list = await listed(api);
    expect(list.total).toBe(8 + 6 + 3 + 5);
    const of = (series: Ev) => list.events.filter((e) => e.post_parent === series.id);
    expect(of(weekly).map((e) => [e.start_date, e.utc_start_date])).toEqual([
      ['2027-03-01 19:00:00', '2027-03-02 00:00:00'], ['2027-03-08 19:00:00', '2027-03-09 00:00:00'], ['2027-03-15 19:00:00', '2027-03-15 23:00:00'],
      ['2027-03-22 19:00:00', '2027-03-22 23:00:00'], ['2027-03-29 19:00:00', '2027-03-29 23:00:00'], ['2027-04-05 19:00:00', '2027-04-05 23:00:00'],
      ['2027-04-12 19:00:00', '2027-04-12 23:00:00'], ['2027-04-19 19:00:00', '2027-04-19 23:00:00'],
    ]);
    expect(of(monthly).map((e) => e.start_date.slice(0, 10))).toEqual(['2027-01-29', '2027-02-26', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30']);
    expect(of(yearly).map((e) => e.start_date)).toEqual(['2027-02-10 00:00:00', '2028-02-10 00:00:00', '2029-02-10 00:00:00']);
    expect(of(dated).map((e) => [e.start_date, e.utc_start_date])).toEqual([
      ['2027-03-26 21:00:00', '2027-03-26 20:00:00'], ['2027-03-28 21:00:00', '2027-03-28 19:00:00'], ['2027-03-29 21:00:00', '2027-03-29 19:00:00'],
      ['2027-03-30 21:00:00', '2027-03-30 19:00:00'], ['2027-04-05 21:00:00', '2027-04-05 19:00:00'],
    ]);
    for (const e of list.events) expect(e.id).toBe(occurrenceId(e.post_parent!, e.start_date.slice(0, 10)));
    expect((await listed(api, `&post_parent=${weekly.id}&per_page=3`)).total).toBe(8);
    expect((await listed(api, '&search=festival')).total).toBe(5);

    // Read one occurrence by its id; change it alone; change the series: ids stay, the exception keeps its changes.
    const jam15 = occurrenceId(weekly.id, '2027-03-15');
    expect((await call('GET', `${api}/events/${jam15}`)).body).toMatchObject({ id: jam15, title: 'Jam', post_parent: weekly.id });
    const changed = await call('PATCH', `${api}/events/${jam15}`, { title: 'Jam (guests)', start_date: '2027-03-15 20:00:00', end_date: '2027-03-15 23:00:00' });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id: jam15, title: 'Jam (guests)', occurrence: { exception: true } });
    const before = of(weekly).map((e) => e.id);
    const edited = await call('PATCH', `${api}/events/${weekly.id}`, { description: 'Bring an instrument', start_date: '2027-03-01 18:30:00', end_date: '2027-03-01 21:30:00' });
    expect(edited.status, edited.text).toBe(200);
    list = await listed(api);
    expect(of(weekly).map((e) => e.id)).toEqual(before);
    expect(of(weekly).map((e) => [e.start_date.slice(11), e.title])).toEqual([
      ['18:30:00', 'Jam'], ['18:30:00', 'Jam'], ['20:00:00', 'Jam (guests)'], ['18:30:00', 'Jam'], ['18:30:00', 'Jam'], ['18:30:00', 'Jam'], ['18:30:00', 'Jam'], ['18:30:00', 'Jam'],
    ]);
    expect(of(weekly).every((e) => e.description.includes('Bring an instrument'))).toBe(true);

    // Delete one occurrence (then 410), split this and following, delete a whole series.
    const jam22 = occurrenceId(weekly.id, '2027-03-22');
    expect((await call('DELETE', `${api}/events/${jam22}`)).body.status).toBe('trash');
    expect((await call('DELETE', `${api}/events/${jam22}`)).status).toBe(410);
    const split = await call('PUT', `${api}/events/${occurrenceId(weekly.id, '2027-04-05')}?scope=following`, {
      title: 'Late jam', start_date: '2027-04-05 21:00:00', end_date: '2027-04-05 23:00:00', timezone: 'America/New_York',
    });
    expect(split.status, split.text).toBe(200);
    expect(split.body).toMatchObject({ id: occurrenceId(weekly.id, '2027-04-05'), title: 'Late jam', start_date: '2027-04-05 21:00:00' });
    expect((await call('DELETE', `${api}/events/${monthly.id}`)).body.status).toBe('trash');
    expect((await call('GET', `${api}/events/${occurrenceId(monthly.id, '2027-02-26')}`)).status).toBe(403);
    list = await listed(api);
    expect(list.events.filter((e) => e.title.includes('am')).map((e) => [e.id, e.start_date, e.title])).toEqual([
      [occurrenceId(weekly.id, '2027-03-01'), '2027-03-01 18:30:00', 'Jam'], [occurrenceId(weekly.id, '2027-03-08'), '2027-03-08 18:30:00', 'Jam'],
      [jam15, '2027-03-15 20:00:00', 'Jam (guests)'], [occurrenceId(weekly.id, '2027-03-29'), '2027-03-29 18:30:00', 'Jam'],
      [occurrenceId(weekly.id, '2027-04-05'), '2027-04-05 21:00:00', 'Late jam'], [occurrenceId(weekly.id, '2027-04-12'), '2027-04-12 21:00:00', 'Late jam'],
      [occurrenceId(weekly.id, '2027-04-19'), '2027-04-19 21:00:00', 'Late jam'],
    ]);

    // A bad rule is a 400 saying why.
    const bad = await call('POST', `${api}/events`, { title: 'x', start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00', recurrence: 'FREQ=HOURLY' });
    expect([bad.status, (bad.body as unknown as { code: string }).code]).toEqual([400, 'rest_invalid_param']);

    // The feed, expanded by ical.js, is the list (timed events; all-day ones are dates).
    const feed = await call('GET', `${api}/events.ics?${WINDOW}`);
    expect(feed.status).toBe(200);
    const timed = list.events.filter((e) => e.title !== 'Anniversary').map((e): [number, string] => [Date.parse(`${e.utc_start_date.replace(' ', 'T')}Z`), e.title])
      .sort((a, b) => a[0] - b[0]);
    expect(expandFeed(feed.text)).toEqual(timed);

    // Ids survive a restart of a durable storage.
    if (url !== 'memory') {
      await call('GET', `${api}/events/${jam15}`);
      server.child.kill('SIGTERM');
      await server.exited;
      server = await startServe([...ARGS, '--storage', url]);
      api = server.api;
      expect((await call('GET', `${api}/events/${jam15}`)).body).toMatchObject({ id: jam15, title: 'Jam (guests)' });
      expect((await listed(api)).total).toBe(list.total);
    }
  });
});
