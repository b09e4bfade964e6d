// Writes iCalendar (RFC 5545) feeds from stored records: the calendar's properties, each event
// as a VEVENT (vevent.ts), each series as its rule and occurrences (series-form.ts), and the
// end. Every content line is written by ical.js from typed values (ical-props.ts). A zone's
// VTIMEZONE goes right before the first VEVENT that writes a time in it (RFC 5545 lets
// components come in any order), so a feed streams without knowing every zone in advance.
import ICAL from 'ical.js';
import type { EventRecord } from '../model/records';
import type { UidForm } from '../kernel/options';
import type { FeedZone } from './feed-zones';
import { contentLine, text } from './ical-props';
import { occurrenceVevent, seriesVevents, type SeriesSet, type ShownOccurrence } from './series-form';
import { vevent, type FeedEventContent, type ZonesUsed } from './vevent';

export type { FeedEventContent } from './vevent';
export type { SeriesSet, ShownOccurrence } from './series-form';

export interface FeedHeader {
  /** X-WR-CALNAME and NAME: the calendar's name as subscribers see it. */
  readonly name: string;
  /** REFRESH-INTERVAL and X-PUBLISHED-TTL, in minutes. */
  readonly refreshMinutes: number;
}

export interface FeedWriter {
  header(): string;
  /** The VEVENT, preceded by its zone's VTIMEZONE when this is the zone's first use. */
  event(event: EventRecord, content: FeedEventContent): string;
  /** A series: its rule and exceptions, and its other occurrences on their own (series-form.ts). */
  series(series: EventRecord, content: FeedEventContent, set: SeriesSet): string;
  /** One occurrence alone, with its series' UID and its RECURRENCE-ID. */
  occurrence(series: EventRecord, content: FeedEventContent, set: SeriesSet, target: ShownOccurrence): string;
  footer(): string;
}


/** The UID of an event: stable across reschedules, unless the reference's form is asked for. */
export function eventUid(event: EventRecord, host: string, form: UidForm): string {
  return form === 'reference'
    ? `${event.id}-${Math.floor(event.startUtc / 1000)}-${Math.floor(event.endUtc / 1000)}@${host}`
    : `${event.id}@${host}`;
}

export function createFeedWriter(header: FeedHeader): FeedWriter {
  const written = new Set<string>();
  /** The VEVENTs `write` gives, after the VTIMEZONEs of the zones they use that the feed has not carried yet. */
  const withZones = (write: (used: ZonesUsed) => string): string => {
    const used: ZonesUsed = new Set<FeedZone>();
    const body = write(used);
    const zones = [...used].filter((z) => !written.has(z.tzid));
    for (const z of zones) written.add(z.tzid);
    return zones.map((z) => `${z.vtimezone}\r\n`).join('') + body;
  };
  const ttl = ICAL.Duration.fromData({ minutes: header.refreshMinutes });
  return {
    header: () => [
      'BEGIN:VCALENDAR',
      contentLine('VERSION', [text('2.0')]),
      contentLine('PRODID', [text('-//evcal//evcal//EN')]),
      contentLine('CALSCALE', [text('GREGORIAN')]),
      contentLine('NAME', [text(header.name)]),
      contentLine('X-WR-CALNAME', [text(header.name)]),
      contentLine('REFRESH-INTERVAL', [{ type: 'duration', value: ttl }]),
      contentLine('X-PUBLISHED-TTL', [{ type: 'duration', value: ttl }]),
      '',
    ].join('\r\n'),
    event: (event, content) => withZones((used) => vevent(event, content, used)),
    series: (series, content, set) => withZones((used) => seriesVevents(series, content, set, used)),
    occurrence: (series, content, set, target) => withZones((used) => occurrenceVevent(series, content, set, target, used)),
    footer: () => 'END:VCALENDAR\r\n',
  };
}
