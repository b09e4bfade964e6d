// Series and their occurrences through core's operations (docs/recurrence.md): ids, lists,
// single reads, exceptions, "this and following", deletes, validation, the horizon.
import { decodeOccurrenceId, isOccurrenceId, MAX_ID, occurrenceId, type EventJson } from '@evcal/core';
import { describe, expect, it } from 'vitest';
import { as, admin, anon, makeCalendar, NOW, refusal } from './helpers';

const A = as(admin);
type Json = EventJson & { recurrence?: { rrule: string; rdate: string[]; exdate: string[] }; post_parent?: number; occurrence?: { original_start_date: string; exception: boolean } };

async function weekly(cal = makeCalendar(), extra: Record<string, unknown> = {}) {
  const series = (await cal.events.create({
    title: 'Jam session', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00', timezone: 'America/New_York',
    recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=6', ...extra,
  }, A)).value as Json;
  return { cal, series };
}

async function listed(cal: ReturnType<typeof makeCalendar>, input: Record<string, unknown> = {}) {
  const { body } = await cal.events.list({ start_date: '2027-01-01', end_date: '2027-12-31', per_page: 50, ...input }, A);
  return body as { events: Json[]; total: number };
}

describe('occurrence ids', () => {
  it('are the day number of the local date times 2^31 plus the series id, above every post id', () => {
    const id = occurrenceId(42, '2026-05-04');
    expect(id).toBe(739_740 * 2 ** 31 + 42);
    expect(isOccurrenceId(id)).toBe(true);
    expect(isOccurrenceId(MAX_ID)).toBe(false);
    expect(decodeOccurrenceId(id)).toEqual({ base: 42, date: '2026-05-04' });
    expect(occurrenceId(MAX_ID, '9999-12-31')).toBeLessThan(Number.MAX_SAFE_INTEGER);
    expect(occurrenceId(1, '0001-01-01')).toBeGreaterThan(MAX_ID);
  });
});

