// Reads the events of an iCalendar file: each VEVENT as an evcal event (wall clocks in a zone,
// the venue from LOCATION and GEO, organizer, categories), recurring ones set aside. Times
// keep the zone they are written in when it is an IANA zone (named by TZID, with or without
// a VTIMEZONE); a TZID that only its VTIMEZONE defines (Outlook's "W. Europe Standard Time")
// is converted to the instant by ical.js and kept in the site zone.
import ICAL from 'ical.js';
import { formatWall, isRealWall, wallFromEpochUtc, wallToEpochUtc, type WallClock } from '../time/wall-clock';
import { instantToWall, resolveZone, wallToInstant } from '../time/zone';
import { RecurrenceProblem, ruleParts } from '../recurrence/expand';
import { icsError, parseIcs, type ParsedIcs } from './ics-lines';

/** A VEVENT read as an event. */
export interface IcsEvent {
  /** The line of its BEGIN:VEVENT. */
  readonly line: number;
  readonly uid?: string;
  readonly title: string;
  /** Plain text. */
  readonly description: string;
  readonly allDay: boolean;
  /** The zone of `start` and `end`. */
  readonly timezone: string;
  /** Wall clocks "YYYY-MM-DD HH:MM:SS" (all-day: the first and the last day, at midnight). */
  readonly start: string;
  readonly end: string;
  readonly location?: { readonly name: string; readonly address: string; readonly lat?: number; readonly lng?: number };
  readonly organizer?: { readonly name: string; readonly email: string };
  readonly categories: readonly string[];
  readonly url?: string;
  /** A series: RRULE as written, RDATEs and EXDATEs as wall clocks in `timezone` (EXDATE dates as dates). */
  readonly recurrence?: { readonly rrule: string; readonly rdate: readonly string[]; readonly exdate: readonly string[] };
}

/** A VEVENT changing one occurrence of a series of the file (RECURRENCE-ID). */
export interface IcsOverride {
  readonly line: number;
  readonly uid: string;
  /** The start of the occurrence it changes, as a wall clock in the zone of the recurrence-id (the series' zone, once matched). */
  readonly recurrenceId: { readonly wall: string; readonly instant?: number; readonly date: boolean };
  /** The occurrence as the override has it; undefined when it cancels it (STATUS:CANCELLED). */
  readonly event?: IcsEvent;
}

/** A VEVENT not imported, and why. */
export interface IcsSkipped {
  readonly line: number;
  readonly uid?: string;
  readonly title: string;
  /**
   * `recurring`: a recurrence evcal does not keep (more often than daily) or a RECURRENCE-ID
   * without its series in the file; `cancelled`: STATUS:CANCELLED.
   */
  readonly reason: 'recurring' | 'cancelled';
}

export interface IcsContents {
  readonly events: readonly IcsEvent[];
  readonly overrides: readonly IcsOverride[];
  readonly skipped: readonly IcsSkipped[];
}

/**
 * The events of an iCalendar text. `siteZone` is the zone of floating times and all-day events
 * when the file names none (X-WR-TIMEZONE). Throws `invalid_ical` naming the line.
 */
export function readIcs(text: string, siteZone: string): IcsContents {
  const parsed = parseIcs(text);
  const events: IcsEvent[] = [];
  const overrides: IcsOverride[] = [];
  const skipped: IcsSkipped[] = [];
  for (const calendar of parsed.calendars) {
    const zones = new Map<string, ICAL.Component>();
    for (const vtz of calendar.getAllSubcomponents('vtimezone')) {
      const tzid = vtz.getFirstPropertyValue('tzid');
      if (typeof tzid !== 'string' || tzid === '') throw icsError(parsed.lineOf(vtz), 'VTIMEZONE without a TZID');
      zones.set(tzid, vtz);
    }
    const named = calendar.getFirstPropertyValue('x-wr-timezone');
    const fallback = typeof named === 'string' && resolveZone(named.trim()) ? named.trim() : siteZone;
    const context: Context = { parsed, zones, fallback };
    for (const vevent of calendar.getAllSubcomponents('vevent')) {
      const recurrenceId = vevent.getFirstProperty('recurrence-id');
      if (recurrenceId) {
        const read = readOverride(vevent, recurrenceId, context);
        if ('reason' in read) skipped.push(read);
        else overrides.push(read);
        continue;
      }
      const read = readEvent(vevent, context);
      if ('reason' in read) skipped.push(read);
      else events.push(read);
    }
  }
  // An override counts when its series is in the file and imported.
  const series = new Set(events.filter((e) => e.recurrence && e.uid).map((e) => e.uid));
  for (const o of overrides.filter((x) => !series.has(x.uid))) skipped.push({ line: o.line, uid: o.uid, title: o.event?.title ?? '(no title)', reason: 'recurring' });
  return { events, overrides: overrides.filter((x) => series.has(x.uid)), skipped };
}

