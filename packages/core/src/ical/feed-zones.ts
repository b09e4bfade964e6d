// The VTIMEZONE components of feeds, from timezones-ical-library: the IANA database's rules as
// iCalendar, maintained with every tzdata release. The library gives each zone's current
// rules only, from 1970 on; an event in a year whose rules differed (Sao Paulo kept DST until
// 2019) would be read at the wrong instant by an app that trusts the VTIMEZONE (Outlook does).
// So a zone is used for a time only where ical.js, reading that VTIMEZONE, finds the same
// UTC offset as evcal's own conversion, and where the wall clock exists once: readers place a
// wall clock of the repeated hour of a fall-back night by different rules (ical.js, icalendar
// and recurring-ical-events as its second occurrence; node-ical, vobject, evcal and RFC 5545
// as its first). Elsewhere the time is written in UTC, which every app reads right.
import ICAL from 'ical.js';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';
import { instantToWall, resolveZone, wallInstants, type Zone } from '../time/zone';

export interface FeedZone {
  /** The TZID written: the library's canonical name (`US/Eastern` is written `America/New_York`). */
  readonly tzid: string;
  /** The zone's rules as evcal applies them. */
  readonly zone: Zone;
  /** The VTIMEZONE component, CRLF line ends, without a final line break. */
  readonly vtimezone: string;
  /**
   * Whether every reader finds `instant` again from its wall clock in the zone written with
   * this TZID: the wall clock is not in a repeated hour, and the VTIMEZONE gives it evcal's offset.
   */
  exact(instant: number): boolean;
}

/** The VTIMEZONE of an IANA zone, or undefined for fixed offsets and zones the library lacks. */
export function feedZone(name: string): FeedZone | undefined {
  let found = cache.get(name);
  if (found === undefined) {
    found = build(name) ?? null;
    cache.set(name, found);
  }
  return found ?? undefined;
}

// ---- helpers ----

const cache = new Map<string, FeedZone | null>();
let known: ReadonlySet<string> | undefined;

function build(name: string): FeedZone | undefined {
  const zone = resolveZone(name);
  if (!zone || zone.fixed) return undefined;
  // The library logs to the console for names it does not know: asked only for known ones.
  known ??= new Set(tzlib_get_timezones() as string[]);
  if (!known.has(name)) return undefined;
  const block = tzlib_get_ical_block(name);
  if (!Array.isArray(block) || typeof block[0] !== 'string' || !block[0].startsWith('BEGIN:VTIMEZONE')) return undefined;
  const vtimezone = block[0].replace(/\r?\n/g, '\r\n').trim();
  const component = new ICAL.Component(ICAL.parse(vtimezone));
  const tzid = String(component.getFirstPropertyValue('tzid'));
  const rules = new ICAL.Timezone(component);
  const agreed = new Map<number, boolean>();
  return {
    tzid,
    zone,
    vtimezone,
    exact(instant) {
      let ok = agreed.get(instant);
      if (ok === undefined) {
        const offset = zone.offsetAt(instant);
        const w = instantToWall(instant, zone);
        const local = ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second, isDate: false });
        ok = wallInstants(w, zone).length === 1 && rules.utcOffset(local) === offset * 60;
        if (agreed.size > 10_000) agreed.clear();
        agreed.set(instant, ok);
      }
      return ok;
    },
  };
}
