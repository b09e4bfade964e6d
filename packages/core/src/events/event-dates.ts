// The date window of `GET /events` (behaviour reference: "Date filtering: the exact algorithm" with
// evcal's decisions in "Date windows compare UTC instants"/"Effective defaults"): defaults computed
// per request, whole-day bounds unless `strict_dates`, relative bounds switching the defaults off,
// and `include` keeping the default window. Every bound ends up as a UTC instant compared with the
// events' UTC start and end.
import type { InstantRange } from '../query/query-types';
import { boundDate, readingValidity, strictInstant } from '../time/interpret';
import { ALWAYS, narrowed, secondOf, utcDayOf, type Validity } from '../time/validity';
import { addDays, daysInMonth, endOfDay, formatWall, startOfDay, wallFromEpochUtc, type WallClock } from '../time/wall-clock';
import { instantToWall, wallToInstant, type Zone } from '../time/zone';

export const DATE_PARAMS = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;
export type DateParam = (typeof DATE_PARAMS)[number];

export interface DateWindowInput {
  /** The date values the client sent (validated). */
  readonly values: Partial<Record<DateParam, unknown>>;
  readonly strict: boolean;
  /** `include` was given: the window is the raw default window. */
  readonly include: boolean;
  readonly site: Zone;
  readonly now: number;
}

export interface DateWindow {
  readonly start?: InstantRange;
  readonly end?: InstantRange;
  /** Each applied bound as a site-zone wall clock, for `rest_url`. */
  readonly shown: Partial<Record<DateParam, string>>;
  /** While the clock stays within it, the window is the same (validity.ts). */
  readonly validity: Validity;
}

export function dateWindow({ values, strict, include, site, now }: DateWindowInput): DateWindow {
  const relative = DATE_PARAMS.slice(2).some((p) => values[p] !== undefined);
  const bounds: Partial<Record<DateParam, number>> = {};
  let validity = ALWAYS;
  const read = (param: DateParam) => {
    validity = narrowed(validity, readingValidity(values[param], site, now));
    return bound(param, values[param], strict, site, now);
  };

  // Defaults D0 ("yesterday 23:59" in UTC, seen in the site zone) and D1 (now + 24 months, UTC digits).
  const d0 = Date.UTC(...ymdOf(wallFromEpochUtc(now - 86_400_000)), 23, 59, 0);
  const d1Wall = plusTwoYears(wallFromEpochUtc(now));
  for (const param of ['start_date', 'end_date'] as const) {
    const given = values[param];
    if (relative && given === undefined) continue;
    if (include || (given === undefined && strict)) {
      // `include` drops the client's dates and re-adds the raw defaults, not day-aligned: D1 to the second.
      bounds[param] = param === 'start_date' ? d0 : wallToInstant(d1Wall, site);
      validity = narrowed(validity, param === 'start_date' ? utcDayOf(now) : secondOf(now));
    } else if (given !== undefined) {
      bounds[param] = read(param);
    } else {
      const day = param === 'start_date' ? instantToWall(d0, site) : d1Wall;
      bounds[param] = wallToInstant(param === 'start_date' ? startOfDay(day) : endOfDay(day), site);
      // Day-aligned defaults read the UTC date alone.
      validity = narrowed(validity, utcDayOf(now));
    }
  }
  for (const param of DATE_PARAMS.slice(2)) {
    if (values[param] !== undefined) bounds[param] = read(param);
  }

  const start: { gt?: number; gte?: number; lt?: number } = {};
  const end: { lt?: number; lte?: number; gt?: number } = {};
  if (bounds.start_date !== undefined) start.gte = bounds.start_date;
  if (bounds.starts_after !== undefined) start.gt = bounds.starts_after;
  if (bounds.starts_before !== undefined) start.lt = bounds.starts_before;
  if (bounds.end_date !== undefined) end.lte = bounds.end_date;
  if (bounds.ends_after !== undefined) end.gt = bounds.ends_after;
  if (bounds.ends_before !== undefined) end.lt = bounds.ends_before;
  const shown: Partial<Record<DateParam, string>> = {};
  for (const param of DATE_PARAMS) {
    const instant = bounds[param];
    if (instant !== undefined) shown[param] = formatWall(instantToWall(instant, site));
  }
  return {
    ...(Object.keys(start).length ? { start } : {}),
    ...(Object.keys(end).length ? { end } : {}),
    shown,
    validity,
  };
}

/**
 * One bound as an instant. Strict: the value itself (a naive value in the site zone).
 * Inclusive: the site-zone day of the value — its first second for `start_date`, its last
 * second for every other bound (so `starts_after=D` means from D+1).
 */
function bound(param: DateParam, value: unknown, strict: boolean, site: Zone, now: number): number {
  if (strict) return strictInstant(value, site, now);
  const day = boundDate(value, site, now);
  return wallToInstant(param === 'start_date' ? startOfDay(day) : endOfDay(day), site);
}

function ymdOf(w: WallClock): [number, number, number] {
  return [w.year, w.month - 1, w.day];
}

/** "+24 months" as PHP computes it: 29 February overflows into 1 March. */
function plusTwoYears(w: WallClock): WallClock {
  const moved = { ...w, year: w.year + 2 };
  return moved.day > daysInMonth(moved.year, moved.month) ? addDays({ ...moved, day: daysInMonth(moved.year, moved.month) }, 1) : moved;
}
