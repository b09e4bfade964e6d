// Writes iCalendar (RFC 5545) feeds from stored records: the calendar's properties, each event
// as a VEVENT, and the end. A zone's VTIMEZONE goes right before the first event that uses
// it (RFC 5545 lets components come in any order), so a feed streams without knowing every
// zone in advance. ical-generator writes the VEVENTs: it takes @date-fns/tz `TZDate` values
// and writes their wall clock in the event's zone whatever the process's own zone is (a
// native Date would be written in the process's zone, and a calendar-level zone would also
// turn DTSTAMP into local time; neither is used here).
import { TZDate } from '@date-fns/tz';
import { escape, ICalCalendar, ICalEvent, ICalEventStatus, type ICalEventData } from 'ical-generator';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../model/records';
import { parseWall } from '../time/wall-clock';
import { feedZone, type FeedZone } from './feed-zones';
import { foldLine, foldLines, htmlToText } from './ical-text';
import { sequenceOf } from './sequence';

export interface FeedHeader {
  /** X-WR-CALNAME and NAME: the calendar's name as subscribers see it. */
  readonly name: string;
  /** X-WR-TIMEZONE: the site zone, when it is an IANA zone. */
  readonly timezone?: string;
  /** REFRESH-INTERVAL and X-PUBLISHED-TTL, in minutes. */
  readonly refreshMinutes: number;
}

/** What a caller may see of an event besides its title and dates. */
export interface FeedEventContent {
  readonly uid: string;
  readonly url: string;
  /** DESCRIPTION (false for a protected event the caller has not unlocked). */
  readonly description: boolean;
  /** LOCATION and GEO. */
  readonly venue?: VenueRecord;
  /** ORGANIZER (written only when the organizer has an email address). */
  readonly organizer?: OrganizerRecord;
  /** CATEGORIES: the names of the event's categories. */
  readonly categories: readonly string[];
}

export interface FeedWriter {
  header(): string;
  /** The VEVENT, preceded by its zone's VTIMEZONE when this is the zone's first use. */
  event(event: EventRecord, content: FeedEventContent): string;
  /**
   * A series: its VEVENT with RRULE, RDATE and EXDATE, then one VEVENT per exception (same
   * UID, RECURRENCE-ID its original start). Written in the series' zone when its VTIMEZONE
   * places every occurrence where evcal does, else as a list of RDATEs in UTC.
   */
  series(series: EventRecord, content: FeedEventContent, set: SeriesSet): string;
  footer(): string;
}

/** The occurrences of a series as a feed shows them. */
export interface SeriesSet {
  /** Every start the series generates, shown or not: local wall clock and instant. */
  readonly starts: readonly { readonly start: string; readonly startUtc: number }[];
  /** Starts left out (EXDATE): not shown to this caller (trashed, not visible), or excluded by the series itself. */
  readonly excluded: ReadonlySet<string>;
  /** Occurrences changed on their own that the caller sees, with what they show. */
  readonly exceptions: readonly { readonly event: EventRecord; readonly content: FeedEventContent }[];
}

/** How UIDs are formed: `stable` `<id>@<host>`, or `reference` `<id>-<start>-<end>@<host>` (epoch seconds). */
export type UidForm = 'stable' | 'reference';

/** The UID of an event: stable across reschedules, unless the reference's form is asked for. */
export function eventUid(event: EventRecord, host: string, form: UidForm): string {
  return form === 'reference'
    ? `${event.id}-${Math.floor(event.startUtc / 1000)}-${Math.floor(event.endUtc / 1000)}@${host}`
    : `${event.id}@${host}`;
}

