// How an accepted time value is read, by context (behaviour reference: "How an accepted time is
// interpreted, by context"). The parser gives the wall clock in the text's own frame and the
// instant; each context picks what it needs.
import { parsePhpTime, timeValidity, type ParsedTime } from './php-time';
import { secondOf, type Validity } from './validity';
import { formatWall, formatUtc, wallFromEpochUtc, type WallClock } from './wall-clock';
import { instantToWall, type Zone } from './zone';

function parse(value: unknown, zone: Zone, now: number): ParsedTime {
  const parsed = parsePhpTime(value, { now, timeZone: zone.name });
  // Values reach here only after validation accepted them.
  if (!parsed) throw new TypeError(`evcal: not a time: ${String(value)}`);
  return parsed;
}

/**
 * An event's start, end or publish date on write: a wall clock in the event zone. Relative
 * phrases are evaluated in that zone; an explicit offset's digits are kept and the offset
 * dropped; a Unix timestamp gives its UTC digits.
 */
export function eventWallClock(value: unknown, eventZone: Zone, now: number): WallClock {
  return parse(value, eventZone, now).wall;
}

/** A `date_utc` on write: a naive value is UTC, an offset is converted, a timestamp is UTC. */
export function utcWallClock(value: unknown, utc: Zone, now: number): string {
  return formatUtc(parse(value, utc, now).epochMs);
}

/**
 * A venue or organizer `date` on write: a naive value is kept as written (relative phrases in
 * the site zone); an offset or a timestamp is the site-zone wall clock of that instant.
 */
export function siteWallClock(value: unknown, site: Zone, now: number): string {
  const p = parse(value, site, now);
  return formatWall(p.frame === 'local' ? p.wall : instantToWall(p.epochMs, site));
}

/** A list date bound in strict mode: the instant (a naive value is a wall clock in the site zone). */
export function strictInstant(value: unknown, site: Zone, now: number): number {
  return parse(value, site, now).epochMs;
}

/**
 * The calendar date of a list date bound in inclusive mode: a naive value's date as written,
 * an offset's or a timestamp's date in UTC.
 */
export function boundDate(value: unknown, site: Zone, now: number): WallClock {
  const p = parse(value, site, now);
  return p.frame === 'local' ? p.wall : wallFromEpochUtc(p.epochMs);
}

/** How long reading `value` at `now` in `zone` (as every function above does) gives the same result (validity.ts). */
export function readingValidity(value: unknown, zone: Zone, now: number): Validity {
  return timeValidity(value, { now, timeZone: zone.name }) ?? secondOf(now);
}
