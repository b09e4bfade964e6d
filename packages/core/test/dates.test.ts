// Dates on event writes (behaviour.md §8.1-§8.3, §4.1.2, §10.4): accepted formats, how a value
// is read in each write context, relative phrases, DST changes in several zones, all-day
// snapping, UTC copies, zone abbreviations, and an end before the start.
import { describe, expect, it } from 'vitest';
import { NOW, admin, as, eventInput, expectInvalid, makeCalendar, type Json } from './helpers';

/** Epoch seconds of a UTC date-time, for "@<timestamp>" inputs. */
const ts = (iso: string) => Date.parse(`${iso}Z`) / 1000;

/** Creates one event and returns it. */
async function create(input: Json, options: Parameters<typeof makeCalendar>[0] = {}): Promise<Json> {
  return (await makeCalendar(options).events.create(eventInput(input), as(admin))).value;
}

describe('accepted formats (§8.1)', () => {
  // Read as a wall clock in the event zone (America/New_York, the site zone); now is NOW.
  it.each<[string, string]>([
    ['2026-09-12', '2026-09-12 00:00:00'],
    ['2026-09-12 20:00', '2026-09-12 20:00:00'],
    ['2026-09-12 20:00:00', '2026-09-12 20:00:00'],
    ['2026-09-12T20:00:00', '2026-09-12 20:00:00'],
    ['2026-09-12 8pm', '2026-09-12 20:00:00'],
    ['2026/09/12', '2026-09-12 00:00:00'],
    ['09/12/2026', '2026-09-12 00:00:00'],
    ['12-09-2026', '2026-09-12 00:00:00'],
    ['12.09.2026', '2026-09-12 00:00:00'],
    ['12 September 2026', '2026-09-12 00:00:00'],
    ['September 12, 2026', '2026-09-12 00:00:00'],
    ['Sep 12 2026 8pm', '2026-09-12 20:00:00'],
    ['2026-09-12T20:00:00Z', '2026-09-12 20:00:00'],
    ['2026-09-12T20:00:00+02:00', '2026-09-12 20:00:00'],
    ['2026-09-12T20:00:00-0700', '2026-09-12 20:00:00'],
    ['Sat, 12 Sep 2026 20:00:00 +0000', '2026-09-12 20:00:00'],
    [`@${ts('2026-09-12T20:00:00')}`, '2026-09-12 20:00:00'],
    ['now', '2026-11-22 07:00:00'],
    ['today', '2026-11-22 00:00:00'],
    ['tomorrow 9am', '2026-11-23 09:00:00'],
    ['next wednesday 4pm', '2026-11-25 16:00:00'],
    ['+1 week', '2026-11-29 07:00:00'],
    ['last day of next month', '2026-12-31 07:00:00'],
  ])('start_date %j is stored as %s', async (input, local) => {
    const event = await create({ start_date: input, end_date: '2027-12-31 23:00:00' });
    expect(event.start_date).toBe(local);
  });

  // §8.1 rejected values, on each time field of an event write.
  it.each(['start_date', 'end_date', 'date', 'date_utc'])('%s: unparsable values are invalid_params', async (field) => {
    for (const value of ['', '   ', 'before my birthday', '2026-13-45', '1970-01-01 00:00:00 UTC']) {
      const calendar = makeCalendar();
      await expectInvalid(calendar.events.create(eventInput({ [field]: value }), as(admin)), field);
    }
  });
});