export function createFeedWriter(header: FeedHeader): FeedWriter {
  // ical-generator needs a calendar to render an event; events are not added to it, so it stays empty.
  const calendar = new ICalCalendar();
  const written = new Set<string>();
  return {
    header: () => foldLines([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//evcal//evcal//EN',
      'CALSCALE:GREGORIAN',
      `NAME:${escape(header.name, false)}`,
      `X-WR-CALNAME:${escape(header.name, false)}`,
      ...(header.timezone ? [`X-WR-TIMEZONE:${escape(header.timezone, false)}`] : []),
      `REFRESH-INTERVAL;VALUE=DURATION:PT${header.refreshMinutes}M`,
      `X-PUBLISHED-TTL:PT${header.refreshMinutes}M`,
      '',
    ].join('\r\n')),
    event(event, content) {
      const zone = event.allDay ? undefined : zoneFor(event);
      const vevent = new ICalEvent(eventData(event, content, zone), calendar).toString();
      let out = vevent.split('\r\n').map(foldLine).join('\r\n');
      if (zone && !written.has(zone.tzid)) {
        written.add(zone.tzid);
        out = `${zone.vtimezone}\r\n${out}`;
      }
      return out;
    },
    series(series, content, set) {
      const zone = series.allDay ? undefined : feedZone(series.timezone);
      const agrees = zone !== undefined && set.starts.every((g) => zone.agrees(g.startUtc))
        && set.exceptions.every((x) => zone.agrees(x.event.startUtc) && zone.agrees(x.event.endUtc));
      const shown = set.starts.filter((g) => !set.excluded.has(g.start));
      const rec = series.recurrence!;
      let repeating: string;
      if (series.allDay) {
        repeating = [
          ...(rec.rrule ? [`RRULE:${rec.rrule}`] : []),
          ...(rec.rdate.length ? [`RDATE;VALUE=DATE:${rec.rdate.map((w) => basic(w).slice(0, 8)).join(',')}`] : []),
          ...(set.excluded.size ? [`EXDATE;VALUE=DATE:${[...set.excluded].map((w) => basic(w).slice(0, 8)).join(',')}`] : []),
        ].join('\r\n');
      } else if (agrees) {
        repeating = [
          ...(rec.rrule ? [`RRULE:${rec.rrule}`] : []),
          ...(rec.rdate.length ? [`RDATE;TZID=${zone!.tzid}:${rec.rdate.map(basic).join(',')}`] : []),
          ...(set.excluded.size ? [`EXDATE;TZID=${zone!.tzid}:${[...set.excluded].map(basic).join(',')}`] : []),
        ].join('\r\n');
      } else {
        // Every start, exactly, in UTC: a rule in UTC would move across daylight saving time.
        const others = shown.filter((g) => g.start !== series.startLocal);
        repeating = [
          ...(others.length ? [`RDATE:${others.map((g) => utcBasic(g.startUtc)).join(',')}`] : []),
          ...(set.excluded.has(series.startLocal) ? [`EXDATE:${utcBasic(series.startUtc)}`] : []),
        ].join('\r\n');
      }
      const masterZone = agrees ? zone : undefined;
      const master = { ...eventData(series, content, masterZone), ...(repeating ? { repeating } : {}) };
      const parts = [new ICalEvent(master, calendar).toString()];
      for (const x of set.exceptions) {
        const original = x.event.occurrence!.originalStart;
        const recurrenceId = series.allDay
          ? new Date(Date.UTC(Number(original.slice(0, 4)), Number(original.slice(5, 7)) - 1, Number(original.slice(8, 10))))
          : masterZone ? new TZDate(set.starts.find((g) => g.start === original)?.startUtc ?? x.event.startUtc, masterZone.tzid)
            : new Date(set.starts.find((g) => g.start === original)?.startUtc ?? x.event.startUtc);
        parts.push(new ICalEvent({ ...eventData(x.event, { ...x.content, uid: content.uid }, masterZone), recurrenceId }, calendar).toString());
      }
      let out = parts.join('').split('\r\n').map(foldLine).join('\r\n');
      if (masterZone && !written.has(masterZone.tzid)) {
        written.add(masterZone.tzid);
        out = `${masterZone.vtimezone}\r\n${out}`;
      }
      return out;
    },
    footer: () => 'END:VCALENDAR\r\n',
  };
}

