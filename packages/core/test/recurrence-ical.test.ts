// Series in iCalendar feeds, read back by ical.js the way a calendar app expands them: RRULE
// and EXDATE on the series, RECURRENCE-ID on its exceptions, its added starts on their own. Every occurrence the JSON
// list shows must come out of ical.js's expansion at the same instant with the same title.
import ICAL from 'ical.js';
import { occurrenceId, type Calendar, type EventJson } from '@evcal/core';
import { describe, expect, it } from 'vitest';
import { admin, anon, as, makeCalendar } from './helpers';
import { readFeed } from './ical-helpers';

const A = as(admin);
const WINDOW = { start_date: '2027-01-01', end_date: '2029-12-31' };

/** ical.js's expansion of a feed: each series with its exceptions, every start until `until`. */
function expand(text: string, until: string): { start: number; title: string; uid: string }[] {
  const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
  const masters = vevents.filter((v) => !v.hasProperty('recurrence-id'));
  const out: { start: number; title: string; uid: string }[] = [];
  const stop = ICAL.Time.fromDateString(until);
  for (const vevent of masters) {
    const event = new ICAL.Event(vevent, { exceptions: vevents.filter((v) => v.hasProperty('recurrence-id') && v.getFirstPropertyValue('uid') === vevent.getFirstPropertyValue('uid')) });
    if (!event.isRecurring()) {
      out.push({ start: event.startDate.toJSDate().getTime(), title: event.summary, uid: event.uid });
      continue;
    }
    const it = event.iterator();
    for (let next = it.next(); next && next.compare(stop) < 0; next = it.next()) {
      const details = event.getOccurrenceDetails(next);
      out.push({ start: details.startDate.toJSDate().getTime(), title: details.item.summary, uid: event.uid });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

async function listed(cal: Calendar): Promise<{ start: number; title: string }[]> {
  const { body } = await cal.events.list({ ...WINDOW, per_page: 50 }, anon);
  return (body as { events: EventJson[] }).events.map((e) => ({ start: Date.parse(`${e.utc_start_date.replace(' ', 'T')}Z`), title: e.title }));
}

async function feedText(cal: Calendar, input: Record<string, unknown> = WINDOW): Promise<string> {
  return (await readFeed(cal.events.feed(input, anon))).text;
}

describe('series in feeds, expanded by ical.js', () => {
  it('a weekly series across a DST change, with a moved exception and a deleted occurrence', async () => {
    const cal = makeCalendar();
    const series = (await cal.events.create({
      title: 'Jam', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00', timezone: 'America/New_York', recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=8',
    }, A)).value;
    await cal.events.patch({ id: occurrenceId(series.id, '2027-03-15'), title: 'Jam (guests)', start_date: '2027-03-15 20:30:00', end_date: '2027-03-15 23:00:00' }, A);
    await cal.events.delete({ id: occurrenceId(series.id, '2027-03-22') }, A);
    const text = await feedText(cal);
    expect(text).toContain('RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=MO');
    expect(text).toContain('EXDATE;TZID=America/New_York:20270322T190000');
    expect(text).toContain('RECURRENCE-ID;TZID=America/New_York:20270315T190000');
    const ical = expand(text, '2030-01-01');
    expect(ical.map(({ start, title }) => ({ start, title }))).toEqual(await listed(cal));
    expect(ical).toHaveLength(7);
    expect(new Set(ical.map((e) => e.uid)).size).toBe(1);
  });

  it('monthly on the last weekday (BYSETPOS) in Berlin, yearly all-day, and RDATE/EXDATE', async () => {
    const cal = makeCalendar();
    await cal.events.create({
      title: 'Month end', start_date: '2027-01-29 17:00:00', end_date: '2027-01-29 18:00:00', timezone: 'Europe/Berlin',
      recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=6', exdate: ['2027-03-31 17:00:00'], rdate: ['2027-05-05 17:00:00'] },
    }, A);
    await cal.events.create({ title: 'Anniversary', start_date: '2027-02-10', end_date: '2027-02-10', all_day: true, recurrence: 'FREQ=YEARLY;COUNT=3' }, A);
    await cal.events.create({ title: 'Once', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 11:00:00' }, A);
    const text = await feedText(cal);
    const ical = expand(text, '2030-01-01');
    const json = await listed(cal);
    // All-day occurrences are dates in iCalendar (ical.js reads them at local midnight of the machine): compare the timed ones exactly.
    const timed = (list: { start: number; title: string }[]) => list.filter((e) => e.title !== 'Anniversary');
    expect(timed(ical.map(({ start, title }) => ({ start, title })))).toEqual(timed(json));
    expect(ical.filter((e) => e.title === 'Anniversary')).toHaveLength(3);
    expect(text).toContain('DTSTART;VALUE=DATE:20270210');
    // The start the series adds to its rule is a VEVENT of its own (node-ical ignores RDATE).
    expect(text).not.toContain('RDATE');
    expect(text).toContain('DTSTART;TZID=Europe/Berlin:20270505T170000');
  });

  it('a series read alone: GET /events/{series}.ics carries the series and its exceptions', async () => {
    const cal = makeCalendar();
    const series = (await cal.events.create({ title: 'Daily', start_date: '2027-03-25 09:00:00', end_date: '2027-03-25 09:30:00', timezone: 'Europe/Rome', recurrence: 'FREQ=DAILY;COUNT=5' }, A)).value;
    await cal.events.patch({ id: occurrenceId(series.id, '2027-03-27'), title: 'Daily (short)' }, A);
    const text = (await readFeed(cal.events.feedOne({ id: series.id }, anon))).text;
    expect(expand(text, '2030-01-01').map((e) => e.title)).toEqual(['Daily', 'Daily', 'Daily (short)', 'Daily', 'Daily']);
  });

  it('an occurrence read alone: GET /events/{occurrence}.ics carries it alone, with the series\' UID and its RECURRENCE-ID', async () => {
    const cal = makeCalendar();
    const series = (await cal.events.create({ title: 'Daily', start_date: '2027-03-25 09:00:00', end_date: '2027-03-25 09:30:00', timezone: 'Europe/Rome', recurrence: 'FREQ=DAILY;COUNT=5' }, A)).value;
    await cal.events.patch({ id: occurrenceId(series.id, '2027-03-27'), title: 'Daily (short)' }, A);
    const alone = async (date: string) => {
      const text = (await readFeed(cal.events.feedOne({ id: occurrenceId(series.id, date) }, anon))).text;
      const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
      expect(vevents).toHaveLength(1);
      const v = vevents[0]!;
      return [v.getFirstPropertyValue('uid'), v.getFirstProperty('recurrence-id')!.toICALString(), v.getFirstProperty('dtstart')!.toICALString(), v.getFirstPropertyValue('summary')];
    };
    const uid = expect.stringMatching(new RegExp(`^${series.id}@`));
    expect(await alone('2027-03-26')).toEqual([uid, 'RECURRENCE-ID;TZID=Europe/Rome:20270326T090000', 'DTSTART;TZID=Europe/Rome:20270326T090000', 'Daily']);
    expect(await alone('2027-03-27')).toEqual([uid, 'RECURRENCE-ID;TZID=Europe/Rome:20270327T090000', 'DTSTART;TZID=Europe/Rome:20270327T090000', 'Daily (short)']);
  });
});
