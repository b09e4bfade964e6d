// Evaluating a scanned PHP date-time text (php-time.ts) the way timelib_fill_holes and
// timelib_update_ts do: missing fields come from "now" in the text's zone, then "first/last day
// of", weekday moves and relative units are applied, then the zone.
import type { Fields, ParsedTime, Relative, State } from './php-time-state';
import { daysInMonth, wallFromEpochUtc, wallToEpochUtc } from './wall-clock';
import type { Zone } from './zone';
import { instantToWall, wallToInstant } from './zone';

const MAX_EPOCH_MS = 8.64e15;

export function evaluate(s: State, nowMs: number, evalZone: Zone): ParsedTime | undefined {
  // Relative parts are evaluated in the text's own zone when it names one.
  const zone = s.zone ?? evalZone;
  const now = instantToWall(nowMs, zone);
  // timelib_fill_holes: a date without a time is at midnight; what is still missing comes from now.
  const given: Partial<Fields> = s.haveDate && !s.haveTime ? { ...s.fields, hour: 0, minute: 0, second: 0 } : s.fields;
  const f: Fields = {
    year: given.year ?? now.year, month: given.month ?? now.month, day: given.day ?? now.day,
    hour: given.hour ?? now.hour, minute: given.minute ?? now.minute, second: given.second ?? now.second,
  };
  if (s.dayGiven && f.day > daysInMonth(f.year, f.month)) return undefined;
  applyDateRelative(f, s.rel);
  // Hours, minutes and seconds are added to the instant, so "+1 hour" is 3600 s even across DST.
  const { hour, minute, second } = s.rel;
  const epochMs = wallToInstant(f, zone) + ((hour * 60 + minute) * 60 + second) * 1000;
  if (!Number.isFinite(epochMs) || Math.abs(epochMs) > MAX_EPOCH_MS || epochMs === 0) return undefined;
  return {
    wall: instantToWall(epochMs, zone),
    frame: s.timestamp ? 'timestamp' : s.zone ? 'offset' : 'local',
    offsetMinutes: zone.offsetAt(epochMs),
    epochMs,
  };
}

/** do_adjust_special_early, do_adjust_relative and do_adjust_special of timelib, on the wall clock. */
function applyDateRelative(f: Fields, r: Relative): void {
  let months = r.month;
  if (r.special === 'dowInMonth' || r.special === 'lastDowInMonth') {
    // "last friday of" finds the first Friday of the next month, then steps back a week.
    f.day = 1;
    f.month += months + (r.special === 'lastDowInMonth' ? 1 : 0);
    months = 0;
  }
  firstLastDayOf(f, r.firstLast);
  normalize(f);
  if (r.weekday !== undefined) adjustForWeekday(f, r.weekday, r.weekdayBehavior, r.day);
  // No clamping: PHP lets Jan 31 + 1 month overflow to Mar 3.
  f.day += r.day;
  f.month += months;
  f.year += r.year;
  firstLastDayOf(f, r.firstLast);
  normalize(f);
  if (r.special === 'weekdays') {
    addWeekdays(f, r.specialAmount);
    normalize(f);
  }
}

function firstLastDayOf(f: Fields, which: Relative['firstLast']): void {
  if (which === 'first') f.day = 1;
  else if (which === 'last') {
    f.day = 0; // day 0 of the next month
    f.month++;
  }
}

/** do_adjust_for_weekday. */
function adjustForWeekday(f: Fields, weekday: number, behavior: number, relDays: number): void {
  const current = dayOfWeek(f);
  if (behavior === 2) {
    // Weeks run Monday to Sunday: a Sunday belongs to the week that started six days before.
    let target = weekday;
    if (current === 0 && target !== 0) target -= 7;
    if (target === 0 && current !== 0) target = 7;
    f.day += target - current;
    return;
  }
  let difference = weekday - current;
  if ((relDays < 0 && difference < 0) || (relDays >= 0 && difference <= -behavior)) difference += 7;
  f.day += weekday >= 0 ? difference : -(7 - (Math.abs(weekday) - current));
}

/** do_adjust_special_weekday: "+N weekdays" skips Saturdays and Sundays. */
function addWeekdays(f: Fields, count: number): void {
  const dow = dayOfWeek(f);
  const rem = count % 5;
  f.day += Math.trunc(count / 5) * 7;
  if (count > 0) {
    if (rem === 0) f.day -= dow === 0 ? 2 : dow === 6 ? 1 : 0;
    else if (dow === 6) f.day += 1;
    else if (dow + rem > 5) f.day += 2;
  } else if (rem === 0) f.day += dow === 6 ? 2 : dow === 0 ? 1 : 0;
  else if (dow === 0) f.day -= 1;
  else if (dow + rem < 1) f.day -= 2;
  f.day += rem;
}

/** Carries overflowing fields (month 13, day 0, day 31 of February...) into the next ones. */
function normalize(f: Fields): void {
  Object.assign(f, wallFromEpochUtc(wallToEpochUtc(f)));
}

function dayOfWeek(f: Fields): number {
  return new Date(wallToEpochUtc(f)).getUTCDay();
}