describe('interpretation by context (§8.2, §4.1.2)', () => {
  // Event start/end: a wall clock in the event zone; an offset's digits are kept and the offset
  // dropped; a timestamp gives its UTC digits. The UTC copies come from the local value and the zone.
  it.each<[string, string, string, string]>([
    ['naive, Europe/Rome', 'Europe/Rome', '2026-09-12 20:00:00', '2026-09-12 18:00:00'],
    ['naive, America/New_York', 'America/New_York', '2026-09-12 20:00:00', '2026-09-13 00:00:00'],
    ['Z offset, America/New_York', 'America/New_York', '2026-09-12T20:00:00Z', '2026-09-13 00:00:00'],
    ['+09:00 offset, Europe/Rome', 'Europe/Rome', '2026-09-12T20:00:00+09:00', '2026-09-12 18:00:00'],
    ['-05:00 offset, UTC', 'UTC', '2026-09-12T20:00:00-05:00', '2026-09-12 20:00:00'],
    ['timestamp, Europe/Rome', 'Europe/Rome', `@${ts('2026-09-12T20:00:00')}`, '2026-09-12 18:00:00'],
    ['naive, UTC+2', 'UTC+2', '2026-09-12 20:00:00', '2026-09-12 18:00:00'],
  ])('start_date %s', async (_name, timezone, input, utc) => {
    const event = await create({ timezone, start_date: input, end_date: '2026-09-13 23:00:00' });
    expect(event.start_date).toBe('2026-09-12 20:00:00');
    expect(event.utc_start_date).toBe(utc);
    expect(event.timezone).toBe(timezone);
  });

  // The publish date: `date` is a wall clock (offset ignored), `date_utc` is UTC (offset converted).
  it.each<[string, Json, string, string]>([
    ['date, naive', { date: '2026-11-10 10:00:00' }, '2026-11-10 10:00:00', '2026-11-10 15:00:00'],
    ['date, offset ignored', { date: '2026-11-10T10:00:00+05:00' }, '2026-11-10 10:00:00', '2026-11-10 15:00:00'],
    ['date_utc, naive', { date_utc: '2026-11-10 15:00:00' }, '2026-11-10 10:00:00', '2026-11-10 15:00:00'],
    ['date_utc, offset converted', { date_utc: '2026-11-10T17:00:00+02:00' }, '2026-11-10 10:00:00', '2026-11-10 15:00:00'],
    ['date_utc, timestamp', { date_utc: `@${ts('2026-11-10T15:00:00')}` }, '2026-11-10 10:00:00', '2026-11-10 15:00:00'],
  ])('event %s', async (_name, input, date, dateUtc) => {
    const event = await create(input);
    expect([event.date, event.date_utc]).toEqual([date, dateUtc]);
  });

  // Venue and organizer `date`: reformatted as written, read as the site-local publish date.
  it.each<['venues' | 'organizers', string, string, string]>([
    ['venues', '2026-11-10 10:00', '2026-11-10 10:00:00', '2026-11-10 15:00:00'],
    ['venues', 'November 10, 2026 10am', '2026-11-10 10:00:00', '2026-11-10 15:00:00'],
    ['organizers', '10.11.2026', '2026-11-10 00:00:00', '2026-11-10 05:00:00'],
    ['organizers', '2026-07-04 18:30:00', '2026-07-04 18:30:00', '2026-07-04 22:30:00'],
  ])('%s: date %j is stored as %s', async (kind, input, date, dateUtc) => {
    const calendar = makeCalendar();
    const body = kind === 'venues'
      ? (await calendar.venues.create({ venue: 'Hall', date: input }, as(admin))).value
      : (await calendar.organizers.create({ organizer: 'Org', date: input }, as(admin))).value;
    expect([body.date, body.date_utc]).toEqual([date, dateUtc]);
  });

  // §4.1.2: relative phrases are evaluated against now in the event zone.
  // now = 2026-11-22 03:00 UTC: 2026-11-21 22:00 in New York, 2026-11-22 04:00 in Rome.
  it.each<[string, string | undefined, string]>([
    ['tomorrow 9am', 'America/New_York', '2026-11-22 09:00:00'],
    ['tomorrow 9am', 'Europe/Rome', '2026-11-23 09:00:00'],
    ['tomorrow 9am', undefined, '2026-11-22 09:00:00'],
    ['today', 'America/New_York', '2026-11-21 00:00:00'],
    ['today', 'Europe/Rome', '2026-11-22 00:00:00'],
    ['now', 'America/New_York', '2026-11-21 22:00:00'],
    ['now', 'Europe/Rome', '2026-11-22 04:00:00'],
    ['now', 'Asia/Tokyo', '2026-11-22 12:00:00'],
    ['+2 hours', 'Europe/Rome', '2026-11-22 06:00:00'],
  ])('%j in %s is %s', async (phrase, timezone, local) => {
    const event = await create(
      { start_date: phrase, end_date: '2027-01-31 00:00:00', ...(timezone ? { timezone } : {}) },
      { now: () => Date.UTC(2026, 10, 22, 3, 0, 0) },
    );
    expect(event.start_date).toBe(local);
  });

  it('a relative phrase is read at call time (the injected clock)', async () => {
    let now = NOW;
    const calendar = makeCalendar({ now: () => now });
    const first = (await calendar.events.create(eventInput({ start_date: 'tomorrow 10am', end_date: '2027-01-31' }), as(admin))).value;
    now += 3 * 86_400_000;
    const second = (await calendar.events.create(eventInput({ start_date: 'tomorrow 10am', end_date: '2027-01-31' }), as(admin))).value;
    expect([first.start_date, second.start_date]).toEqual(['2026-11-23 10:00:00', '2026-11-26 10:00:00']);
  });
});

