// One VEVENT of a feed: an event's properties as typed values (ical-props.ts), its times placed
// where every reader finds them (a date, a wall clock with its zone's TZID, or UTC), and what
// makes it a series (RRULE, EXDATE) or an occurrence of one (RECURRENCE-ID).
import type ICAL from 'ical.js';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../model/records';
import { instantToWall } from '../time/zone';
import { addDays, parseWall } from '../time/wall-clock';
import type { FeedZone } from './feed-zones';
import { feedZone } from './feed-zones';
import { component, contentLine, dateValue, text, utcValue, zonedValue, type IcsTime } from './ical-props';
import { htmlToText } from './ical-text';
import { sequenceOf } from './sequence';

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

/** What a VEVENT carries besides the event: its recurrence, or the instance of a series it is. */
export interface VeventExtras {
  /** DTSTART and DTEND, when they are not the event's own (a series' rule starts at its first start). */
  readonly times?: readonly [IcsTime, IcsTime];
  readonly rrule?: ICAL.Recur;
  /** EXDATE values: dates, or wall clocks of one zone. */
  readonly exdates?: readonly IcsTime[];
  readonly recurrenceId?: IcsTime;
}

/** The zones a feed's VEVENTs have used (each needs its VTIMEZONE before them). */
export type ZonesUsed = Set<FeedZone>;

/**
 * The VEVENT of `event`: its times are dates (all-day), or its instants written in its zone
 * where every reader finds them there, else in UTC. The zones it writes wall clocks in are
 * added to `used`.
 */
export function vevent(event: EventRecord, content: FeedEventContent, used: ZonesUsed, extras: VeventExtras = {}): string {
  const modified = utcInstant(event.modifiedUtc);
  const created = event.dateUtc === null ? undefined : utcInstant(event.dateUtc);
  const description = content.description ? htmlToText(event.description) : '';
  const [start, end] = extras.times ?? eventTimes(event, used);
  const allDay = start.type === 'date';
  const lines = [
    contentLine('UID', [text(content.uid)]),
    contentLine('SEQUENCE', [{ type: 'integer', value: sequenceOf(event) }]),
    // Without a METHOD, DTSTAMP is when the event was last revised: the feed's bytes change only with its events.
    contentLine('DTSTAMP', [utcValue(modified ?? 0)]),
    contentLine('DTSTART', [start]),
    contentLine('DTEND', [end]),
    ...(extras.rrule ? [contentLine('RRULE', [{ type: 'recur', value: extras.rrule }])] : []),
    ...(extras.exdates?.length ? [contentLine('EXDATE', extras.exdates)] : []),
    ...(extras.recurrenceId ? [contentLine('RECURRENCE-ID', [extras.recurrenceId])] : []),
    // Outlook shows a DATE-only event as all-day only with these.
    ...(allDay ? [contentLine('X-MICROSOFT-CDO-ALLDAYEVENT', [text('TRUE')]), contentLine('X-MICROSOFT-MSNCALENDAR-ALLDAYEVENT', [text('TRUE')])] : []),
    contentLine('SUMMARY', [text(htmlToText(event.title))]),
    ...(content.venue ? location(content.venue) : []),
    ...(description ? [contentLine('DESCRIPTION', [text(description)])] : []),
    ...(content.organizer?.email ? [organizer(content.organizer)] : []),
    ...(content.categories.length ? [contentLine('CATEGORIES', content.categories.map(text))] : []),
    contentLine('URL', [{ type: 'uri', value: content.url }]),
    contentLine('STATUS', [text(event.status === 'publish' ? 'CONFIRMED' : event.status === 'trash' ? 'CANCELLED' : 'TENTATIVE')]),
    ...(created !== undefined ? [contentLine('CREATED', [utcValue(created)])] : []),
    ...(modified !== undefined ? [contentLine('LAST-MODIFIED', [utcValue(modified)])] : []),
  ];
  return component('VEVENT', lines);
}

/**
 * An instant as a feed writes it: the wall clock with the TZID of `zone` where every reader
 * finds the instant from it (feed-zones.ts), else UTC.
 */
export function placeInstant(ms: number, zone: FeedZone | undefined, used: ZonesUsed): IcsTime {
  if (!zone?.exact(ms)) return utcValue(ms);
  used.add(zone);
  return zonedValue(instantToWall(ms, zone.zone), zone.tzid);
}

/** The date of a "YYYY-MM-DD…" string, as a DATE value. */
export function dateOf(local: string, daysLater = 0): IcsTime {
  return dateValue(addDays(parseWall(`${local.slice(0, 10)} 00:00:00`)!, daysLater));
}

// ---- helpers ----

/** DTSTART and DTEND: dates with an exclusive end for all-day events, else instants placed in the event's zone or UTC. */
function eventTimes(event: EventRecord, used: ZonesUsed): [IcsTime, IcsTime] {
  if (event.allDay) return [dateOf(event.startLocal), dateOf(event.endLocal, 1)];
  const zone = feedZone(event.timezone);
  // Start and end in one form: a reader sees the event in the zone, or in UTC.
  const both = zone && zone.exact(event.startUtc) && zone.exact(event.endUtc) ? zone : undefined;
  return [placeInstant(event.startUtc, both, used), placeInstant(event.endUtc, both, used)];
}

/** LOCATION: the venue's name, then its address on a second line; GEO from its coordinates. */
function location(venue: VenueRecord): string[] {
  const region = venue.stateprovince || venue.state || venue.province;
  const address = [venue.address, venue.city, region, venue.zip, venue.country].map((s) => s.trim()).filter(Boolean).join(', ');
  const title = htmlToText(venue.title) || address;
  if (!title) return [];
  return [
    contentLine('LOCATION', [text(address && address !== title ? `${title}\n${address}` : title)]),
    ...(venue.geoLat !== null && venue.geoLng !== null ? [contentLine('GEO', [{ type: 'float', value: [venue.geoLat, venue.geoLng] }])] : []),
  ];
}

/** ORGANIZER;CN=name:mailto:email. A parameter value cannot hold a double quote at all. */
function organizer(o: OrganizerRecord): string {
  const name = htmlToText(o.title).replace(/"/g, "'").replace(/[\r\n]+/g, ' ').trim();
  return contentLine('ORGANIZER', [{ type: 'cal-address', value: `mailto:${o.email}` }], { cn: name || o.email });
}

function utcInstant(utc: string): number | undefined {
  const ms = Date.parse(`${utc.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}
