import { describe, expect, it } from 'vitest';
import type { ParsedTime, TimeFrame } from './php-time';
import { parsePhpTime } from './php-time';
import { formatWall } from './wall-clock';

/** Sunday 2026-11-22 06:30:00 UTC. */
const SUNDAY = Date.UTC(2026, 10, 22, 6, 30, 0);
/** Wednesday 2026-11-25 15:00:00 UTC. */
const WEDNESDAY = Date.UTC(2026, 10, 25, 15, 0, 0);
/** Saturday 2026-10-31 23:00 in New York (EDT), the night before the fall-back change. */
const FALL_BACK_EVE = Date.UTC(2026, 10, 1, 3, 0, 0);

/** [text, wall "YYYY-MM-DD HH:MM:SS", frame, offset minutes, instant as ISO without millis]. */
type Row = readonly [text: string | number, wall: string, frame: TimeFrame, offset: number, epoch: string];

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const view = (r: ParsedTime | undefined) =>
  r && { wall: formatWall(r.wall), frame: r.frame, offset: r.offsetMinutes, epoch: iso(r.epochMs) };

function table(title: string, now: number | Date, timeZone: string, rows: readonly Row[]): void {
  describe(title, () => {
    it.each(rows)('%s', (text, wall, frame, offset, epoch) => {
      expect(view(parsePhpTime(text, { now, timeZone }))).toEqual({ wall, frame, offset, epoch });
    });
  });
}

