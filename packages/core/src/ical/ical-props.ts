// Content lines of the feeds, written by ical.js from typed values: a date, a wall clock with
// the TZID of its zone, an instant in UTC, a recurrence rule built part by part, a text, a URI…
// ical.js writes each value in the form RFC 5545 gives its type, escaping texts, quoting
// parameters; no text is spliced into a line, so no value can come out as another property's
// (an RDATE once came out as "RRULE:RDATE…" from a string handed to a generator that prefixed it).
import ICAL from 'ical.js';
import type { WallClock } from '../time/wall-clock';
import { foldLine } from './ical-text';

/** A value as ical.js takes it, with the value type it is written as. */
export type IcsValue =
  | { readonly type: 'text' | 'uri' | 'cal-address'; readonly value: string }
  | { readonly type: 'integer'; readonly value: number }
  | { readonly type: 'float'; readonly value: readonly [number, number] }
  | { readonly type: 'duration'; readonly value: ICAL.Duration }
  | { readonly type: 'recur'; readonly value: ICAL.Recur }
  | IcsTime;

/** A date, or a date-time with its zone (a TZID parameter) or in UTC. */
export interface IcsTime {
  readonly type: 'date' | 'date-time';
  readonly value: ICAL.Time;
  /** The TZID the wall clock is written with; none for dates and UTC times. */
  readonly tzid?: string;
}

/** A date: `VALUE=DATE:20270109`. */
export function dateValue(w: Pick<WallClock, 'year' | 'month' | 'day'>): IcsTime {
  return { type: 'date', value: ICAL.Time.fromData({ year: w.year, month: w.month, day: w.day, isDate: true }) };
}

/** A wall clock in a zone: `TZID=Europe/Rome:20270328T033000`. */
export function zonedValue(w: WallClock, tzid: string): IcsTime {
  return { type: 'date-time', value: ICAL.Time.fromData({ ...w, isDate: false }), tzid };
}

/** An instant in UTC: `20270328T013000Z`. */
export function utcValue(ms: number): IcsTime {
  const d = new Date(ms);
  const w = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
  return { type: 'date-time', value: ICAL.Time.fromData({ ...w, isDate: false }, ICAL.Timezone.utcTimezone) };
}

export const text = (value: string): IcsValue => ({ type: 'text', value });

/**
 * A folded content line: the property `name` with `values` (several only where RFC 5545
 * lets the property list them: EXDATE, CATEGORIES) and `params`. Times of one line share
 * their form (all dates, all in one zone, or all UTC).
 */
export function contentLine(name: string, values: readonly IcsValue[], params: Readonly<Record<string, string>> = {}): string {
  const first = values[0];
  if (!first) throw new TypeError(`evcal: ${name} without a value`);
  const tzid = 'tzid' in first ? first.tzid : undefined;
  if (values.some((v) => v.type !== first.type || ('tzid' in v ? v.tzid : undefined) !== tzid)) {
    throw new TypeError(`evcal: the values of one ${name} line must have one type and one zone`);
  }
  const jcal: unknown[] = [name.toLowerCase(), { ...params, ...(tzid ? { tzid } : {}) }, first.type, ...values.map(jcalValue)];
  return foldLine(ICAL.stringify.property(jcal, DESIGN, true));
}

/** A component: BEGIN, its content lines (already folded, each without its line end), END. */
export function component(name: 'VEVENT' | 'VCALENDAR', lines: readonly string[]): string {
  return [`BEGIN:${name}`, ...lines, `END:${name}`, ''].join('\r\n');
}

// ---- helpers ----

/**
 * ical.js's iCalendar design, with the value types of the properties it does not know that
 * feeds carry: RFC 7986's NAME and the de facto calendar properties. REFRESH-INTERVAL stays
 * unknown to it: RFC 7986 asks for its `VALUE=DURATION`, which ical.js then writes.
 */
const DESIGN = {
  ...ICAL.design.icalendar,
  property: {
    ...ICAL.design.icalendar.property,
    name: { defaultType: 'text' },
    'x-wr-calname': { defaultType: 'text' },
    'x-published-ttl': { defaultType: 'duration' },
    'x-microsoft-cdo-alldayevent': { defaultType: 'text' },
    'x-microsoft-msncalendar-alldayevent': { defaultType: 'text' },
  },
} as typeof ICAL.design.icalendar;

function jcalValue(v: IcsValue): unknown {
  switch (v.type) {
    case 'date':
    case 'date-time':
      return v.value.toString();
    case 'duration':
      return v.value.toString();
    case 'recur':
      return v.value.toJSON();
    case 'float':
      return [...v.value];
    default:
      return v.value;
  }
}
