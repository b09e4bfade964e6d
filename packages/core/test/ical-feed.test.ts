// iCalendar feeds (issue 15), read back by ical.js as a calendar app reads them: the same
// events and instants as the JSON list, across DST changes, all-day and multi-day events,
// long and non-ASCII texts, redaction of protected events, the cap, UIDs and SEQUENCE.
import { describe, expect, it } from 'vitest';
import type { Calendar, CalendarOptions, CallContext, EventCreateInput, EventJson } from '@evcal/core';
import { admin, anon, as, eventInput, makeCalendar, refusal, NOW, type Json } from './helpers';
import { byUid, dateOf, expectFolded, instantOf, jsonInstant, readFeed } from './ical-helpers';

const SITE = 'https://cal.example.com';
const ADMIN = as(admin);
/** A list window wide enough for every event below. */
const WIDE = { start_date: '2000-01-01', end_date: '2099-12-31' };

function calendarFor(options: Partial<CalendarOptions> = {}): Calendar {
  return makeCalendar({ siteUrl: SITE, timezone: 'Europe/Rome', ...options });
}

async function create(calendar: Calendar, input: EventCreateInput, ctx: CallContext = ADMIN): Promise<EventJson> {
  return (await calendar.events.create({ status: 'publish', ...input }, ctx)).value;
}

/** Every event of the JSON list (one page of up to 50), with the same arguments. */
async function jsonList(calendar: Calendar, input: Json = {}, ctx: CallContext = ADMIN): Promise<Json[]> {
  return (await calendar.events.list({ per_page: 50, ...input }, ctx)).body.events as Json[];
}

const uid = (event: Json) => `${event.id as number}@cal.example.com`;

/** The raw content line of a property of the VEVENT with this UID, e.g. `DTSTART;TZID=…:…`. */
function rawLine(text: string, eventUid: string, name: string): string | undefined {
  const unfolded = text.replace(/\r\n[ \t]/g, '');
  const vevent = unfolded.split('BEGIN:VEVENT').find((block) => block.includes(`\r\nUID:${eventUid}\r\n`));
  return vevent?.split('\r\n').find((line) => line.startsWith(`${name};`) || line.startsWith(`${name}:`));
}

