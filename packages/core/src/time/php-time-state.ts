// The state a PHP date-time text leaves once scanned (php-time.ts), before it is evaluated
// against "now" (php-time-evaluate.ts): timelib's fields, zone and relative parts.
import type { WallClock } from './wall-clock';
import type { Zone } from './zone';

/** How a parsed text fixed its zone. */
export type TimeFrame =
  | 'local' // the text named no zone or offset: its wall clock is in the evaluation zone
  | 'offset' // the text carried an explicit offset or zone ("Z", "+02:00", "EST", "Europe/Rome", ...)
  | 'timestamp'; // a Unix timestamp (a number, a numeric string, or "@1757700000"): UTC

export interface ParsedTime {
  /** The wall clock in the text's own frame: the evaluation zone for 'local', the explicit offset/zone for 'offset', UTC for 'timestamp'. */
  readonly wall: WallClock;
  readonly frame: TimeFrame;
  /** UTC offset in minutes of `wall` (east positive) at that instant: for 'local' the evaluation zone's offset, for 'timestamp' 0. */
  readonly offsetMinutes: number;
  /** The instant, epoch milliseconds (fractional seconds truncated toward the floor second). */
  readonly epochMs: number;
}

export type Fields = { -readonly [K in keyof WallClock]: number };

/** timelib's `relative`: amounts per unit plus the weekday / special / first-last-day moves. */
export interface Relative extends Fields {
  weekday: number | undefined; // 0 = Sunday ... 6; negative after "ago"
  weekdayBehavior: number; // 0: strictly after today, 1: today counts, 2: within the Monday-Sunday week
  special: 'dowInMonth' | 'lastDowInMonth' | 'weekdays' | undefined;
  specialAmount: number;
  firstLast: 'first' | 'last' | undefined;
}

export interface State {
  readonly fields: Partial<Fields>; // as written; `undefined` ones come from now
  haveDate: boolean;
  haveTime: boolean;
  dayGiven: boolean; // the text named a day of month, which must then exist
  zone: Zone | undefined;
  timestamp: boolean;
  readonly rel: Relative;
}

export function newState(): State {
  return {
    fields: {}, haveDate: false, haveTime: false, dayGiven: false, zone: undefined, timestamp: false,
    rel: {
      year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0,
      weekday: undefined, weekdayBehavior: 0, special: undefined, specialAmount: 0, firstLast: undefined,
    },
  };
}