// ---- helpers ----

interface Context {
  readonly parsed: ParsedIcs;
  readonly zones: ReadonlyMap<string, ICAL.Component>;
  /** The zone of floating times and all-day events. */
  readonly fallback: string;
}

/** A time as written: a date, a wall clock in a zone, or an instant (UTC, or a zone only a VTIMEZONE defines). */
type Moment =
  | { readonly kind: 'date'; readonly wall: WallClock }
  | { readonly kind: 'wall'; readonly wall: WallClock; readonly zone: string }
  | { readonly kind: 'instant'; readonly instant: number; readonly zone: string };

function readEvent(vevent: ICAL.Component, ctx: Context): IcsEvent | IcsSkipped {
  const line = ctx.parsed.lineOf(vevent);
  const text = (name: string) => {
    const value = vevent.getFirstPropertyValue(name);
    return typeof value === 'string' ? value : undefined;
  };
  const uid = text('uid')?.trim() || undefined;
  const title = text('summary')?.trim() || '(no title)';
  const id = { line, ...(uid ? { uid } : {}), title };
  if (text('status')?.trim().toUpperCase() === 'CANCELLED') return { ...id, reason: 'cancelled' };
  const rrules = vevent.getAllProperties('rrule');
  let rrule = '';
  if (rrules.length > 1) return { ...id, reason: 'recurring' };
  if (rrules.length === 1) {
    rrule = String(rrules[0]!.getFirstValue()).replace(/^RRULE:/i, '');
    try {
      ruleParts(rrule);
    } catch (error) {
      if (error instanceof RecurrenceProblem) return { ...id, reason: 'recurring' };
      throw error;
    }
  }

  const dtstart = vevent.getFirstProperty('dtstart');
  if (!dtstart) throw icsError(line, `VEVENT "${title}" has no DTSTART`);
  const start = readMoment(dtstart, ctx);
  const dtend = vevent.getFirstProperty('dtend');
  const duration = vevent.getFirstProperty('duration');
  const end = dtend ? readMoment(dtend, ctx) : duration ? addDuration(start, duration, ctx) : start;
  if ((start.kind === 'date') !== (end.kind === 'date')) {
    throw icsError(ctx.parsed.lineOf(dtend ?? dtstart), 'DTSTART and DTEND must both be dates or both be dates with times');
  }
  const times = start.kind === 'date' && end.kind === 'date' ? allDayTimes(start.wall, end.wall, ctx.fallback) : timedTimes(start, end);
  if (!times) throw icsError(ctx.parsed.lineOf(dtend ?? duration ?? dtstart), `VEVENT "${title}" ends before it starts`);

  const location = readLocation(vevent, ctx);
  const organizer = readOrganizer(vevent);
  const url = text('url')?.trim();
  const series = rrule !== '' || vevent.hasProperty('rdate')
    ? { rrule, rdate: extraDates(vevent, 'rdate', times.timezone, ctx), exdate: extraDates(vevent, 'exdate', times.timezone, ctx) }
    : undefined;
  return {
    ...id,
    ...(series ? { recurrence: series } : {}),
    description: text('description')?.trim() ?? '',
    ...times,
    ...(location ? { location } : {}),
    ...(organizer ? { organizer } : {}),
    categories: [...new Set(vevent.getAllProperties('categories').flatMap((p) => p.getValues().map((c) => String(c).trim())).filter(Boolean))],
    ...(url ? { url } : {}),
  };
}