describe('the feed of GET /events', () => {
  it('carries every listed event at the instants of the JSON list, across DST changes in several zones', async () => {
    const calendar = calendarFor();
    const cases: Array<[string, string, string, string]> = [
      // Europe/Rome: spring forward (02:00 → 03:00) inside the event, and the repeated hour in October.
      ['Rome spring', '2027-03-28 01:30:00', '2027-03-28 04:00:00', 'Europe/Rome'],
      ['Rome autumn', '2027-10-31 01:30:00', '2027-10-31 03:30:00', 'Europe/Rome'],
      // New York: a start in the missing hour (moved forward), and one in the repeated hour (the first one).
      ['NY gap', '2027-03-14 02:30:00', '2027-03-14 04:00:00', 'America/New_York'],
      ['NY repeated hour', '2027-11-07 01:30:00', '2027-11-07 02:30:00', 'America/New_York'],
      // Southern hemisphere: Sydney leaves DST in April and starts it in October; Lord Howe shifts by 30 minutes.
      ['Sydney autumn', '2027-04-04 01:00:00', '2027-04-04 04:00:00', 'Australia/Sydney'],
      ['Sydney spring', '2027-10-03 01:30:00', '2027-10-03 03:30:00', 'Australia/Sydney'],
      ['Lord Howe', '2027-10-03 01:45:00', '2027-10-03 02:45:00', 'Australia/Lord_Howe'],
      ['Kolkata', '2027-06-01 19:00:00', '2027-06-01 22:00:00', 'Asia/Kolkata'],
      ['Fixed offset', '2027-06-02 10:00:00', '2027-06-02 11:00:00', 'UTC+2'],
      ['Alias', '2027-07-04 20:00:00', '2027-07-04 22:00:00', 'US/Eastern'],
      // Sao Paulo kept DST until 2019; the library's VTIMEZONE has today's rules only.
      ['Sao Paulo 2018', '2018-11-10 20:00:00', '2018-11-10 22:00:00', 'America/Sao_Paulo'],
    ];
    for (const [title, start, end, timezone] of cases) await create(calendar, { title, start_date: start, end_date: end, timezone });

    const json = await jsonList(calendar, WIDE);
    const feed = await readFeed(calendar.events.feed(WIDE, ADMIN));
    expect(json).toHaveLength(cases.length);
    expect(feed.events.map((e) => e.getFirstPropertyValue('uid'))).toEqual(json.map(uid));
    for (const event of json) {
      const vevent = byUid(feed.events, uid(event));
      expect(instantOf(vevent, 'dtstart'), `${event.title as string} start`).toBe(jsonInstant(event.utc_start_date));
      expect(instantOf(vevent, 'dtend'), `${event.title as string} end`).toBe(jsonInstant(event.utc_end_date));
    }

    const line = (title: string, name: string) => rawLine(feed.text, uid(json.find((e) => e.title === title)!), name);
    expect(line('Rome spring', 'DTSTART')).toBe('DTSTART;TZID=Europe/Rome:20270328T013000');
    expect(line('Rome spring', 'DTEND')).toBe('DTEND;TZID=Europe/Rome:20270328T040000');
    // 02:30 does not exist that night: evcal (and RFC 5545) read it as 03:30 EDT, written as such.
    expect(line('NY gap', 'DTSTART')).toBe('DTSTART;TZID=America/New_York:20270314T033000');
    // 01:30 happens twice; ical.js would take the second, so the event is written in UTC.
    expect(line('NY repeated hour', 'DTSTART')).toBe('DTSTART:20271107T053000Z');
    expect(line('Fixed offset', 'DTSTART')).toBe('DTSTART:20270602T080000Z');
    expect(line('Alias', 'DTSTART')).toBe('DTSTART;TZID=America/New_York:20270704T200000');
    expect(line('Sao Paulo 2018', 'DTSTART')).toBe('DTSTART:20181110T220000Z');

    // One VTIMEZONE per zone written, before the first event that uses it.
    const tzids = [...feed.text.matchAll(/BEGIN:VTIMEZONE\r\nTZID:([^\r]+)/g)].map((m) => m[1]);
    expect([...tzids].sort()).toEqual(['America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Australia/Sydney', 'Europe/Rome']);
    for (const tzid of tzids) {
      expect(feed.text.indexOf(`TZID:${tzid}\r\n`)).toBeLessThan(feed.text.indexOf(`TZID=${tzid}:`));
    }
  });

  it('writes all-day events as dates with an exclusive end, and multi-day events across days', async () => {
    const calendar = calendarFor();
    const day = await create(calendar, { title: 'Fair day', start_date: '2027-01-09', end_date: '2027-01-09', all_day: true });
    const days = await create(calendar, { title: 'Fair', start_date: '2027-01-09', end_date: '2027-01-11', all_day: true, timezone: 'America/New_York' });
    const spanning = await create(calendar, { title: 'Festival', start_date: '2027-05-01 18:00:00', end_date: '2027-05-03 02:00:00' });
    const feed = await readFeed(calendar.events.feed(WIDE, ADMIN));

    expect(dateOf(byUid(feed.events, uid(day)), 'dtstart')).toBe('2027-01-09');
    expect(dateOf(byUid(feed.events, uid(day)), 'dtend')).toBe('2027-01-10');
    expect(dateOf(byUid(feed.events, uid(days)), 'dtstart')).toBe('2027-01-09');
    expect(dateOf(byUid(feed.events, uid(days)), 'dtend')).toBe('2027-01-12');
    expect(rawLine(feed.text, uid(days), 'DTSTART')).toBe('DTSTART;VALUE=DATE:20270109');
    // The JSON gives the last day, ending 23:59:59; the feed the day after it.
    expect([days.start_date, days.end_date]).toEqual(['2027-01-09 00:00:00', '2027-01-11 23:59:59']);
    const vevent = byUid(feed.events, uid(spanning));
    expect(instantOf(vevent, 'dtstart')).toBe(jsonInstant(spanning.utc_start_date));
    expect(instantOf(vevent, 'dtend')).toBe(jsonInstant(spanning.utc_end_date));
    expect(instantOf(vevent, 'dtend') - instantOf(vevent, 'dtstart')).toBe(32 * 3_600_000);
  });

  it('folds long and non-ASCII texts at 75 octets and escapes them as RFC 5545 says', async () => {
    const calendar = calendarFor();
    const title = 'Fête 🎷 à Zürich; "Jazz", \\ back\\slash — 東京の夜 ' + 'ü'.repeat(60);
    const paragraphs = [
      'Première partie, avec des virgules, des points-virgules; des barres obliques inverses \\ et des guillemets "ainsi".',
      `${'Ωmega 😀 '.repeat(40)}fin`,
      'Line one\nLine two',
    ];
    const event = await create(calendar, {
      title, description: `<p>${paragraphs[0]}</p>\n\n${paragraphs[1]}\n\n${paragraphs[2]}`, start_date: '2027-02-01 21:00', end_date: '2027-02-01 23:00',
    });
    const feed = await readFeed(calendar.events.feed(WIDE, ADMIN));
    expectFolded(feed.text);
    const vevent = byUid(feed.events, uid(event));
    expect(vevent.getFirstPropertyValue('summary')).toBe(title);
    expect(vevent.getFirstPropertyValue('description')).toBe(paragraphs.join('\n\n'));
    const summary = rawLine(feed.text, uid(event), 'SUMMARY')!;
    expect(summary).toContain('Zürich\\; "Jazz"\\, \\\\ back\\\\slash');
    expect(rawLine(feed.text, uid(event), 'DESCRIPTION')).toContain('Line one\\nLine two');
  });

  it('gives the venue as LOCATION and GEO, the organizer, the categories and the permalink', async () => {
    const calendar = calendarFor();
    const event = await create(calendar, {
      title: 'Gig',
      start_date: '2027-02-01 21:00:00',
      end_date: '2027-02-01 23:00:00',
      venue: { venue: 'Blue Room', address: 'Via Roma 1', city: 'Rome', zip: '00100', country: 'Italy', geo_lat: 41.9, geo_lng: 12.5 },
      organizer: { organizer: 'Ada "Jazz" Lovelace', email: 'ada@example.com' },
      categories: ['Music', 'Jazz, blues'],
    });
    const vevent = byUid((await readFeed(calendar.events.feed(WIDE, ADMIN))).events, uid(event));
    expect(vevent.getFirstPropertyValue('location')).toBe('Blue Room\nVia Roma 1, Rome, 00100, Italy');
    expect(vevent.getFirstPropertyValue('geo')).toEqual([41.9, 12.5]);
    const organizer = vevent.getFirstProperty('organizer')!;
    expect(organizer.getFirstValue()).toBe('mailto:ada@example.com');
    expect(organizer.getParameter('cn')).toBe("Ada 'Jazz' Lovelace");
    expect(vevent.getAllProperties('categories').flatMap((p) => p.getValues())).toEqual(['Music', 'Jazz, blues']);
    expect(vevent.getFirstPropertyValue('url')).toBe(event.url);
    expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
  });

  it('shows a password-protected event by its title and times only, as the JSON list does, unless it is unlocked', async () => {
    const calendar = calendarFor();
    // Passwords are set by apps and datasets (the write routes take none).
    await calendar.importDataset({
      categories: [{ id: 1, name: 'Private' }],
      venues: [{ id: 10, venue: 'Hidden Room', status: 'publish', geo_lat: 45, geo_lng: 9 }],
      organizers: [{ id: 20, organizer: 'Bob', status: 'publish', email: 'bob@example.com' }],
      events: [{
        id: 30, title: 'Secret gig', description: 'The password is swordfish', password: 'swordfish', status: 'publish', author: 1,
        start_date: '2027-02-02 21:00:00', end_date: '2027-02-02 23:00:00', venue: [10], organizer: [20], categories: [1],
      }],
    });
    const event = { id: 30 };
    const locked = byUid((await readFeed(calendar.events.feed(WIDE, anon))).events, uid(event));
    const [json] = await jsonList(calendar, WIDE, anon);
    expect(json).toMatchObject({ title: 'Secret gig', description: '', venue: [], organizer: [], categories: [] });
    expect(locked.getFirstPropertyValue('summary')).toBe('Secret gig');
    expect(instantOf(locked, 'dtstart')).toBe(jsonInstant(json!.utc_start_date));
    for (const name of ['description', 'location', 'geo', 'organizer', 'categories']) expect(locked.hasProperty(name), name).toBe(false);

    for (const [input2, ctx] of [[{ password: 'swordfish' }, anon], [{ context: 'edit' }, ADMIN]] as const) {
      const open = byUid((await readFeed(calendar.events.feed({ ...WIDE, ...input2 }, ctx))).events, uid(event));
      expect(open.getFirstPropertyValue('description')).toBe('The password is swordfish');
      expect(open.getFirstPropertyValue('location')).toBe('Hidden Room');
      expect(open.getFirstPropertyValue('organizer')).toBe('mailto:bob@example.com');
    }
    await refusal(calendar.events.feedOne({ id: event.id }, anon), 'event_password_protected');
    const single = await readFeed(calendar.events.feedOne({ id: event.id, password: 'swordfish' }, anon));
    expect(single.events[0]!.getFirstPropertyValue('description')).toBe('The password is swordfish');
  });

  it('lists what the caller may see, with the filters of GET /events', async () => {
    const calendar = calendarFor();
    const venue = (await calendar.venues.create({ venue: 'Hall', status: 'publish' }, ADMIN)).value;
    await create(calendar, eventInput({ title: 'Jazz brunch', start_date: '2027-03-01 11:00', end_date: '2027-03-01 13:00', categories: ['Jazz'], featured: true }));
    await create(calendar, eventInput({ title: 'Rock night', start_date: '2027-03-02 21:00', end_date: '2027-03-02 23:00', venue: venue.id }));
    await create(calendar, eventInput({ title: 'Draft jazz', status: 'draft', start_date: '2027-03-03 21:00', end_date: '2027-03-03 23:00' }));
    await create(calendar, eventInput({ title: 'Past jazz', start_date: '2026-01-03 21:00', end_date: '2026-01-03 23:00' }));
    const cases: Array<[Json, CallContext]> = [
      [{}, anon], [{}, ADMIN], [{ search: 'jazz' }, anon], [{ search: 'jazz' }, ADMIN], [{ categories: 'jazz' }, anon],
      [{ venue: venue.id }, anon], [{ featured: true }, anon], [{ start_date: '2026-01-01' }, anon], [{ status: 'draft' }, ADMIN],
    ];
    for (const [input, ctx] of cases) {
      const expected = (await jsonList(calendar, input, ctx)).map(uid);
      const feed = await readFeed(calendar.events.feed(input, ctx));
      expect(feed.events.map((e) => e.getFirstPropertyValue('uid')), JSON.stringify(input)).toEqual(expected);
      expect(feed.total).toBe(expected.length);
    }
    const drafts = await readFeed(calendar.events.feed({ status: 'draft' }, ADMIN));
    expect(drafts.events[0]!.getFirstPropertyValue('status')).toBe('TENTATIVE');
    await refusal(calendar.events.feed({ status: 'draft' }, anon), 'invalid_params');
  });

  it('is built from the query of GET /events without its paging, before anything is read', async () => {
    const calendar = calendarFor();
    const feed = await calendar.events.feed({ search: 'Jazz Café', page: 3, per_page: 2 }, anon);
    expect(feed.query).not.toHaveProperty('limit');
    expect(feed.query).not.toHaveProperty('offset');
    expect(feed.query).toMatchObject({ statuses: ['publish'], excludeHidden: true, search: ['jazz', 'cafe'] });
    expect(feed.maxEvents).toBe(10_000);
    // The key of a validator: the same arguments give the same key, others (a password) another.
    expect(JSON.stringify((await calendar.events.feed({ search: 'Jazz Café' }, anon)).key)).toBe(JSON.stringify(feed.key));
    expect(JSON.stringify((await calendar.events.feed({ search: 'Jazz Café', password: 'x' }, anon)).key)).not.toBe(JSON.stringify(feed.key));
  });
});