describe('a weekly series', () => {
  it('lists its occurrences in its place, each with its own id, times and post_parent', async () => {
    const { cal, series } = await weekly();
    expect(series.recurrence).toEqual({ rrule: 'FREQ=WEEKLY;COUNT=6;BYDAY=MO', rdate: [], exdate: [] });
    const { events, total } = await listed(cal);
    expect(total).toBe(6);
    expect(events.map((e) => e.start_date)).toEqual(['2027-03-01', '2027-03-08', '2027-03-15', '2027-03-22', '2027-03-29', '2027-04-05'].map((d) => `${d} 19:00:00`));
    expect(events.map((e) => e.id)).toEqual(events.map((e) => occurrenceId(series.id, e.start_date.slice(0, 10))));
    expect(events.every((e) => e.post_parent === series.id && e.title === 'Jam session')).toBe(true);
    // New York changes to summer time on 2027-03-14: the wall clock stays, the UTC time moves.
    expect(events.map((e) => e.utc_start_date.slice(11))).toEqual(['00:00:00', '00:00:00', '23:00:00', '23:00:00', '23:00:00', '23:00:00']);
    expect(events.map((e) => e.timezone_abbr)).toEqual(['EST', 'EST', 'EDT', 'EDT', 'EDT', 'EDT']);
    // Paging counts occurrences.
    const page = await cal.events.list({ start_date: '2027-01-01', per_page: 4, page: 2 }, A);
    expect([(page.body as { events: Json[] }).events.length, page.total, page.totalPages]).toEqual([2, 6, 2]);
  });

  it('reads an occurrence by its id, and the series by its own', async () => {
    const { cal, series } = await weekly();
    const id = occurrenceId(series.id, '2027-03-15');
    const occurrence = (await cal.events.get({ id }, anon)).value as Json;
    expect(occurrence).toMatchObject({ id, start_date: '2027-03-15 19:00:00', post_parent: series.id, occurrence: { original_start_date: '2027-03-15 19:00:00', exception: false } });
    expect(occurrence.rest_url).toMatch(new RegExp(`/events/${id}$`));
    expect(((await cal.events.get({ id: series.id }, anon)).value as Json).recurrence?.rrule).toBe('FREQ=WEEKLY;COUNT=6;BYDAY=MO');
    await refusal(cal.events.get({ id: occurrenceId(series.id, '2027-03-16') }, anon), 'event_not_found');
  });

  it('filters occurrences like events: post_parent, search, categories, include', async () => {
    const { cal, series } = await weekly(makeCalendar(), { categories: ['jazz'] });
    await cal.events.create({ title: 'Other', start_date: '2027-03-02 10:00:00', end_date: '2027-03-02 11:00:00' }, A);
    expect((await listed(cal, { post_parent: series.id })).total).toBe(6);
    expect((await listed(cal, { search: 'jam' })).total).toBe(6);
    expect((await listed(cal, { categories: 'jazz' })).total).toBe(6);
    expect((await listed(cal, { start_date: '2027-03-08', end_date: '2027-03-16' })).events.map((e) => e.start_date.slice(0, 10))).toEqual(['2027-03-08', '2027-03-15']);
    const terms = await cal.categories.list({}, A);
    expect((terms.body as { categories: { count: number }[] }).categories[0]!.count).toBe(1);
  });

  it('changes one occurrence: an exception that keeps its id and survives edits of the series', async () => {
    const { cal, series } = await weekly();
    const id = occurrenceId(series.id, '2027-03-15');
    const changed = (await cal.events.patch({ id, title: 'Jam session (guest night)', start_date: '2027-03-15 20:00:00', end_date: '2027-03-15 23:30:00' }, A)).value as Json;
    expect(changed).toMatchObject({ id, title: 'Jam session (guest night)', start_date: '2027-03-15 20:00:00', occurrence: { exception: true } });
    // The series changes its description and moves to 18:00: the exception keeps its title and times, takes the description.
    await cal.events.patch({ id: series.id, description: 'Bring an instrument', start_date: '2027-03-01 18:00:00', end_date: '2027-03-01 21:00:00' }, A);
    const { events } = await listed(cal);
    expect(events.map((e) => e.id)).toEqual(events.map((e) => occurrenceId(series.id, e.start_date.slice(0, 10))));
    const byDate = new Map(events.map((e) => [e.start_date.slice(0, 10), e]));
    expect(byDate.get('2027-03-15')).toMatchObject({ id, title: 'Jam session (guest night)', start_date: '2027-03-15 20:00:00' });
    expect(byDate.get('2027-03-15')!.description).toContain('Bring an instrument');
    expect(byDate.get('2027-03-22')).toMatchObject({ title: 'Jam session', start_date: '2027-03-22 18:00:00' });
  });

  it('deletes one occurrence (trash, 410 again), and the whole series', async () => {
    const { cal, series } = await weekly();
    const id = occurrenceId(series.id, '2027-03-08');
    expect((await cal.events.delete({ id }, A)).value.status).toBe('trash');
    await refusal(cal.events.delete({ id }, A), 'event_in_trash');
    await refusal(cal.events.get({ id }, anon), 'event_trashed');
    expect((await listed(cal)).total).toBe(5);
    expect((await cal.events.delete({ id: series.id }, A)).value.status).toBe('trash');
    expect((await listed(cal)).total).toBe(0);
    await refusal(cal.events.get({ id: occurrenceId(series.id, '2027-03-22') }, anon), 'event_trashed');
  });

  it('splits at "this and following": the occurrences keep their ids, earlier ones stay as they were', async () => {
    const { cal, series } = await weekly();
    const exception = occurrenceId(series.id, '2027-03-29');
    await cal.events.patch({ id: exception, title: 'Special' }, A);
    const at = occurrenceId(series.id, '2027-03-15');
    const split = (await cal.events.patch({ id: at, scope: 'following', title: 'Late jam', start_date: '2027-03-15 21:00:00', end_date: '2027-03-15 23:00:00' }, A)).value as Json;
    expect(split).toMatchObject({ id: at, title: 'Late jam', start_date: '2027-03-15 21:00:00' });
    expect(split.post_parent).not.toBe(series.id);
    const { events } = await listed(cal);
    expect(events.map((e) => [e.start_date, e.title])).toEqual([
      ['2027-03-01 19:00:00', 'Jam session'], ['2027-03-08 19:00:00', 'Jam session'], ['2027-03-15 21:00:00', 'Late jam'],
      ['2027-03-22 21:00:00', 'Late jam'], ['2027-03-29 21:00:00', 'Special'], ['2027-04-05 21:00:00', 'Late jam'],
    ]);
    expect(events.map((e) => e.id)).toEqual(events.map((e) => occurrenceId(series.id, e.start_date.slice(0, 10))));
    const first = (await cal.events.get({ id: series.id }, A)).value as Json;
    expect(first.recurrence!.rrule).toBe('FREQ=WEEKLY;UNTIL=20270315T225959Z;BYDAY=MO');
    const second = (await cal.events.get({ id: split.post_parent! }, A)).value as Json;
    expect(second.recurrence!.rrule).toBe('FREQ=WEEKLY;COUNT=4;BYDAY=MO');
  });

  it('deletes this and the following occurrences by ending the series', async () => {
    const { cal, series } = await weekly();
    const ended = (await cal.events.delete({ id: occurrenceId(series.id, '2027-03-22'), scope: 'following' }, A)).value as Json;
    expect(ended.id).toBe(series.id);
    expect((await listed(cal)).total).toBe(3);
    await refusal(cal.events.get({ id: occurrenceId(series.id, '2027-03-29') }, anon), 'event_not_found');
  });
});