/** A VEVENT with RECURRENCE-ID: the occurrence it changes, and how (a cancellation, or its own times and fields). */
function readOverride(vevent: ICAL.Component, prop: ICAL.Property, ctx: Context): IcsOverride | IcsSkipped {
  const line = ctx.parsed.lineOf(vevent);
  const uid = String(vevent.getFirstPropertyValue('uid') ?? '').trim();
  const summary = vevent.getFirstPropertyValue('summary');
  const title = typeof summary === 'string' && summary.trim() ? summary.trim() : '(no title)';
  if (!uid) return { line, title, reason: 'recurring' };
  const at = readMoment(prop, ctx);
  const recurrenceId = at.kind === 'date'
    ? { wall: formatWall(at.wall), date: true }
    : at.kind === 'wall' ? { wall: formatWall(at.wall), instant: wallToInstant(at.wall, resolveZone(at.zone)!), date: false }
      : { wall: formatWall(instantToWall(at.instant, resolveZone(at.zone)!)), instant: at.instant, date: false };
  const status = vevent.getFirstPropertyValue('status');
  if (typeof status === 'string' && status.trim().toUpperCase() === 'CANCELLED') return { line, uid, recurrenceId };
  const read = readEvent(vevent, ctx);
  if ('reason' in read) return read;
  return { line, uid, recurrenceId, event: read };
}

/** RDATE or EXDATE values as wall clocks in the event's zone (dates stay dates). */
function extraDates(vevent: ICAL.Component, name: 'rdate' | 'exdate', zoneName: string, ctx: Context): string[] {
  const zone = resolveZone(zoneName)!;
  const out: string[] = [];
  for (const prop of vevent.getAllProperties(name)) {
    const values = prop.jCal.slice(3);
    for (const raw of values) {
      if (typeof raw !== 'string') throw icsError(ctx.parsed.lineOf(prop), `${name.toUpperCase()} must list dates or dates and times (periods are not kept)`);
      const single = new ICAL.Property([prop.name, prop.jCal[1], prop.type, raw]);
      const m = readMoment(single, ctx, ctx.parsed.lineOf(prop));
      if (m.kind === 'date') out.push(name === 'exdate' ? formatWall(m.wall).slice(0, 10) : formatWall(m.wall));
      else if (m.kind === 'wall') out.push(formatWall(m.zone === zoneName ? m.wall : instantToWall(wallToInstant(m.wall, resolveZone(m.zone)!), zone)));
      else out.push(formatWall(instantToWall(m.instant, zone)));
    }
  }
  return out;
}

const DATE_VALUE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_VALUE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)$/;

/** DTSTART or DTEND as written. */
function readMoment(prop: ICAL.Property, ctx: Context, at?: number): Moment {
  const line = at ?? ctx.parsed.lineOf(prop);
  const name = prop.name.toUpperCase();
  const raw = prop.jCal[3];
  const m = typeof raw === 'string' ? (prop.type === 'date' ? DATE_VALUE : DATE_TIME_VALUE).exec(raw) : null;
  const wall = m && {
    year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0),
  };
  if (!m || !wall || !isRealWall(wall)) throw icsError(line, `${name} is not a valid date or date and time`);
  if (prop.type === 'date') return { kind: 'date', wall };
  if (m[7] === 'Z') return { kind: 'instant', instant: wallToEpochUtc(wall), zone: 'UTC' };
  const tzid = prop.getParameter('tzid');
  if (tzid === undefined || tzid === null || tzid === '') return { kind: 'wall', wall, zone: ctx.fallback };
  const zoneName = String(Array.isArray(tzid) ? tzid[0] : tzid).trim();
  const zone = ianaZoneOf(zoneName, ctx.zones.get(zoneName));
  if (zone) return { kind: 'wall', wall, zone };
  const vtz = ctx.zones.get(zoneName);
  if (!vtz) throw icsError(line, `unknown time zone "${zoneName}" in ${name}: neither an IANA zone nor defined by a VTIMEZONE`);
  const local = ICAL.Time.fromData({ ...wall, isDate: false });
  const offset = new ICAL.Timezone(vtz).utcOffset(local);
  return { kind: 'instant', instant: wallToEpochUtc(wall) - offset * 1000, zone: ctx.fallback };
}

/** The IANA zone a TZID names: itself, its VTIMEZONE's X-LIC-LOCATION, or the zone a prefixed TZID ends with (`/mozilla.org/…/Europe/Berlin`). */
function ianaZoneOf(tzid: string, vtz: ICAL.Component | undefined): string | undefined {
  const location = vtz?.getFirstPropertyValue('x-lic-location');
  const segments = tzid.split('/').filter(Boolean);
  const candidates = [tzid, typeof location === 'string' ? location.trim() : '', ...[3, 2, 1].map((n) => segments.slice(-n).join('/'))];
  return candidates.find((c) => c !== '' && resolveZone(c) !== undefined);
}