describe('the cap', () => {
  /** `count` published events, one an hour from 2027-01-01, loaded as a dataset. */
  async function seeded(count: number, maxEvents: number): Promise<Calendar> {
    const calendar = calendarFor({ ical: { maxEvents } });
    const hour = (i: number) => new Date(Date.UTC(2027, 0, 1, i)).toISOString().slice(0, 19).replace('T', ' ');
    await calendar.importDataset({
      events: Array.from({ length: count }, (_, i) => ({
        id: i + 1, title: `Event ${i + 1}`, status: 'publish', timezone: 'UTC', start_date: hour(i), end_date: hour(i + 1),
      })),
    });
    return calendar;
  }

  it('walks every page up to the cap, in list order, and says it was cut', async () => {
    const calendar = await seeded(620, 600);
    const feed = await readFeed(calendar.events.feed({}, anon));
    expect(feed).toMatchObject({ total: 620, count: 600, truncated: true });
    const listed: string[] = [];
    for (let page = 1; page <= 12; page++) listed.push(...(await jsonList(calendar, { page }, anon)).map(uid));
    expect(feed.events.map((e) => e.getFirstPropertyValue('uid'))).toEqual(listed);
  });

  it('is not cut when every event fits, and a single-event feed carries its one event', async () => {
    const calendar = await seeded(300, 300);
    const feed = await readFeed(calendar.events.feed({}, anon));
    expect(feed).toMatchObject({ total: 300, count: 300, truncated: false });
    expect(new Set(feed.events.map((e) => e.getFirstPropertyValue('uid'))).size).toBe(300);
    const one = await readFeed(calendar.events.feedOne({ id: 7 }, anon));
    expect(one).toMatchObject({ total: 1, count: 1, truncated: false });
    expect(one.events.map((e) => e.getFirstPropertyValue('uid'))).toEqual(['7@cal.example.com']);
  });

  it('refuses a cap that is not a positive integer', () => {
    expect(() => calendarFor({ ical: { maxEvents: 0 } })).toThrow(/ical\.maxEvents/);
  });
});

