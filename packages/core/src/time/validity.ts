// How long something computed from the clock stays what it is: an interval of instants
// [from, until) during which computing it again gives the same result. A list whose dates are
// absolute holds forever; the default window (from yesterday, for two years) holds for its UTC
// day; `tomorrow` for the day in its zone; `now` or `+1 hour` for the second (dates are whole
// seconds). What is kept of a list is kept for the interval its plan holds (plan-cache.ts).
import { addDays, startOfDay } from './wall-clock';
import { instantToWall, wallToInstant, type Zone } from './zone';

/** The instants [from, until) over which a result computed from the clock stays the same. */
export interface Validity {
  readonly from: number;
  readonly until: number;
}

const DAY = 86_400_000;

/** A result that does not read the clock. */
export const ALWAYS: Validity = Object.freeze({ from: -Infinity, until: Infinity });

/** Whether a result computed over `v` still holds at `now`. */
export function holdsAt(v: Validity, now: number): boolean {
  return v.from <= now && now < v.until;
}

/** What holds over both. */
export function narrowed(a: Validity, b: Validity): Validity {
  if (a === ALWAYS) return b;
  if (b === ALWAYS) return a;
  return { from: Math.max(a.from, b.from), until: Math.min(a.until, b.until) };
}

/** A result that reads the UTC date of `now`. */
export function utcDayOf(now: number): Validity {
  const from = Math.floor(now / DAY) * DAY;
  return { from, until: from + DAY };
}

/** A result that reads the date of `now` in `zone` (its local day, 23 or 25 hours long around a DST change). */
export function localDayOf(now: number, zone: Zone): Validity {
  const today = startOfDay(instantToWall(now, zone));
  const from = wallToInstant(today, zone);
  const until = wallToInstant(addDays(today, 1), zone);
  // A zone whose midnight falls in a gap starts its day later, when it starts: never in doubt here.
  return from <= now && now < until ? { from, until } : secondOf(now);
}

/** A result that reads the time of `now` to the second. */
export function secondOf(now: number): Validity {
  const from = Math.floor(now / 1000) * 1000;
  return { from, until: from + 1000 };
}

/** A result that reads `now` to the millisecond: it holds for that millisecond alone. */
export function instantOf(now: number): Validity {
  return { from: now, until: now + 1 };
}