describe('time zones (§4.1.2, §8.3)', () => {
  // §8.3: events without a zone get the site zone string, UTC±N for offset-only sites.
  it.each<[string, Json, string, string, string]>([
    ['omitted, site America/New_York', {}, 'America/New_York', 'America/New_York', '2026-09-13 00:00:00'],
    ['empty, site America/New_York', { timezone: '' }, 'America/New_York', 'America/New_York', '2026-09-13 00:00:00'],
    ['omitted, site UTC+2', {}, 'UTC+2', 'UTC+2', '2026-09-12 18:00:00'],
    ['omitted, site UTC-5.5', {}, 'UTC-5.5', 'UTC-5.5', '2026-09-13 01:30:00'],
    ['omitted, site UTC', {}, 'UTC', 'UTC', '2026-09-12 20:00:00'],
    ['omitted, site Europe/Rome', {}, 'Europe/Rome', 'Europe/Rome', '2026-09-12 18:00:00'],
  ])('timezone %s', async (_name, input, site, zone, utc) => {
    const event = await create({ ...input, start_date: '2026-09-12 20:00:00', end_date: '2026-09-12 23:00:00' }, { timezone: site });
    expect(event.timezone).toBe(zone);
    expect(event.utc_start_date).toBe(utc);
  });

  // §4.1.2: identifiers, abbreviations, offsets and UTC-prefixed strings are accepted and stored as given.
  it.each<[string, string | undefined]>([
    ['Europe/Rome', '2026-09-12 18:00:00'],
    ['UTC', '2026-09-12 20:00:00'],
    ['EST', '2026-09-13 01:00:00'],
    ['+02:00', '2026-09-12 18:00:00'],
    ['-03:30', '2026-09-12 23:30:00'],
    ['UTC+2', '2026-09-12 18:00:00'],
    ['UTC-11', '2026-09-13 07:00:00'],
    ['UTCfoo', undefined],
  ])('timezone %j is accepted', async (timezone, utc) => {
    const event = await create({ timezone, start_date: '2026-09-12 20:00:00', end_date: '2026-09-12 23:00:00' });
    expect(event.timezone).toBe(timezone);
    if (utc) expect(event.utc_start_date).toBe(utc);
  });

  it.each(['Mars/Olympus', 'Europe/Rom', 'Europe/Nowhere', 'not a zone'])('timezone %j is invalid_params', async (timezone) => {
    const calendar = makeCalendar();
    await expectInvalid(calendar.events.create(eventInput({ timezone }), as(admin)), 'timezone');
  });

  // §1.2 timezone_abbr: computed from the start date; UTC±N zones give the zone string.
  it.each<[string, string, string]>([
    ['America/New_York', '2026-01-15 12:00:00', 'EST'],
    ['America/New_York', '2026-07-15 12:00:00', 'EDT'],
    ['Europe/Rome', '2026-01-15 12:00:00', 'CET'],
    ['Europe/Rome', '2026-07-15 12:00:00', 'CEST'],
    ['Europe/London', '2026-01-15 12:00:00', 'GMT'],
    ['Europe/London', '2026-07-15 12:00:00', 'BST'],
    ['Australia/Sydney', '2026-01-15 12:00:00', 'AEDT'],
    ['Australia/Sydney', '2026-07-15 12:00:00', 'AEST'],
    ['UTC', '2026-07-15 12:00:00', 'UTC'],
    ['UTC+2', '2026-07-15 12:00:00', 'UTC+2'],
    ['UTC-5.5', '2026-07-15 12:00:00', 'UTC-5.5'],
  ])('%s at %s is %s', async (timezone, start, abbr) => {
    const event = await create({ timezone, start_date: start, end_date: '2026-12-31 12:00:00' });
    expect(event.timezone_abbr).toBe(abbr);
  });

  it('the abbreviation follows the start date, not the end date, across a DST change', async () => {
    const event = await create({ timezone: 'America/New_York', start_date: '2026-10-31 12:00:00', end_date: '2026-11-02 12:00:00' });
    expect(event.timezone_abbr).toBe('EDT');
    const after = await create({ timezone: 'America/New_York', start_date: '2026-11-01 12:00:00', end_date: '2026-11-02 12:00:00' });
    expect(after.timezone_abbr).toBe('EST');
  });
});