describe('rules', () => {
  it('monthly on the last weekday (BYSETPOS), yearly, RDATE and EXDATE', async () => {
    const cal = makeCalendar();
    const monthly = (await cal.events.create({
      title: 'Month end', start_date: '2027-01-29 17:00:00', end_date: '2027-01-29 18:00:00', timezone: 'Europe/Rome',
      recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4', exdate: ['2027-03-31 17:00:00'], rdate: ['2027-05-05 17:00'] },
    }, A)).value as Json;
    expect(monthly.recurrence).toEqual({ rrule: 'FREQ=MONTHLY;COUNT=4;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', rdate: ['2027-05-05 17:00:00'], exdate: ['2027-03-31 17:00:00'] });
    const yearly = (await cal.events.create({ title: 'Anniversary', start_date: '2027-02-10', end_date: '2027-02-10', all_day: true, recurrence: 'FREQ=YEARLY;UNTIL=20290301' }, A)).value as Json;
    const { events } = await listed(cal, { end_date: '2030-01-01' });
    expect(events.filter((e) => e.post_parent === monthly.id).map((e) => e.start_date)).toEqual(['2027-01-29 17:00:00', '2027-02-26 17:00:00', '2027-04-30 17:00:00', '2027-05-05 17:00:00']);
    expect(events.filter((e) => e.post_parent === yearly.id).map((e) => [e.start_date, e.end_date])).toEqual([
      ['2027-02-10 00:00:00', '2027-02-10 23:59:59'], ['2028-02-10 00:00:00', '2028-02-10 23:59:59'], ['2029-02-10 00:00:00', '2029-02-10 23:59:59']]);
  });

  it('places occurrences by the one DST rule of single events: a skipped start moves forward, a repeated one is the first', async () => {
    const cal = makeCalendar();
    const zone = { timezone: 'Europe/Rome' };
    await cal.events.create({ title: 'Night', start_date: '2027-03-21 02:30:00', end_date: '2027-03-21 03:00:00', ...zone, recurrence: 'FREQ=WEEKLY;COUNT=3' }, A);
    await cal.events.create({ title: 'Watch', start_date: '2027-10-25 02:30:00', end_date: '2027-10-25 03:00:00', ...zone, recurrence: 'FREQ=DAILY;INTERVAL=3;COUNT=3' }, A);
    const { events } = await listed(cal);
    expect(events.map((e) => [e.title, e.start_date, e.utc_start_date, e.occurrence?.original_start_date])).toEqual([
      ['Night', '2027-03-21 02:30:00', '2027-03-21 01:30:00', '2027-03-21 02:30:00'],
      ['Night', '2027-03-28 03:30:00', '2027-03-28 01:30:00', '2027-03-28 03:30:00'],
      ['Night', '2027-04-04 02:30:00', '2027-04-04 00:30:00', '2027-04-04 02:30:00'],
      ['Watch', '2027-10-25 02:30:00', '2027-10-25 00:30:00', '2027-10-25 02:30:00'],
      ['Watch', '2027-10-28 02:30:00', '2027-10-28 00:30:00', '2027-10-28 02:30:00'],
      ['Watch', '2027-10-31 02:30:00', '2027-10-31 00:30:00', '2027-10-31 02:30:00'],
    ]);
    // Single events at the same wall clocks: the same local starts and instants.
    for (const [start, occurrence] of [['2027-03-28 02:30:00', events[1]!], ['2027-10-31 02:30:00', events[5]!]] as const) {
      const single = (await cal.events.create({ title: 'Once', start_date: start, end_date: start, ...zone }, A)).value as Json;
      expect([single.start_date, single.utc_start_date]).toEqual([occurrence.start_date, occurrence.utc_start_date]);
    }
    // An EXDATE names the start as it shows (the skipped 02:30 is 03:30) or as the rule gives it.
    for (const exdate of ['2027-03-28 03:30:00', '2027-03-28 02:30:00']) {
      const other = makeCalendar();
      await other.events.create({ title: 'Night', start_date: '2027-03-21 02:30:00', end_date: '2027-03-21 03:00:00', ...zone, recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3', exdate: [exdate] } }, A);
      expect((await listed(other)).events.map((e) => e.start_date.slice(0, 10))).toEqual(['2027-03-21', '2027-04-04']);
    }
  });

  it('ends an occurrence its series\' length after its start, also in the second pass of a repeated hour', async () => {
    const cal = makeCalendar();
    const series = (await cal.events.create({
      title: 'Swim', start_date: '2027-10-31 01:30:00', end_date: '2027-10-31 02:15:00', timezone: 'America/New_York', recurrence: 'FREQ=WEEKLY;COUNT=2',
    }, A)).value as Json;
    const id = occurrenceId(series.id, '2027-11-07');
    const times = (e: Json) => [e.start_date, e.utc_start_date, e.end_date, e.utc_end_date];
    const swim = (await cal.events.get({ id }, A)).value as Json;
    // 01:30 EDT (the first 01:30) plus 45 minutes is 01:15 EST, the second 01:15.
    expect(times(swim)).toEqual(['2027-11-07 01:30:00', '2027-11-07 05:30:00', '2027-11-07 01:15:00', '2027-11-07 06:15:00']);
    const renamed = (await cal.events.patch({ id, title: 'Swim (cold)' }, A)).value as Json;
    expect([renamed.title, ...times(renamed)]).toEqual(['Swim (cold)', ...times(swim)]);
  });

  it('refuses bad rules with 400s that say why', async () => {
    const cal = makeCalendar();
    const input = (recurrence: string) => ({ title: 'x', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 20:00:00', recurrence });
    const message = async (recurrence: string) => (await refusal(cal.events.create(input(recurrence), A), 'invalid_params')).details.params;
    expect(await message('FREQ=SOMETIMES')).toEqual({ recurrence: 'The recurrence rule is not valid: FREQ=SOMETIMES' });
    expect(await message('FREQ=WEEKLY;BYDAY=XX')).toEqual({ recurrence: expect.stringContaining('The recurrence rule is not valid') });
    expect(await message('FREQ=HOURLY')).toEqual({ recurrence: 'A recurrence repeats at most daily (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY).' });
    expect(await message('FREQ=DAILY;BYHOUR=9,18')).toEqual({ recurrence: 'A series has at most one occurrence a day: 2027-03-02 has two.' });
    expect(await message('FREQ=DAILY;COUNT=5000')).toEqual({ recurrence: expect.stringContaining('at most 1000 occurrences') });
    expect(await message('FREQ=WEEKLY;COUNT=2;UNTIL=20280101T000000Z')).toEqual({ recurrence: 'The recurrence rule is not valid: COUNT + UNTIL' });
    const bounded = makeCalendar({ recurrence: { horizonMonths: 0 } });
    expect((await refusal(bounded.events.create(input('FREQ=WEEKLY'), A), 'invalid_params')).details.params)
      .toEqual({ recurrence: 'A recurrence without COUNT or UNTIL needs a horizon; give it a COUNT or an UNTIL.' });
  });
});

describe('the horizon', () => {
  it('stores unbounded series up to the horizon, and further when a list reaches past it', async () => {
    const cal = makeCalendar({ recurrence: { horizonMonths: 12, maxHorizonMonths: 60 } });
    const series = (await cal.events.create({ title: 'Forever', start_date: '2026-12-07 10:00:00', end_date: '2026-12-07 11:00:00', recurrence: 'FREQ=MONTHLY' }, A)).value as Json;
    expect(new Date(NOW).toISOString().slice(0, 10)).toBe('2026-11-22');
    const near = await cal.events.list({ start_date: '2026-12-01', end_date: '2027-06-30', per_page: 50 }, A);
    expect(near.total).toBe(7);
    const far = await cal.events.list({ start_date: '2029-01-01', end_date: '2029-12-31', per_page: 50 }, A);
    expect(far.total).toBe(12);
    expect((far.body as { events: Json[] }).events[0]!.id).toBe(occurrenceId(series.id, '2029-01-07'));
    // Beyond maxHorizonMonths (60 months from now: 2031-11-22) nothing more is stored.
    const beyond = await cal.events.list({ start_date: '2032-01-01', end_date: '2032-12-31', per_page: 50 }, A);
    expect(beyond.total).toBe(0);
  });

  it('stores a series written after a list reached past the horizon as far as that list reached', async () => {
    const cal = makeCalendar({ recurrence: { horizonMonths: 12, maxHorizonMonths: 60 } });
    // No series is open yet: the list stores nothing, but the horizon is reached.
    expect((await cal.events.list({ start_date: '2029-01-01', end_date: '2029-12-31', per_page: 50 }, A)).total).toBe(0);
    await cal.events.create({ title: 'Forever', start_date: '2026-12-07 10:00:00', end_date: '2026-12-07 11:00:00', recurrence: 'FREQ=MONTHLY' }, A);
    expect((await cal.events.list({ start_date: '2029-01-01', end_date: '2029-12-31', per_page: 50 }, A)).total).toBe(12);
  });
});

describe('JSON-LD', () => {
  it('describes a series with a schema.org Schedule', async () => {
    const { cal, series } = await weekly(makeCalendar(), { recurrence: { rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20270601T000000Z', exdate: ['2027-03-15 19:00:00'] } });
    const read = (await cal.events.get({ id: series.id }, anon)).value as Json & { json_ld: Record<string, unknown> };
    expect(read.json_ld.eventSchedule).toEqual({
      '@type': 'Schedule', repeatFrequency: 'P2W', byDay: ['https://schema.org/Monday', 'https://schema.org/Wednesday'],
      startDate: '2027-03-01', endDate: '2027-05-31', startTime: '19:00:00', endTime: '22:00:00', duration: 'PT10800S',
      exceptDate: ['2027-03-15T19:00:00-04:00'], scheduleTimezone: 'America/New_York',
    });
    // An occurrence is one event: no schedule.
    const occurrence = (await cal.events.get({ id: occurrenceId(series.id, '2027-03-03') }, anon)).value as Json & { json_ld: Record<string, unknown> };
    expect(occurrence.json_ld.eventSchedule).toBeUndefined();
    expect(occurrence.json_ld.startDate).toBe('2027-03-03T19:00:00-05:00');
  });
});

describe('the documented example', () => {
  it('occurrence 15 March 2027 of series 42 is 1589256011120682, its URL the series slug and the date', async () => {
    expect(occurrenceId(42, '2027-03-15')).toBe(1589256011120682);
    const { cal, series } = await weekly();
    const occurrence = (await cal.events.get({ id: occurrenceId(series.id, '2027-03-15') }, anon)).value as Json;
    expect(occurrence.slug).toBe(`${series.slug}/2027-03-15`);
    expect(occurrence.url).toBe(`http://localhost/event/${series.slug}/2027-03-15/`);
  });
});

describe('datasets', () => {
  it('export a series with its exceptions; importing the export gives the same occurrences, ids included', async () => {
    const { cal, series } = await weekly();
    await cal.events.patch({ id: occurrenceId(series.id, '2027-03-15'), title: 'Guest night' }, A);
    await cal.events.delete({ id: occurrenceId(series.id, '2027-03-22') }, A);
    const dataset = await cal.exportDataset();
    const exported = (dataset.events as Record<string, unknown>[]);
    expect(exported.filter((e) => e.occurrence).map((e) => (e.occurrence as { date: string }).date)).toEqual(['2027-03-15', '2027-03-22']);
    const copy = makeCalendar();
    await copy.importDataset(dataset);
    const strip = (list: Json[]) => list.map((e) => [e.id, e.title, e.start_date, e.status]);
    expect(strip((await listed(copy)).events)).toEqual(strip((await listed(cal)).events));
    await refusal(copy.events.get({ id: occurrenceId(series.id, '2027-03-22') }, A), 'event_trashed');
  });
});