/** DTEND from DTSTART and DURATION: days as calendar days, the rest as elapsed time. */
function addDuration(start: Moment, prop: ICAL.Property, ctx: Context): Moment {
  const d = prop.getFirstValue() as ICAL.Duration;
  const sign = d.isNegative ? -1 : 1;
  const days = sign * ((d.weeks ?? 0) * 7 + (d.days ?? 0));
  const ms = sign * (((d.hours ?? 0) * 60 + (d.minutes ?? 0)) * 60 + (d.seconds ?? 0)) * 1000;
  if (![days, ms].every(Number.isFinite)) throw icsError(ctx.parsed.lineOf(prop), 'DURATION is not a valid duration');
  const shift = (w: WallClock) => wallFromEpochUtc(wallToEpochUtc(w) + days * 86_400_000);
  if (start.kind === 'date') return { kind: 'date', wall: shift(start.wall) };
  if (start.kind === 'instant') return { ...start, instant: start.instant + days * 86_400_000 + ms };
  return { kind: 'instant', instant: wallToInstant(shift(start.wall), resolveZone(start.zone)!) + ms, zone: start.zone };
}

/** An all-day event: DTEND is the day after the last one (absent or not later: one day). */
function allDayTimes(first: WallClock, endExclusive: WallClock, zone: string) {
  const startMs = wallToEpochUtc(first);
  const endMs = wallToEpochUtc(endExclusive);
  if (endMs < startMs) return undefined;
  const last = endMs === startMs ? first : wallFromEpochUtc(endMs - 86_400_000);
  return { allDay: true, timezone: zone, start: formatWall(first), end: formatWall(last) };
}

/** A timed event in the zone of its start; the end moved into that zone when written in another. */
function timedTimes(start: Moment, end: Moment) {
  if (start.kind === 'date' || end.kind === 'date') return undefined;
  const zone = resolveZone(start.zone)!;
  const startMs = start.kind === 'wall' ? wallToInstant(start.wall, zone) : start.instant;
  const endMs = end.kind === 'wall' ? wallToInstant(end.wall, resolveZone(end.zone)!) : end.instant;
  if (endMs < startMs) return undefined;
  const startWall = start.kind === 'wall' ? start.wall : instantToWall(start.instant, zone);
  const endWall = end.kind === 'wall' && end.zone === start.zone ? end.wall : instantToWall(endMs, zone);
  return { allDay: false, timezone: start.zone, start: formatWall(startWall), end: formatWall(endWall) };
}

/** The venue: LOCATION's first line as its name, the other lines as its address; GEO as its coordinates. */
function readLocation(vevent: ICAL.Component, ctx: Context): IcsEvent['location'] {
  const text = vevent.getFirstPropertyValue('location');
  const lines = typeof text === 'string' ? text.split(/\r\n|\n|\r/).map((l) => l.trim()).filter(Boolean) : [];
  if (lines.length === 0) return undefined;
  const geoProp = vevent.getFirstProperty('geo');
  const geo = geoProp?.getFirstValue() as unknown;
  let coordinates: { lat: number; lng: number } | undefined;
  if (geoProp) {
    const [lat, lng] = Array.isArray(geo) ? geo.map(Number) : [];
    if (lat === undefined || lng === undefined || !(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) {
      throw icsError(ctx.parsed.lineOf(geoProp), 'GEO must be a latitude and a longitude, e.g. GEO:41.9;12.5');
    }
    coordinates = { lat, lng };
  }
  return { name: lines[0]!, address: lines.slice(1).join(', '), ...coordinates };
}

/** ORGANIZER;CN=Name:mailto:address (others, e.g. without an address, are left out). */
function readOrganizer(vevent: ICAL.Component): IcsEvent['organizer'] {
  const prop = vevent.getFirstProperty('organizer');
  const value = prop?.getFirstValue();
  const email = typeof value === 'string' ? /^mailto:(.+)$/i.exec(value.trim())?.[1]?.trim() : undefined;
  if (!prop || !email) return undefined;
  const cn = prop.getParameter('cn');
  const name = String((Array.isArray(cn) ? cn[0] : cn) ?? '').trim();
  return { name: name || email, email };
}