describe('UID, SEQUENCE and stamps', () => {
  it('keeps the UID when an event is rescheduled, and raises SEQUENCE and LAST-MODIFIED', async () => {
    let now = NOW;
    const calendar = calendarFor({ now: () => now });
    const event = await create(calendar, { title: 'Gig', start_date: '2027-02-01 21:00:00', end_date: '2027-02-01 23:00:00' });
    const before = byUid((await readFeed(calendar.events.feed(WIDE, ADMIN))).events, uid(event));
    now += 90_000;
    await calendar.events.patch({ id: event.id, start_date: '2027-02-08 21:00:00', end_date: '2027-02-08 23:00:00' }, ADMIN);
    const after = byUid((await readFeed(calendar.events.feed(WIDE, ADMIN))).events, uid(event));
    expect(Number(after.getFirstPropertyValue('sequence'))).toBeGreaterThan(Number(before.getFirstPropertyValue('sequence')));
    const stamp = (v: typeof before, name: string) => (v.getFirstPropertyValue(name) as { toJSDate(): Date }).toJSDate().getTime();
    expect(stamp(after, 'last-modified')).toBe(stamp(before, 'last-modified') + 90_000);
    expect(stamp(after, 'dtstamp')).toBe(stamp(after, 'last-modified'));
    expect(instantOf(after, 'dtstart') - instantOf(before, 'dtstart')).toBe(7 * 86_400_000);
  });

  it('writes the reference\'s UIDs on request, which change with the times', async () => {
    const calendar = calendarFor({ ical: { uid: 'reference' } });
    const event = await create(calendar, { title: 'Gig', start_date: '2027-02-01 21:00:00', end_date: '2027-02-01 23:00:00' });
    const feed = await readFeed(calendar.events.feed(WIDE, ADMIN));
    const start = jsonInstant(event.utc_start_date) / 1000;
    expect(feed.events[0]!.getFirstPropertyValue('uid')).toBe(`${event.id as number}-${start}-${start + 7200}@cal.example.com`);
  });

  it('is the same bytes on every read while nothing changes, whatever the process time zone', async () => {
    const calendar = calendarFor();
    await create(calendar, { title: 'Rome', start_date: '2027-03-28 01:30:00', end_date: '2027-03-28 04:00:00' });
    await create(calendar, { title: 'Fair', start_date: '2027-01-09', end_date: '2027-01-10', all_day: true });
    await create(calendar, { title: 'UTC', start_date: '2027-01-09 10:00', end_date: '2027-01-09 11:00', timezone: 'UTC' });
    const original = process.env.TZ;
    const texts: string[] = [];
    const offsets: number[] = [];
    try {
      for (const tz of ['Pacific/Kiritimati', 'America/Los_Angeles', 'Europe/Rome']) {
        process.env.TZ = tz;
        offsets.push(new Date(Date.UTC(2027, 0, 1)).getTimezoneOffset());
        texts.push((await readFeed(calendar.events.feed(WIDE, ADMIN))).text);
      }
    } finally {
      if (original === undefined) delete process.env.TZ;
      else process.env.TZ = original;
    }
    // The process really was in each zone (Node applies TZ as it is set).
    expect(offsets).toEqual([-840, 480, -60]);
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
  });
});

