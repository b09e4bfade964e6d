// Importing iCalendar files (issue 15): a feed imported into a fresh calendar gives the same
// events; importing again updates instead of duplicating; recurring events come with their
// exceptions (issue 20); bad
// input is refused naming its line, with nothing written.
import { describe, expect, it } from 'vitest';
import { importIcs, type Calendar, type CalendarOptions, type ImportIcsSummary, type EventJson } from '@evcal/core';
import { admin, as, makeCalendar, refusal, type Json } from './helpers';
import { readFeed } from './ical-helpers';

const ADMIN = as(admin);
const WIDE = { start_date: '2000-01-01', end_date: '2099-12-31', per_page: 50 };

function calendarFor(options: Partial<CalendarOptions> = {}): Calendar {
  return makeCalendar({ siteUrl: 'https://cal.example.com', timezone: 'Europe/Rome', ...options });
}

async function events(calendar: Calendar): Promise<EventJson[]> {
  return (await calendar.events.list(WIDE, ADMIN)).body.events;
}

/** What an event is, as far as iCalendar carries it. */
function essence(e: Json) {
  const venue = e.venue as Json | [];
  return {
    title: e.title, description: e.description, all_day: e.all_day, start_date: e.start_date, end_date: e.end_date,
    utc_start_date: e.utc_start_date, utc_end_date: e.utc_end_date, timezone: e.timezone,
    venue: Array.isArray(venue) ? null : { venue: venue.venue, geo_lat: venue.geo_lat, geo_lng: venue.geo_lng },
    organizer: (e.organizer as Json[]).map((o) => o.email),
    categories: (e.categories as Json[]).map((c) => c.name),
  };
}

/** An iCalendar text from content lines. */
const ics = (...lines: string[]) => `${['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//test//EN', ...lines, 'END:VCALENDAR'].join('\r\n')}\r\n`;

const vevent = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];

async function counts(calendar: Calendar) {
  const [e, v, c] = await Promise.all([
    calendar.events.list({ ...WIDE, status: 'publish,draft,pending,private,future' }, ADMIN),
    calendar.venues.list({ per_page: 50 }, ADMIN),
    calendar.categories.list({ per_page: 50, hide_empty: false }, ADMIN),
  ]);
  return { events: e.total, venues: v.total, categories: c.total };
}