/** "YYYYMMDDTHHMMSS" of a local wall clock. */
function basic(wall: string): string {
  return wall.replace(/[-:]/g, '').replace(' ', 'T');
}

/** "YYYYMMDDTHHMMSSZ" of an instant. */
function utcBasic(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
}

// ---- helpers ----

/** The zone an event is written in, or undefined to write it in UTC (fixed offsets, or where the VTIMEZONE would mislead). */
function zoneFor(event: EventRecord): FeedZone | undefined {
  const zone = feedZone(event.timezone);
  return zone && zone.agrees(event.startUtc) && zone.agrees(event.endUtc) ? zone : undefined;
}

function eventData(event: EventRecord, content: FeedEventContent, zone: FeedZone | undefined): ICalEventData & { start: NonNullable<ICalEventData['start']> } {
  const modified = utcInstant(event.modifiedUtc);
  const created = event.dateUtc === null ? undefined : utcInstant(event.dateUtc);
  const description = content.description ? htmlToText(event.description) : '';
  return {
    id: content.uid,
    sequence: sequenceOf(event),
    // Without a METHOD, DTSTAMP is when the event was last revised: the feed's bytes change only with its events.
    stamp: modified ?? new Date(0),
    ...(modified ? { lastModified: modified } : {}),
    ...(created ? { created } : {}),
    summary: htmlToText(event.title),
    ...times(event, zone),
    ...(description ? { description } : {}),
    ...(content.venue ? { location: location(content.venue) } : {}),
    ...(content.organizer?.email ? { organizer: organizer(content.organizer) } : {}),
    ...(content.categories.length ? { categories: content.categories.map((name) => ({ name })) } : {}),
    url: content.url,
    status: event.status === 'publish' ? ICalEventStatus.CONFIRMED : event.status === 'trash' ? ICalEventStatus.CANCELLED : ICalEventStatus.TENTATIVE,
  };
}

/** DTSTART and DTEND: dates with an exclusive end for all-day events, else wall clocks in the zone, else UTC. */
function times(event: EventRecord, zone: FeedZone | undefined): Pick<ICalEventData, 'start' | 'end' | 'allDay' | 'timezone'> {
  if (event.allDay) {
    const first = parseWall(event.startLocal);
    const last = parseWall(event.endLocal);
    if (first && last) {
      return {
        allDay: true,
        start: new Date(Date.UTC(first.year, first.month - 1, first.day)),
        end: new Date(Date.UTC(last.year, last.month - 1, last.day + 1)),
      };
    }
  }
  if (zone) return { timezone: zone.tzid, start: new TZDate(event.startUtc, zone.tzid), end: new TZDate(event.endUtc, zone.tzid) };
  return { start: new Date(event.startUtc), end: new Date(event.endUtc) };
}

/** LOCATION: the venue's name, then its address on a second line (as ical-generator writes them); GEO from its coordinates. */
function location(venue: VenueRecord): NonNullable<ICalEventData['location']> {
  const region = venue.stateprovince || venue.state || venue.province;
  const address = [venue.address, venue.city, region, venue.zip, venue.country].map((s) => s.trim()).filter(Boolean).join(', ');
  return {
    title: htmlToText(venue.title) || address,
    ...(address ? { address } : {}),
    ...(venue.geoLat !== null && venue.geoLng !== null ? { geo: { lat: venue.geoLat, lon: venue.geoLng } } : {}),
  };
}

/** ORGANIZER;CN="name":mailto:email. A parameter value cannot hold a double quote at all. */
function organizer(o: OrganizerRecord): { name: string; email: string } {
  const name = htmlToText(o.title).replace(/"/g, "'").replace(/[\r\n]+/g, ' ').trim();
  return { name: name || o.email, email: o.email };
}

function utcInstant(utc: string): Date | undefined {
  const ms = Date.parse(`${utc.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}