describe('DST changeover days (§4.1.2 UTC copies)', () => {
  // Local wall clocks on the changeover days, and their UTC copies and abbreviations.
  it.each<[string, string, string, string]>([
    // New York springs forward on 2026-03-08 at 02:00 (EST -5 -> EDT -4).
    ['America/New_York', '2026-03-07 20:00:00', '2026-03-08 01:00:00', 'EST'],
    ['America/New_York', '2026-03-08 01:30:00', '2026-03-08 06:30:00', 'EST'],
    ['America/New_York', '2026-03-08 03:30:00', '2026-03-08 07:30:00', 'EDT'],
    ['America/New_York', '2026-03-08 23:00:00', '2026-03-09 03:00:00', 'EDT'],
    // New York falls back on 2026-11-01 at 02:00 (EDT -4 -> EST -5).
    ['America/New_York', '2026-11-01 00:30:00', '2026-11-01 04:30:00', 'EDT'],
    ['America/New_York', '2026-11-01 03:00:00', '2026-11-01 08:00:00', 'EST'],
    ['America/New_York', '2026-11-01 23:00:00', '2026-11-02 04:00:00', 'EST'],
    // Rome springs forward on 2026-03-29 at 02:00 (CET +1 -> CEST +2).
    ['Europe/Rome', '2026-03-29 01:30:00', '2026-03-29 00:30:00', 'CET'],
    ['Europe/Rome', '2026-03-29 03:30:00', '2026-03-29 01:30:00', 'CEST'],
    // Rome falls back on 2026-10-25 at 03:00 (CEST +2 -> CET +1).
    ['Europe/Rome', '2026-10-25 01:30:00', '2026-10-24 23:30:00', 'CEST'],
    ['Europe/Rome', '2026-10-25 03:30:00', '2026-10-25 02:30:00', 'CET'],
  ])('%s %s is %s UTC (%s)', async (timezone, local, utc, abbr) => {
    const event = await create({ timezone, start_date: local, end_date: '2026-12-31 00:00:00' });
    expect(event).toMatchObject({ start_date: local, utc_start_date: utc, timezone_abbr: abbr });
  });

  // An event spanning the change: the UTC copies keep each end's own offset.
  it.each<[string, [string, string], [string, string]]>([
    ['America/New_York', ['2026-03-08 00:00:00', '2026-03-08 06:00:00'], ['2026-03-08 05:00:00', '2026-03-08 10:00:00']],
    ['America/New_York', ['2026-11-01 00:00:00', '2026-11-01 06:00:00'], ['2026-11-01 04:00:00', '2026-11-01 11:00:00']],
    ['Europe/Rome', ['2026-03-28 22:00:00', '2026-03-29 10:00:00'], ['2026-03-28 21:00:00', '2026-03-29 08:00:00']],
    ['Europe/Rome', ['2026-10-24 22:00:00', '2026-10-25 10:00:00'], ['2026-10-24 20:00:00', '2026-10-25 09:00:00']],
  ])('%s event %j is %j in UTC', async (timezone, [start, end], [utcStart, utcEnd]) => {
    const event = await create({ timezone, start_date: start, end_date: end });
    expect(event).toMatchObject({ start_date: start, end_date: end, utc_start_date: utcStart, utc_end_date: utcEnd });
  });

  it('an event zone other than the site zone decides the UTC copies', async () => {
    const rome = await create({ timezone: 'Europe/Rome', start_date: '2026-10-25 03:30:00', end_date: '2026-10-25 04:00:00' }, { timezone: 'America/New_York' });
    const site = await create({ start_date: '2026-10-25 03:30:00', end_date: '2026-10-25 04:00:00' }, { timezone: 'Europe/Rome' });
    expect(rome.utc_start_date).toBe('2026-10-25 02:30:00');
    expect(site.utc_start_date).toBe('2026-10-25 02:30:00');
  });

  it('patching the zone across a DST boundary recomputes the UTC copies with the new zone', async () => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput({ timezone: 'Europe/Rome', start_date: '2026-03-29 03:30:00', end_date: '2026-03-29 04:30:00' }), as(admin))).value;
    const patched = (await calendar.events.patch({ id: event.id, timezone: 'America/New_York' }, as(admin))).value;
    expect(patched).toMatchObject({ start_date: '2026-03-29 03:30:00', utc_start_date: '2026-03-29 07:30:00', timezone_abbr: 'EDT' });
  });
});