describe('the calendar\'s own properties', () => {
  it('names the calendar (translatable) and how often to refresh, with no X-WR-TIMEZONE', async () => {
    const feed = await readFeed(calendarFor().events.feed({}, anon));
    expect(feed.text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:[^\r]+\r\nCALSCALE:GREGORIAN\r\n/);
    expect(feed.text).toContain('\r\nX-WR-CALNAME:Events of cal.example.com\r\n');
    // Every time is a date, zoned or UTC: no floating time for X-WR-TIMEZONE to place (docs/icalendar.md).
    expect(feed.text).not.toContain('X-WR-TIMEZONE');
    expect(feed.text).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT60M\r\n');
    expect(feed.text.endsWith('END:VCALENDAR\r\n')).toBe(true);

    const named = await readFeed(calendarFor({ ical: { name: 'Jazz Club, Rome', refreshMinutes: 15 } }).events.feed({}, anon, {
      translate: (m) => `Veranstaltungen von ${m.values.calendar}`,
    }));
    expect(named.text).toContain('\r\nX-WR-CALNAME:Veranstaltungen von Jazz Club\\, Rome\r\n');
    expect(named.text).toContain('\r\nX-PUBLISHED-TTL:PT15M\r\n');
  });
});

describe('single-event feeds', () => {
  it('check the event as a single read does, by id or by slug', async () => {
    const calendar = calendarFor();
    const event = await create(calendar, { title: 'Gig', start_date: '2027-02-01 21:00:00', end_date: '2027-02-01 23:00:00' });
    const draft = await create(calendar, { title: 'Draft', status: 'draft', start_date: '2027-02-01 21:00:00', end_date: '2027-02-01 23:00:00' });
    const bySlug = await readFeed(calendar.events.feedOne({ slug: event.slug }, anon, { by: 'slug' }));
    expect(bySlug.events.map((e) => e.getFirstPropertyValue('uid'))).toEqual([uid(event)]);
    await refusal(calendar.events.feedOne({ id: 999_999 }, anon), 'event_not_found');
    await refusal(calendar.events.feedOne({ id: draft.id }, anon), 'event_not_accessible');
    expect((await readFeed(calendar.events.feedOne({ id: draft.id }, ADMIN))).events).toHaveLength(1);
    await calendar.events.delete({ id: event.id }, ADMIN);
    await refusal(calendar.events.feedOne({ id: event.id }, anon), 'event_trashed');
  });
});