table('absolute dates and times (UTC)', SUNDAY, 'UTC', [
  ['2026-09-12', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['2026-9-2', '2026-09-02 00:00:00', 'local', 0, '2026-09-02T00:00:00Z'],
  ['2026/09/12', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['2026-09', '2026-09-01 00:00:00', 'local', 0, '2026-09-01T00:00:00Z'],
  ['2026-09-12T20:00:00.123', '2026-09-12 20:00:00', 'local', 0, '2026-09-12T20:00:00Z'],
  ['2026-09-12 8pm', '2026-09-12 20:00:00', 'local', 0, '2026-09-12T20:00:00Z'],
  ['2018-01-01 4pm', '2018-01-01 16:00:00', 'local', 0, '2018-01-01T16:00:00Z'],
  ['09/12/2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['9/12/26', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['09/12/75', '1975-09-12 00:00:00', 'local', 0, '1975-09-12T00:00:00Z'],
  ['09/12', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['12-09-2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['12.09.2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['25.12.26', '2026-12-25 00:00:00', 'local', 0, '2026-12-25T00:00:00Z'],
  // As in PHP, a dotted triple that can be a time is one.
  ['12.09.26', '2026-11-22 12:09:26', 'local', 0, '2026-11-22T12:09:26Z'],
  ['12 September 2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['12 Sep 2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['12 sept 2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['12-Sep-2026 20:00', '2026-09-12 20:00:00', 'local', 0, '2026-09-12T20:00:00Z'],
  ['September 12, 2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['Sept 12th, 2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['Sep 12 2026', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['Sep 12 2026 8pm', '2026-09-12 20:00:00', 'local', 0, '2026-09-12T20:00:00Z'],
  ['September 2026', '2026-09-01 00:00:00', 'local', 0, '2026-09-01T00:00:00Z'],
  ['2026 September', '2026-09-01 00:00:00', 'local', 0, '2026-09-01T00:00:00Z'],
  ['12 September', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['September 12', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['September 12 9:15', '2026-09-12 09:15:00', 'local', 0, '2026-09-12T09:15:00Z'],
  ['Sat, 12 Sep 2026 20:00:00 +0000', '2026-09-12 20:00:00', 'offset', 0, '2026-09-12T20:00:00Z'],
  ['20260912', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
  ['20260912203000', '2026-09-12 20:30:00', 'local', 0, '2026-09-12T20:30:00Z'],
  ['20260912T203000', '2026-09-12 20:30:00', 'local', 0, '2026-09-12T20:30:00Z'],
  ['  SEPTEMBER   12,   2026  ', '2026-09-12 00:00:00', 'local', 0, '2026-09-12T00:00:00Z'],
]);

table('times of today (UTC, Sunday)', SUNDAY, 'UTC', [
  ['20:00', '2026-11-22 20:00:00', 'local', 0, '2026-11-22T20:00:00Z'],
  ['20:00:05', '2026-11-22 20:00:05', 'local', 0, '2026-11-22T20:00:05Z'],
  ['8:30', '2026-11-22 08:30:00', 'local', 0, '2026-11-22T08:30:00Z'],
  ['8pm', '2026-11-22 20:00:00', 'local', 0, '2026-11-22T20:00:00Z'],
  ['8 pm', '2026-11-22 20:00:00', 'local', 0, '2026-11-22T20:00:00Z'],
  ['8:30pm', '2026-11-22 20:30:00', 'local', 0, '2026-11-22T20:30:00Z'],
  ['8:30 p.m.', '2026-11-22 20:30:00', 'local', 0, '2026-11-22T20:30:00Z'],
  ['8:30 AM', '2026-11-22 08:30:00', 'local', 0, '2026-11-22T08:30:00Z'],
  ['12am', '2026-11-22 00:00:00', 'local', 0, '2026-11-22T00:00:00Z'],
  ['12pm', '2026-11-22 12:00:00', 'local', 0, '2026-11-22T12:00:00Z'],
  ['noon', '2026-11-22 12:00:00', 'local', 0, '2026-11-22T12:00:00Z'],
  ['midnight', '2026-11-22 00:00:00', 'local', 0, '2026-11-22T00:00:00Z'],
  ['T20:00', '2026-11-22 20:00:00', 'local', 0, '2026-11-22T20:00:00Z'],
]);

table('explicit offsets and zones (evaluated in New York)', SUNDAY, 'America/New_York', [
  ['2026-09-12T20:00:00Z', '2026-09-12 20:00:00', 'offset', 0, '2026-09-12T20:00:00Z'],
  ['2026-09-12T20:00:00.5+02:00', '2026-09-12 20:00:00', 'offset', 120, '2026-09-12T18:00:00Z'],
  ['2026-09-12 20:00 +0200', '2026-09-12 20:00:00', 'offset', 120, '2026-09-12T18:00:00Z'],
  ['2026-09-12 20:00+02', '2026-09-12 20:00:00', 'offset', 120, '2026-09-12T18:00:00Z'],
  ['2026-09-12 20:00 -05:30', '2026-09-12 20:00:00', 'offset', -330, '2026-09-13T01:30:00Z'],
  ['2026-09-12 20:00 UTC', '2026-09-12 20:00:00', 'offset', 0, '2026-09-12T20:00:00Z'],
  ['2026-09-12 20:00 GMT', '2026-09-12 20:00:00', 'offset', 0, '2026-09-12T20:00:00Z'],
  ['2026-09-12 20:00 GMT+2', '2026-09-12 20:00:00', 'offset', 120, '2026-09-12T18:00:00Z'],
  ['2026-09-12 20:00 EST', '2026-09-12 20:00:00', 'offset', -300, '2026-09-13T01:00:00Z'],
  ['2026-09-12 20:00 edt', '2026-09-12 20:00:00', 'offset', -240, '2026-09-13T00:00:00Z'],
  ['2026-09-12 20:00 PST', '2026-09-12 20:00:00', 'offset', -480, '2026-09-13T04:00:00Z'],
  ['2026-09-12 20:00 CEST', '2026-09-12 20:00:00', 'offset', 120, '2026-09-12T18:00:00Z'],
  ['2026-09-12 20:00 AEST', '2026-09-12 20:00:00', 'offset', 600, '2026-09-12T10:00:00Z'],
  ['2026-09-12 20:00 JST', '2026-09-12 20:00:00', 'offset', 540, '2026-09-12T11:00:00Z'],
  ['2026-09-12 20:00 Europe/Rome', '2026-09-12 20:00:00', 'offset', 120, '2026-09-12T18:00:00Z'],
  ['2026-01-12 20:00 Europe/Rome', '2026-01-12 20:00:00', 'offset', 60, '2026-01-12T19:00:00Z'],
  ['2026-09-12 20:00 Australia/Sydney', '2026-09-12 20:00:00', 'offset', 600, '2026-09-12T10:00:00Z'],
  // Relative parts are evaluated in the zone the text names, not in the evaluation zone.
  ['tomorrow UTC', '2026-11-23 00:00:00', 'offset', 0, '2026-11-23T00:00:00Z'],
  ['tomorrow 9am Europe/Rome', '2026-11-23 09:00:00', 'offset', 60, '2026-11-23T08:00:00Z'],
  ['now Australia/Sydney', '2026-11-22 17:30:00', 'offset', 660, '2026-11-22T06:30:00Z'],
]);

table('relative expressions (UTC, Sunday 06:30)', SUNDAY, 'UTC', [
  ['now', '2026-11-22 06:30:00', 'local', 0, '2026-11-22T06:30:00Z'],
  ['today', '2026-11-22 00:00:00', 'local', 0, '2026-11-22T00:00:00Z'],
  ['tomorrow', '2026-11-23 00:00:00', 'local', 0, '2026-11-23T00:00:00Z'],
  ['yesterday', '2026-11-21 00:00:00', 'local', 0, '2026-11-21T00:00:00Z'],
  ['sunday', '2026-11-22 00:00:00', 'local', 0, '2026-11-22T00:00:00Z'],
  ['this sunday', '2026-11-22 00:00:00', 'local', 0, '2026-11-22T00:00:00Z'],
  ['next sunday', '2026-11-29 00:00:00', 'local', 0, '2026-11-29T00:00:00Z'],
  ['last sunday', '2026-11-15 00:00:00', 'local', 0, '2026-11-15T00:00:00Z'],
  ['monday', '2026-11-23 00:00:00', 'local', 0, '2026-11-23T00:00:00Z'],
  ['Wed', '2026-11-25 00:00:00', 'local', 0, '2026-11-25T00:00:00Z'],
  ['next wednesday', '2026-11-25 00:00:00', 'local', 0, '2026-11-25T00:00:00Z'],
  ['last wednesday', '2026-11-18 00:00:00', 'local', 0, '2026-11-18T00:00:00Z'],
  ['+1 week', '2026-11-29 06:30:00', 'local', 0, '2026-11-29T06:30:00Z'],
  ['-2 days', '2026-11-20 06:30:00', 'local', 0, '2026-11-20T06:30:00Z'],
  ['3 days', '2026-11-25 06:30:00', 'local', 0, '2026-11-25T06:30:00Z'],
  ['+1 week 2 days', '2026-12-01 06:30:00', 'local', 0, '2026-12-01T06:30:00Z'],
  ['+2 hours', '2026-11-22 08:30:00', 'local', 0, '2026-11-22T08:30:00Z'],
  ['+30 minutes', '2026-11-22 07:00:00', 'local', 0, '2026-11-22T07:00:00Z'],
  ['+90 secs', '2026-11-22 06:31:30', 'local', 0, '2026-11-22T06:31:30Z'],
  ['+1 fortnight', '2026-12-06 06:30:00', 'local', 0, '2026-12-06T06:30:00Z'],
  ['+1 month', '2026-12-22 06:30:00', 'local', 0, '2026-12-22T06:30:00Z'],
  ['-1 year', '2025-11-22 06:30:00', 'local', 0, '2025-11-22T06:30:00Z'],
  ['1 day ago', '2026-11-21 06:30:00', 'local', 0, '2026-11-21T06:30:00Z'],
  ['2 weeks 3 days ago', '2026-11-05 06:30:00', 'local', 0, '2026-11-05T06:30:00Z'],
  ['+3 weekdays', '2026-11-25 06:30:00', 'local', 0, '2026-11-25T06:30:00Z'],
  ['+5 weekdays', '2026-11-27 06:30:00', 'local', 0, '2026-11-27T06:30:00Z'],
  ['next month', '2026-12-22 06:30:00', 'local', 0, '2026-12-22T06:30:00Z'],
  ['last year', '2025-11-22 06:30:00', 'local', 0, '2025-11-22T06:30:00Z'],
  ['next day', '2026-11-23 06:30:00', 'local', 0, '2026-11-23T06:30:00Z'],
  ['last day', '2026-11-21 06:30:00', 'local', 0, '2026-11-21T06:30:00Z'],
  ['next hour', '2026-11-22 07:30:00', 'local', 0, '2026-11-22T07:30:00Z'],
  // PHP's weeks run Monday to Sunday: "next week" is Monday of next week (time kept), and a
  // Sunday belongs to the week that began the Monday before.
  ['next week', '2026-11-23 06:30:00', 'local', 0, '2026-11-23T06:30:00Z'],
  ['this week', '2026-11-16 06:30:00', 'local', 0, '2026-11-16T06:30:00Z'],
  ['last week', '2026-11-09 06:30:00', 'local', 0, '2026-11-09T06:30:00Z'],
  ['monday next week', '2026-11-23 00:00:00', 'local', 0, '2026-11-23T00:00:00Z'],
  ['friday next week', '2026-11-27 00:00:00', 'local', 0, '2026-11-27T00:00:00Z'],
  ['sunday this week', '2026-11-22 00:00:00', 'local', 0, '2026-11-22T00:00:00Z'],
  ['first day of next month', '2026-12-01 06:30:00', 'local', 0, '2026-12-01T06:30:00Z'],
  ['last day of next month', '2026-12-31 06:30:00', 'local', 0, '2026-12-31T06:30:00Z'],
  ['first day of this month', '2026-11-01 06:30:00', 'local', 0, '2026-11-01T06:30:00Z'],
  ['last day of last month', '2026-10-31 06:30:00', 'local', 0, '2026-10-31T06:30:00Z'],
  ['first day of january 2027', '2027-01-01 00:00:00', 'local', 0, '2027-01-01T00:00:00Z'],
  ['last day of february', '2026-02-28 00:00:00', 'local', 0, '2026-02-28T00:00:00Z'],
  ['first day of next month midnight', '2026-12-01 00:00:00', 'local', 0, '2026-12-01T00:00:00Z'],
  ['first monday of next month', '2026-12-07 00:00:00', 'local', 0, '2026-12-07T00:00:00Z'],
  ['second tuesday of december 2026', '2026-12-08 00:00:00', 'local', 0, '2026-12-08T00:00:00Z'],
  ['last friday of january 2027', '2027-01-29 00:00:00', 'local', 0, '2027-01-29T00:00:00Z'],
]);

table('combinations (UTC, Sunday 06:30)', SUNDAY, 'UTC', [
  ['tomorrow 9am', '2026-11-23 09:00:00', 'local', 0, '2026-11-23T09:00:00Z'],
  ['tomorrow 11am', '2026-11-23 11:00:00', 'local', 0, '2026-11-23T11:00:00Z'],
  ['tomorrow noon', '2026-11-23 12:00:00', 'local', 0, '2026-11-23T12:00:00Z'],
  ['yesterday 14:00', '2026-11-21 14:00:00', 'local', 0, '2026-11-21T14:00:00Z'],
  ['next wednesday 4pm', '2026-11-25 16:00:00', 'local', 0, '2026-11-25T16:00:00Z'],
  ['next wednesday 5pm', '2026-11-25 17:00:00', 'local', 0, '2026-11-25T17:00:00Z'],
  ['+2 days 9am', '2026-11-24 09:00:00', 'local', 0, '2026-11-24T09:00:00Z'],
  ['today 14:00', '2026-11-22 14:00:00', 'local', 0, '2026-11-22T14:00:00Z'],
  ['2026-09-12 +1 day', '2026-09-13 00:00:00', 'local', 0, '2026-09-13T00:00:00Z'],
  ['+1 day 2026-09-12', '2026-09-13 00:00:00', 'local', 0, '2026-09-13T00:00:00Z'],
  ['2026-09-12 20:00 +2 hours', '2026-09-12 22:00:00', 'local', 0, '2026-09-12T22:00:00Z'],
  ['now + 1 day', '2026-11-23 06:30:00', 'local', 0, '2026-11-23T06:30:00Z'],
  ['  TOMORROW   9AM  ', '2026-11-23 09:00:00', 'local', 0, '2026-11-23T09:00:00Z'],
  // PHP: today/tomorrow/weekday names reset a time read before them ("9am tomorrow" is midnight).
  ['9am tomorrow', '2026-11-23 00:00:00', 'local', 0, '2026-11-23T00:00:00Z'],
  // PHP accepts the doubled word; "tomorrow" sets (does not add) one day.
  ['tomorrow tomorrow', '2026-11-23 00:00:00', 'local', 0, '2026-11-23T00:00:00Z'],
]);

table('PHP month arithmetic overflows instead of clamping', SUNDAY, 'UTC', [
  ['2027-01-31 +1 month', '2027-03-03 00:00:00', 'local', 0, '2027-03-03T00:00:00Z'],
  ['2028-01-31 +1 month', '2028-03-02 00:00:00', 'local', 0, '2028-03-02T00:00:00Z'],
  ['2026-03-31 -1 month', '2026-03-03 00:00:00', 'local', 0, '2026-03-03T00:00:00Z'],
  ['2027-01-31 first day of next month', '2027-02-01 00:00:00', 'local', 0, '2027-02-01T00:00:00Z'],
  ['2027-01-31 last day of next month', '2027-02-28 00:00:00', 'local', 0, '2027-02-28T00:00:00Z'],
]);

table('evaluated in New York (Sunday 01:30 EST)', SUNDAY, 'America/New_York', [
  ['now', '2026-11-22 01:30:00', 'local', -300, '2026-11-22T06:30:00Z'],
  ['20:00', '2026-11-22 20:00:00', 'local', -300, '2026-11-23T01:00:00Z'],
  ['tomorrow 9am', '2026-11-23 09:00:00', 'local', -300, '2026-11-23T14:00:00Z'],
  ['2026-09-12 20:00', '2026-09-12 20:00:00', 'local', -240, '2026-09-13T00:00:00Z'],
  ['1970-01-01 00:00:00', '1970-01-01 00:00:00', 'local', -300, '1970-01-01T05:00:00Z'],
]);

table('evaluated in Sydney (Sunday 17:30 AEDT)', SUNDAY, 'Australia/Sydney', [
  ['today', '2026-11-22 00:00:00', 'local', 660, '2026-11-21T13:00:00Z'],
  ['tomorrow 9am', '2026-11-23 09:00:00', 'local', 660, '2026-11-22T22:00:00Z'],
  ['2026-09-12T20:00:00', '2026-09-12 20:00:00', 'local', 600, '2026-09-12T10:00:00Z'],
  ['2026-10-04 02:30', '2026-10-04 03:30:00', 'local', 660, '2026-10-03T16:30:00Z'],
]);

table('evaluated in Rome (Sunday 07:30 CET)', SUNDAY, 'Europe/Rome', [
  ['2026-09-12 20:00:05', '2026-09-12 20:00:05', 'local', 120, '2026-09-12T18:00:05Z'],
  ['tomorrow', '2026-11-23 00:00:00', 'local', 60, '2026-11-22T23:00:00Z'],
  ['2026-03-29 02:30', '2026-03-29 03:30:00', 'local', 120, '2026-03-29T01:30:00Z'],
]);

table('evaluated in Juneau (still Saturday 21:30 AKST)', SUNDAY, 'America/Juneau', [
  ['today', '2026-11-21 00:00:00', 'local', -540, '2026-11-21T09:00:00Z'],
  ['tomorrow', '2026-11-22 00:00:00', 'local', -540, '2026-11-22T09:00:00Z'],
  ['monday', '2026-11-23 00:00:00', 'local', -540, '2026-11-23T09:00:00Z'],
  ['20:00', '2026-11-21 20:00:00', 'local', -540, '2026-11-22T05:00:00Z'],
  ['2026-07-04 12:00', '2026-07-04 12:00:00', 'local', -480, '2026-07-04T20:00:00Z'],
]);

table('evaluated in Reykjavik (Sunday 06:30 GMT)', new Date(SUNDAY), 'Atlantic/Reykjavik', [
  ['today', '2026-11-22 00:00:00', 'local', 0, '2026-11-22T00:00:00Z'],
  ['next month 8pm', '2026-12-22 20:00:00', 'local', 0, '2026-12-22T20:00:00Z'],
]);

table('across the New York fall-back night (Saturday 23:00 EDT)', FALL_BACK_EVE, 'America/New_York', [
  ['now', '2026-10-31 23:00:00', 'local', -240, '2026-11-01T03:00:00Z'],
  ['tomorrow', '2026-11-01 00:00:00', 'local', -240, '2026-11-01T04:00:00Z'],
  ['tomorrow 9am', '2026-11-01 09:00:00', 'local', -300, '2026-11-01T14:00:00Z'],
  // A day keeps the wall clock (25 hours here); 24 hours are 24 hours.
  ['+1 day', '2026-11-01 23:00:00', 'local', -300, '2026-11-02T04:00:00Z'],
  ['+24 hours', '2026-11-01 22:00:00', 'local', -300, '2026-11-02T03:00:00Z'],
  // Ambiguous: the earlier instant. Non-existent: moved forward by the gap.
  ['2026-11-01 01:30', '2026-11-01 01:30:00', 'local', -240, '2026-11-01T05:30:00Z'],
  ['2026-03-08 02:30', '2026-03-08 03:30:00', 'local', -240, '2026-03-08T07:30:00Z'],
]);

table('on a Wednesday (UTC, 15:00)', WEDNESDAY, 'UTC', [
  ['wednesday', '2026-11-25 00:00:00', 'local', 0, '2026-11-25T00:00:00Z'],
  ['wed', '2026-11-25 00:00:00', 'local', 0, '2026-11-25T00:00:00Z'],
  ['this wednesday', '2026-11-25 00:00:00', 'local', 0, '2026-11-25T00:00:00Z'],
  ['next wednesday', '2026-12-02 00:00:00', 'local', 0, '2026-12-02T00:00:00Z'],
  ['next wednesday 5pm', '2026-12-02 17:00:00', 'local', 0, '2026-12-02T17:00:00Z'],
  ['last wednesday', '2026-11-18 00:00:00', 'local', 0, '2026-11-18T00:00:00Z'],
  ['thursday', '2026-11-26 00:00:00', 'local', 0, '2026-11-26T00:00:00Z'],
  ['next thursday', '2026-11-26 00:00:00', 'local', 0, '2026-11-26T00:00:00Z'],
  ['tuesday', '2026-12-01 00:00:00', 'local', 0, '2026-12-01T00:00:00Z'],
  ['last tuesday', '2026-11-24 00:00:00', 'local', 0, '2026-11-24T00:00:00Z'],
  ['monday next week', '2026-11-30 00:00:00', 'local', 0, '2026-11-30T00:00:00Z'],
  ['next week', '2026-11-30 15:00:00', 'local', 0, '2026-11-30T15:00:00Z'],
  ['+3 weekdays', '2026-11-30 15:00:00', 'local', 0, '2026-11-30T15:00:00Z'],
]);

table('on a Wednesday in Sydney (already Thursday 02:00 AEDT)', WEDNESDAY, 'Australia/Sydney', [
  ['wednesday', '2026-12-02 00:00:00', 'local', 660, '2026-12-01T13:00:00Z'],
  ['thursday', '2026-11-26 00:00:00', 'local', 660, '2026-11-25T13:00:00Z'],
]);

table('Unix timestamps', SUNDAY, 'Europe/Rome', [
  [1757700000, '2025-09-12 18:00:00', 'timestamp', 0, '2025-09-12T18:00:00Z'],
  ['1757700000', '2025-09-12 18:00:00', 'timestamp', 0, '2025-09-12T18:00:00Z'],
  [' 1757700000 ', '2025-09-12 18:00:00', 'timestamp', 0, '2025-09-12T18:00:00Z'],
  ['@1757700000', '2025-09-12 18:00:00', 'timestamp', 0, '2025-09-12T18:00:00Z'],
  ['@1757700000 +1 day', '2025-09-13 18:00:00', 'timestamp', 0, '2025-09-13T18:00:00Z'],
  [-5, '1969-12-31 23:59:55', 'timestamp', 0, '1969-12-31T23:59:55Z'],
  ['-5', '1969-12-31 23:59:55', 'timestamp', 0, '1969-12-31T23:59:55Z'],
  ['@-5', '1969-12-31 23:59:55', 'timestamp', 0, '1969-12-31T23:59:55Z'],
  [1.5, '1970-01-01 00:00:01', 'timestamp', 0, '1970-01-01T00:00:01Z'],
  ['1.5', '1970-01-01 00:00:01', 'timestamp', 0, '1970-01-01T00:00:01Z'],
  ['@1.5', '1970-01-01 00:00:01', 'timestamp', 0, '1970-01-01T00:00:01Z'],
  [-1.5, '1969-12-31 23:59:58', 'timestamp', 0, '1969-12-31T23:59:58Z'],
  // 8 digits that are not a date are a number.
  ['12345678', '1970-05-23 21:21:18', 'timestamp', 0, '1970-05-23T21:21:18Z'],
]);

describe('values that are not a time', () => {
  const rejected: readonly unknown[] = [
    '', '   ', 'foo', 'before my birthday', 'not a strtotime parsable string', '"after my birthday"',
    '2026-13-45', '2026-02-30', '2026-02-29', 'February 30', '31 April 2026', '2026-00-10',
    '2026-09-12 25:00', '2026-09-12 24:00', '2026-09-12 20:60', '13pm', '13/45/2026', '2026-09-12 foo',
    '20:00 21:00', '2026-09-12 2026-09-13', '2026-09-12 20:00 UTC EST', '2026-09-12 Mars/Olympus',
    '1970-01-01 00:00:00 UTC', '@0', 0, '0', '0.5', NaN, Infinity, null, undefined, true, {}, [],
    new Date(SUNDAY),
  ];
  it.each(rejected.map((value) => [value]))('%j', (value) => {
    expect(parsePhpTime(value, { now: SUNDAY, timeZone: 'UTC' })).toBeUndefined();
  });

  it('reads the epoch in UTC as false but in New York as a real instant', () => {
    expect(parsePhpTime('1970-01-01 00:00:00', { now: SUNDAY, timeZone: 'UTC' })).toBeUndefined();
    expect(parsePhpTime('1970-01-01 00:00:00', { now: SUNDAY, timeZone: 'America/New_York' })?.epochMs).toBe(18_000_000);
  });
});

describe('programmer errors', () => {
  it('throws a TypeError for an unknown evaluation zone', () => {
    expect(() => parsePhpTime('today', { now: SUNDAY, timeZone: 'Mars/Olympus' })).toThrow(TypeError);
  });

  it('throws a TypeError for an invalid now', () => {
    expect(() => parsePhpTime('today', { now: Number.NaN, timeZone: 'UTC' })).toThrow(TypeError);
    expect(() => parsePhpTime('today', { now: new Date(Number.NaN), timeZone: 'UTC' })).toThrow(TypeError);
  });
});