describe('all-day events (§4.1.2 step 3)', () => {
  // Snapped to the first and last second of the local days; the given times are ignored.
  it.each<[string, string, string, [string, string], [string, string]]>([
    ['America/New_York', '2026-03-08 15:00', '2026-03-09 10:00', ['2026-03-08 00:00:00', '2026-03-09 23:59:59'], ['2026-03-08 05:00:00', '2026-03-10 03:59:59']],
    ['America/New_York', '2026-11-01', '2026-11-01', ['2026-11-01 00:00:00', '2026-11-01 23:59:59'], ['2026-11-01 04:00:00', '2026-11-02 04:59:59']],
    ['Europe/Rome', '2026-10-25 12:00', '2026-10-25 12:00', ['2026-10-25 00:00:00', '2026-10-25 23:59:59'], ['2026-10-24 22:00:00', '2026-10-25 22:59:59']],
    ['Europe/Rome', '2026-03-29', '2026-03-30 08:00', ['2026-03-29 00:00:00', '2026-03-30 23:59:59'], ['2026-03-28 23:00:00', '2026-03-30 21:59:59']],
    ['Asia/Tokyo', '2026-12-01 18:00', '2026-12-01 19:00', ['2026-12-01 00:00:00', '2026-12-01 23:59:59'], ['2026-11-30 15:00:00', '2026-12-01 14:59:59']],
    ['Europe/Rome', '2026-12-01T23:30:00-05:00', '2026-12-01T23:45:00-05:00', ['2026-12-01 00:00:00', '2026-12-01 23:59:59'], ['2026-11-30 23:00:00', '2026-12-01 22:59:59']],
  ])('%s: %s .. %s', async (timezone, start, end, local, utc) => {
    const event = await create({ timezone, all_day: true, start_date: start, end_date: end });
    expect(event.all_day).toBe(true);
    expect([event.start_date, event.end_date]).toEqual(local);
    expect([event.utc_start_date, event.utc_end_date]).toEqual(utc);
  });

  it('the flag reads back true from a single GET, with the snapped dates', async () => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput({ all_day: 'true', timezone: 'Europe/Rome' }), as(admin))).value;
    expect((await calendar.events.get({ id: event.id }, as(admin))).value).toMatchObject({
      all_day: true, start_date: '2026-12-01 00:00:00', end_date: '2026-12-01 23:59:59', utc_start_date: '2026-11-30 23:00:00',
    });
  });
});

describe('end before start (§10.4)', () => {
  // Compared as local wall clocks after the offset digits are kept (§8.2).
  it.each<[string, boolean, string, string]>([
    ['naive, end an hour earlier', false, '2026-09-12 20:00:00', '2026-09-12 19:00:00'],
    ['naive, end a minute later', true, '2026-09-12 20:00:00', '2026-09-12 20:01:00'],
    ['offsets, later instant but earlier digits', false, '2026-09-12T20:00:00+02:00', '2026-09-12T19:00:00Z'],
    ['offsets, earlier instant but later digits', true, '2026-09-12T20:00:00Z', '2026-09-12T21:00:00+05:00'],
    ['relative, end before start', false, 'tomorrow 9am', 'tomorrow 8am'],
    ['relative, end after start', true, 'tomorrow 9am', 'tomorrow 5pm'],
    ['different formats, end before start', false, '12 September 2026 8pm', '09/12/2026'],
  ])('%s (accepted: %s)', async (_name, accepted, start, end) => {
    const calendar = makeCalendar();
    const write = calendar.events.create(eventInput({ timezone: 'Europe/Rome', start_date: start, end_date: end }), as(admin));
    if (accepted) {
      const event = (await write).value;
      expect(event.utc_end_date as string >= (event.utc_start_date as string)).toBe(true);
    } else {
      await expectInvalid(write, 'end_date');
    }
  });
});
