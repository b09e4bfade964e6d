// Time zones: wall-clock <-> instant conversions for IANA zones, PHP-style abbreviations
// and fixed offsets ("UTC+2", "+02:00"), with one DST rule for the whole library.
//
// The DST rule (decided once, here): a wall-clock time that does not exist (spring-forward
// gap) moves forward by the length of the gap; an ambiguous one (fall-back overlap) takes the
// earlier instant. This is PHP's behaviour and Temporal's "compatible" disambiguation.
import type { WallClock } from './wall-clock';
import { wallFromEpochUtc, wallToEpochUtc } from './wall-clock';

/** A resolved zone: everything the library needs to convert between wall clocks and instants. */
export interface Zone {
  /** The name as the client gave it (stored on the event as is). */
  readonly name: string;
  /** Offset from UTC in minutes at the given instant (east positive). */
  offsetAt(epochMs: number): number;
  /** A fixed offset (`UTC+2`, `+02:00`, `UTCfoo`) rather than a zone with rules. */
  readonly fixed: boolean;
}

const HOUR = 3_600_000;
const zoneCache = new Map<string, Zone | null>();

/**
 * Resolves a zone name the way the reference accepts it: an IANA identifier (`Europe/Rome`,
 * `UTC`, legacy links such as `EST`), a numeric offset (`+02:00`, `-0530`, `+2`), or a
 * `UTC±N` string (`UTC+2`, `UTC-5.5`, `UTC+0`). Any other string that starts with `UTC` and is
 * longer than three characters is accepted by the reference and means UTC here.
 * Returns `undefined` for anything else.
 */
export function resolveZone(name: string): Zone | undefined {
  const cached = zoneCache.get(name);
  if (cached !== undefined) return cached ?? undefined;
  const zone = build(name);
  zoneCache.set(name, zone ?? null);
  return zone;
}

/** Whether `name` is a zone the write routes accept (4.1.2). */
export function isValidZoneName(name: string): boolean {
  return resolveZone(name) !== undefined;
}

/** The UTC instant of a wall-clock time in `zone` (DST rule above). */
export function wallToInstant(wall: WallClock, zone: Zone): number {
  const candidates = wallInstants(wall, zone);
  if (candidates.length > 0) return candidates[0]!;
  // In a gap: keep the offset in force before the transition, which moves the time forward.
  return wallToEpochUtc(wall) - zone.offsetAt(wallToEpochUtc(wall) - 24 * HOUR) * 60_000;
}

/**
 * Every instant whose wall clock in `zone` is `wall`, earliest first: one, none in a
 * spring-forward gap, two in a fall-back overlap. (iCalendar readers that place such a wall
 * clock by another rule than the one above read it elsewhere: feeds avoid writing them.)
 */
export function wallInstants(wall: WallClock, zone: Zone): number[] {
  const naive = wallToEpochUtc(wall);
  const before = zone.offsetAt(naive - 24 * HOUR);
  const after = zone.offsetAt(naive + 24 * HOUR);
  const candidates: number[] = [];
  for (const offset of before === after ? [before] : [before, after]) {
    const instant = naive - offset * 60_000;
    if (zone.offsetAt(instant) === offset) candidates.push(instant);
  }
  return candidates.sort((a, b) => a - b);
}

/** The wall clock of an instant in `zone`. */
export function instantToWall(epochMs: number, zone: Zone): WallClock {
  return wallFromEpochUtc(epochMs + zone.offsetAt(epochMs) * 60_000);
}

/**
 * The zone abbreviation at an instant, as PHP prints it with `T`: `EST`, `CEST`, `AEDT`;
 * `UTC` for UTC; the zone string itself for `UTC±N` zones; `+03`-style offsets where the
 * zone has no common abbreviation.
 */
export function zoneAbbreviation(zone: Zone, epochMs: number): string {
  if (isUtcName(zone.name)) return 'UTC';
  if (zone.fixed) return zone.name;
  // Abbreviations change at the zone's transitions, as offsets do: cached by quarter hour too
  // (formatting one through Intl costs about 10 µs a locale, several locales a zone).
  return byQuarterHour(abbreviationCache, zone.name, epochMs, () => icuAbbreviation(zone, epochMs));
}

const abbreviationCache = new Map<string, string>();

function icuAbbreviation(zone: Zone, epochMs: number): string {
  for (const locale of ABBREVIATION_LOCALES) {
    const name = shortName(zone.name, locale, epochMs);
    if (name && !/^(GMT|UTC)([+-−]|$)/.test(name)) return name;
    if (name === 'GMT' && zone.offsetAt(epochMs) === 0) return 'GMT';
  }
  return formatOffsetShort(zone.offsetAt(epochMs));
}