describe('importIcs', () => {
  it('reads a feed back into a fresh calendar as the same events', async () => {
    const source = calendarFor();
    const create = async (input: Json) => (await source.events.create({ status: 'publish', ...input }, ADMIN)).value;
    await create({
      title: 'Jazz, "live"; at the Blue Room 🎷', description: 'Doors at 8 & music at 9.\n\nÜber-long text €', start_date: '2027-03-28 01:30:00', end_date: '2027-03-28 04:00:00',
      venue: { venue: 'Blue Room', address: 'Via Roma 1', city: 'Rome', geo_lat: 41.9, geo_lng: 12.5 }, categories: ['Music', 'Jazz'],
      organizer: { organizer: 'Ada', email: 'ada@example.com' },
    });
    await create({ title: 'NY gig', start_date: '2027-11-07 01:30:00', end_date: '2027-11-07 02:30:00', timezone: 'America/New_York' });
    await create({ title: 'Sydney', start_date: '2027-10-03 01:30:00', end_date: '2027-10-03 03:30:00', timezone: 'Australia/Sydney' });
    await create({ title: 'Fair', start_date: '2027-01-09', end_date: '2027-01-11', all_day: true });
    await create({ title: 'Festival', start_date: '2027-05-01 18:00:00', end_date: '2027-05-03 02:00:00', categories: ['Music'] });
    await create({ title: 'In UTC', start_date: '2027-06-01 10:00:00', end_date: '2027-06-01 12:00:00', timezone: 'UTC' });
    const feed = await readFeed(source.events.feed(WIDE, ADMIN));

    const target = calendarFor();
    const summary = await importIcs(target, feed.text);
    expect(summary).toEqual({ created: 6, updated: 0, unchanged: 0, venues: 1, categories: 2, skipped: [] });
    const before = (await events(source)).map(essence);
    const after = (await events(target)).map(essence);
    // The repeated hour in New York was written in UTC, so it comes back in UTC: the same instants, another zone.
    const ny = after.find((e) => e.title === 'NY gig')!;
    expect(ny).toMatchObject({ timezone: 'UTC', start_date: '2027-11-07 05:30:00' });
    expect(after.map((e) => (e.title === 'NY gig' ? { ...e, timezone: 'America/New_York', start_date: '2027-11-07 01:30:00', end_date: '2027-11-07 02:30:00' } : e))).toEqual(before);
    // And its own feed reads the same, but for UIDs, permalinks and stamps.
    const again = await readFeed(target.events.feed(WIDE, ADMIN));
    const comparable = (vevents: typeof feed.events) => vevents.map((v) => ['summary', 'description', 'location', 'geo', 'categories', 'organizer']
      .map((p) => v.getFirstPropertyValue(p)).concat(['dtstart', 'dtend'].map((p) => (v.getFirstPropertyValue(p) as { toJSDate(): Date }).toJSDate())));
    expect(comparable(again.events)).toEqual(comparable(feed.events));
  });

  it('updates the events of an earlier import of the file instead of adding copies', async () => {
    const calendar = calendarFor();
    const file = (title: string, start: string) => ics(
      ...vevent('gig-1@elsewhere', `SUMMARY:${title}`, `DTSTART;TZID=Europe/Rome:${start}`, 'DURATION:PT2H', 'LOCATION:Blue Room'),
      ...vevent('gig-2@elsewhere', 'SUMMARY:Second', 'DTSTART:20270302T200000Z', 'DTEND:20270302T220000Z'),
    );
    expect(await importIcs(calendar, file('First', '20270301T210000'))).toMatchObject({ created: 2, updated: 0, unchanged: 0, venues: 1 });
    expect(await importIcs(calendar, file('First', '20270301T210000'))).toMatchObject({ created: 0, updated: 0, unchanged: 2, venues: 0 });
    const renamed = await importIcs(calendar, file('First, moved', '20270308T210000'));
    expect(renamed).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const list = await events(calendar);
    expect(list.map((e) => [e.title, e.start_date, e.end_date])).toEqual([
      ['Second', '2027-03-02 20:00:00', '2027-03-02 22:00:00'],
      ['First, moved', '2027-03-08 21:00:00', '2027-03-08 23:00:00'],
    ]);
    expect(await counts(calendar)).toMatchObject({ events: 2, venues: 1 });
    // A status set in the calendar stays: the file does not own it.
    const first = list.find((e) => e.title === 'First, moved')!;
    await calendar.events.patch({ id: first.id, status: 'draft' }, ADMIN);
    await importIcs(calendar, file('First, moved again', '20270308T210000'));
    expect((await calendar.events.get({ id: first.id }, ADMIN)).value).toMatchObject({ status: 'draft', title: 'First, moved again' });
  });

  it('imports recurring events with their changed and cancelled occurrences, and skips what evcal cannot keep', async () => {
    const calendar = calendarFor();
    const text = ics(
      ...vevent('weekly', 'SUMMARY:Standup', 'DTSTART;TZID=Europe/Rome:20270104T090000', 'DURATION:PT15M', 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4'),
      ...vevent('weekly', 'SUMMARY:Standup moved', 'RECURRENCE-ID;TZID=Europe/Rome:20270111T090000', 'DTSTART;TZID=Europe/Rome:20270111T100000', 'DURATION:PT15M'),
      ...vevent('weekly', 'SUMMARY:Standup', 'RECURRENCE-ID;TZID=Europe/Rome:20270118T090000', 'STATUS:CANCELLED', 'DTSTART;TZID=Europe/Rome:20270118T090000'),
      ...vevent('dates', 'SUMMARY:Twice', 'DTSTART:20270104T090000Z', 'RDATE:20270105T090000Z', 'EXDATE:20270104T090000Z', 'RDATE:20270107T090000Z'),
      ...vevent('hourly', 'SUMMARY:Every hour', 'DTSTART:20270104T090000Z', 'RRULE:FREQ=HOURLY;COUNT=3'),
      ...vevent('ghost', 'SUMMARY:Moved ghost', 'RECURRENCE-ID:20270111T090000Z', 'DTSTART:20270111T100000Z'),
      ...vevent('off', 'SUMMARY:Called off', 'STATUS:CANCELLED', 'DTSTART:20270104T090000Z'),
      ...vevent('once', 'SUMMARY:Once', 'DTSTART:20270104T090000Z'),
    );
    const summary: ImportIcsSummary = await importIcs(calendar, text);
    expect(summary.created).toBe(3);
    expect(summary.skipped).toEqual([
      { line: 37, uid: 'hourly', title: 'Every hour', reason: 'recurring' },
      { line: 51, uid: 'off', title: 'Called off', reason: 'cancelled' },
      { line: 44, uid: 'ghost', title: 'Moved ghost', reason: 'recurring' },
    ]);
    expect((await events(calendar)).map((e) => [e.title, e.start_date])).toEqual([
      // Times in UTC make events in UTC; at the same local start, the post (a smaller id) comes before the occurrence.
      ['Once', '2027-01-04 09:00:00'], ['Standup', '2027-01-04 09:00:00'], ['Twice', '2027-01-05 09:00:00'], ['Twice', '2027-01-07 09:00:00'],
      ['Standup moved', '2027-01-11 10:00:00'], ['Standup', '2027-01-25 09:00:00'],
    ]);
    // Importing the same file again changes nothing.
    const again = await importIcs(calendar, text);
    expect([again.created, again.updated, again.unchanged]).toEqual([0, 0, 3]);
    expect((await events(calendar)).length).toBe(6);
  });

  it('reads zones as files write them: IANA names with or without a VTIMEZONE, prefixed names, zones only a VTIMEZONE defines, UTC and floating times', async () => {
    const calendar = calendarFor();
    const windows = [
      'BEGIN:VTIMEZONE', 'TZID:W. Europe Standard Time',
      'BEGIN:STANDARD', 'DTSTART:16010101T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10', 'END:STANDARD',
      'BEGIN:DAYLIGHT', 'DTSTART:16010101T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3', 'END:DAYLIGHT',
      'END:VTIMEZONE',
    ];
    const text = ics(
      'X-WR-TIMEZONE:America/Chicago',
      ...windows,
      ...vevent('a', 'SUMMARY:Bare IANA', 'DTSTART;TZID=America/New_York:20270314T023000', 'DTEND;TZID=America/New_York:20270314T040000'),
      ...vevent('b', 'SUMMARY:Mozilla', 'DTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20270601T100000', 'DURATION:PT1H30M'),
      ...vevent('c', 'SUMMARY:Windows', 'DTSTART;TZID=W. Europe Standard Time:20270701T100000', 'DTEND;TZID=W. Europe Standard Time:20270701T110000'),
      ...vevent('d', 'SUMMARY:Zulu', 'DTSTART:20270801T100000Z', 'DTEND:20270801T110000Z'),
      ...vevent('e', 'SUMMARY:Floating', 'DTSTART:20270901T100000', 'DTEND:20270901T110000'),
      ...vevent('f', 'SUMMARY:Two days', 'DTSTART;VALUE=DATE:20271001', 'DTEND;VALUE=DATE:20271003'),
      ...vevent('g', 'SUMMARY:One day', 'DTSTART;VALUE=DATE:20271005'),
      ...vevent('h', 'SUMMARY:Week', 'DTSTART;VALUE=DATE:20271010', 'DURATION:P1W'),
    );
    await importIcs(calendar, text);
    const got = Object.fromEntries((await events(calendar)).map((e) => [e.title, [e.timezone, e.all_day, e.start_date, e.end_date, e.utc_start_date]]));
    expect(got).toEqual({
      // 02:30 does not exist that night: it is 03:30 EDT, as a create with that time gives.
      'Bare IANA': ['America/New_York', false, '2027-03-14 03:30:00', '2027-03-14 04:00:00', '2027-03-14 07:30:00'],
      Mozilla: ['Europe/Berlin', false, '2027-06-01 10:00:00', '2027-06-01 11:30:00', '2027-06-01 08:00:00'],
      // Only its VTIMEZONE says what "W. Europe Standard Time" is: the instant from it, kept in the file's zone.
      Windows: ['America/Chicago', false, '2027-07-01 03:00:00', '2027-07-01 04:00:00', '2027-07-01 08:00:00'],
      Zulu: ['UTC', false, '2027-08-01 10:00:00', '2027-08-01 11:00:00', '2027-08-01 10:00:00'],
      Floating: ['America/Chicago', false, '2027-09-01 10:00:00', '2027-09-01 11:00:00', '2027-09-01 15:00:00'],
      'Two days': ['America/Chicago', true, '2027-10-01 00:00:00', '2027-10-02 23:59:59', '2027-10-01 05:00:00'],
      'One day': ['America/Chicago', true, '2027-10-05 00:00:00', '2027-10-05 23:59:59', '2027-10-05 05:00:00'],
      Week: ['America/Chicago', true, '2027-10-10 00:00:00', '2027-10-16 23:59:59', '2027-10-10 05:00:00'],
    });
  });

  it('takes the site zone for floating times when the file names none, and an organizer without an address is left out', async () => {
    const calendar = calendarFor();
    await importIcs(calendar, ics(...vevent('x', 'SUMMARY:Local', 'DTSTART:20270901T100000', 'ORGANIZER;CN=Nobody:urn:x-none')));
    expect((await events(calendar)).map((e) => [e.timezone, e.start_date, e.organizer])).toEqual([['Europe/Rome', '2027-09-01 10:00:00', []]]);
  });

  describe('refuses bad input naming the line, and writes nothing', () => {
    const good = vevent('ok', 'SUMMARY:Fine', 'DTSTART:20270104T090000Z', 'LOCATION:Hall', 'CATEGORIES:New category');
    it.each<[string, string, number, RegExp]>([
      ['not iCalendar', 'hello, world\n', 1, /not an iCalendar file/],
      ['an empty file', '\r\n\r\n', 1, /empty/],
      ['a JSON dataset', '{"events": []}', 1, /not an iCalendar file/],
      ['a line without a colon', ics(...good, 'BEGIN:VEVENT', 'UID:x', 'this line is broken', 'END:VEVENT'), 14, /not an iCalendar content line/],
      ['bad parameters', ics(...good, 'BEGIN:VEVENT', 'UID:x', 'DTSTART;=x:20270101T100000Z', 'END:VEVENT'), 14, /not an iCalendar content line/],
      ['an unknown zone', ics(...good, ...vevent('x', 'DTSTART;TZID=Mars/Olympus_Mons:20270101T100000')), 15, /unknown time zone "Mars\/Olympus_Mons" in DTSTART/],
      ['an impossible date', ics(...good, ...vevent('x', 'DTSTART:20270230T100000Z')), 15, /DTSTART is not a valid date/],
      ['a date that is no date', ics(...good, ...vevent('x', 'DTSTART:2027xx01T100000Z')), 15, /DTSTART is not a valid date/],
      ['no DTSTART', ics(...good, ...vevent('x', 'SUMMARY:When?')), 12, /VEVENT "When\?" has no DTSTART/],
      ['an end before the start', ics(...good, ...vevent('x', 'DTSTART:20270101T100000Z', 'DTEND:20270101T090000Z')), 16, /ends before it starts/],
      ['a date and a date-time mixed', ics(...good, ...vevent('x', 'DTSTART;VALUE=DATE:20270101', 'DTEND:20270101T090000Z')), 16, /both be dates/],
      ['bad coordinates', ics(...good, ...vevent('x', 'DTSTART:20270101T100000Z', 'LOCATION:Pole', 'GEO:91;0')), 17, /GEO must be/],
      ['a component never ended', ics(...good, 'BEGIN:VEVENT', 'UID:x'), 14, /END:VCALENDAR where END:VEVENT \(begun on line 12\) was expected/],
      ['a file cut short', ics(...good).replace('END:VCALENDAR\r\n', ''), 1, /BEGIN:VCALENDAR is never ended/],
      ['a mismatched END', ics(...good, 'BEGIN:VEVENT', 'END:VTODO'), 13, /END:VTODO where END:VEVENT \(begun on line 12\)/],
      ['a folded first line', ' BEGIN:VCALENDAR\r\n', 1, /continuation line/],
      // Found only when the event is written (after the first one was): still nothing is left.
      ['a URL the event cannot have', ics(...good, ...vevent('x', 'SUMMARY:Bad link', 'DTSTART:20270101T100000Z', 'URL:javascript:alert(1)')), 12, /VEVENT "Bad link" cannot be imported: invalid website/],
    ])('%s', async (_name, text, line, message) => {
      const calendar = calendarFor();
      const error = await refusal(importIcs(calendar, text), 'invalid_ical');
      expect(error.message).toMatch(new RegExp(`^line ${line}: `));
      expect(error.message).toMatch(message);
      expect(error.details).toMatchObject({ line });
      expect(await counts(calendar)).toEqual({ events: 0, venues: 0, categories: 0 });
    });
  });
});