/** `+02:00`-style offset of `minutes`. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

// ---- helpers ----

// Locales whose short zone names are the familiar abbreviations for their regions.
const ABBREVIATION_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-NZ', 'en-IN', 'en-ZA', 'en-IE', 'en-SG'];
const shortNameFormatters = new Map<string, Intl.DateTimeFormat>();

function shortName(zoneName: string, locale: string, epochMs: number): string | undefined {
  const key = `${locale}|${zoneName}`;
  let formatter = shortNameFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone: zoneName, timeZoneName: 'short' });
    shortNameFormatters.set(key, formatter);
  }
  return formatter.formatToParts(epochMs).find((p) => p.type === 'timeZoneName')?.value;
}

function formatOffsetShort(minutes: number): string {
  const full = formatOffset(minutes);
  return full.endsWith(':00') ? full.slice(0, 3) : full.replace(':', '');
}

function isUtcName(name: string): boolean {
  return /^(UTC|GMT|Etc\/UTC|Etc\/GMT|Z|Zulu|UCT|Universal|Etc\/Universal|Etc\/Zulu|Etc\/UCT)$/i.test(name);
}

/** A zone with a constant offset from UTC, in minutes east. */
export function fixedOffsetZone(name: string, minutes: number): Zone {
  return { name, fixed: true, offsetAt: () => minutes };
}

function build(name: string): Zone | undefined {
  if (typeof name !== 'string' || name.length === 0 || name.length > 64) return undefined;
  // UTC±N, UTC±N.5, UTC±HH:MM; and anything else starting with "UTC" (accepted, means UTC).
  const utcOffset = /^UTC([+-])(\d{1,2})(?:(?:\.(\d+))|(?::(\d{2})))?$/i.exec(name);
  if (utcOffset) {
    const [, sign, h, frac, mm] = utcOffset;
    const minutes = Number(h) * 60 + (frac ? Math.round(Number(`0.${frac}`) * 60) : Number(mm ?? 0));
    if (minutes > 14 * 60) return undefined;
    return fixedOffsetZone(name, sign === '-' ? -minutes : minutes);
  }
  if (/^UTC./i.test(name) && !isUtcName(name)) return fixedOffsetZone(name, 0);
  // Numeric offsets: +02:00, +0200, +02, -5.
  const offset = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(name);
  if (offset) {
    const [, sign, h, mm] = offset;
    const minutes = Number(h) * 60 + Number(mm ?? 0);
    if (minutes > 14 * 60) return undefined;
    return fixedOffsetZone(name, sign === '-' ? -minutes : minutes);
  }
  if (isUtcName(name)) return fixedOffsetZone(name, 0);
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return undefined;
  try {
    // Throws RangeError for names ICU does not know.
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return undefined;
  }
  return { name, fixed: false, offsetAt: (epochMs) => ianaOffset(name, epochMs) };
}

// Offsets only change at transitions, which tzdata places on quarter-hour boundaries since
// 1970, so the offset of a quarter-hour bucket is cached.
const QUARTER_HOUR = 900_000;
const offsetCache = new Map<string, number>();

function ianaOffset(name: string, epochMs: number): number {
  return byQuarterHour(offsetCache, name, epochMs, () => offsetFromIcu(name, epochMs));
}

/**
 * What a zone's `compute` gives at an instant, kept per zone and quarter hour (no zone changes
 * offset or abbreviation between two quarter hours); instants before 1970 are not kept.
 */
function byQuarterHour<V>(cache: Map<string, V>, name: string, epochMs: number, compute: () => V): V {
  const key = epochMs >= 0 ? `${name}|${Math.floor(epochMs / QUARTER_HOUR)}` : undefined;
  const cached = key === undefined ? undefined : cache.get(key);
  if (cached !== undefined) return cached;
  const value = compute();
  if (key !== undefined) {
    if (cache.size > 50_000) cache.clear();
    cache.set(key, value);
  }
  return value;
}

// The offset as ICU gives it through Intl: `longOffset` names are `GMT-05:00`, `GMT+05:45`,
// `GMT-00:44:30` (local mean time, before standard time) and `GMT` for zero. Seconds are
// dropped toward zero, as the offsets printed with minutes always were. (This replaced
// date-fns-tz's formatInTimeZone, which gave the same minutes: importing date-fns-tz loads the
// whole date-fns barrel, some 300 modules, and from Node 22 on every one of them parses date-fns'
// 200 KB package.json: 0.6 s on Node 22 and 1 s on Node 24 added to every start of the library.)
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFromIcu(name: string, epochMs: number): number {
  let formatter = offsetFormatters.get(name);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' });
    offsetFormatters.set(name, formatter);
  }
  const text = formatter.formatToParts(epochMs).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const m = /^GMT([+\-\u2212])(\d{1,2}):(\d{2})/.exec(text);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '+' ? minutes : -minutes;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
