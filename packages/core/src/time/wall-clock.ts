// Wall-clock values: a calendar date and time of day with no zone attached, and the
// "YYYY-MM-DD HH:MM:SS" strings the wire format uses for them.

/** A calendar date and time of day, with no zone. Months are 1-12. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** The `*_date_details` object of the wire format: zero-padded strings. */
export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

const WALL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** `"YYYY-MM-DD HH:MM:SS"` of a wall clock. */
export function formatWall(w: WallClock): string {
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** Parses `"YYYY-MM-DD HH:MM:SS"`; `undefined` when the string is not of that form or not a real date. */
export function parseWall(s: string): WallClock | undefined {
  const m = WALL.exec(s);
  if (!m) return undefined;
  const w = {
    year: Number(m[1]), month: Number(m[2]), day: Number(m[3]),
    hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6]),
  };
  return isRealWall(w) ? w : undefined;
}

/** Whether the fields name a real calendar date and a time of day within 00:00:00-23:59:59. */
export function isRealWall(w: WallClock): boolean {
  if (![w.year, w.month, w.day, w.hour, w.minute, w.second].every(Number.isInteger)) return false;
  if (w.month < 1 || w.month > 12 || w.day < 1 || w.day > daysInMonth(w.year, w.month)) return false;
  return w.hour >= 0 && w.hour < 24 && w.minute >= 0 && w.minute < 60 && w.second >= 0 && w.second < 60;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The wall clock read as if it were UTC, in epoch milliseconds (an ordering key, not an instant). */
export function wallToEpochUtc(w: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
}

/** The UTC wall clock of an epoch-milliseconds instant. */
export function wallFromEpochUtc(ms: number): WallClock {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(),
  };
}

/** `"YYYY-MM-DD HH:MM:SS"` of an instant in UTC. */
export function formatUtc(ms: number): string {
  return formatWall(wallFromEpochUtc(ms));
}

/** The wall clock `days` calendar days later (or earlier), same time of day. */
export function addDays(w: WallClock, days: number): WallClock {
  return wallFromEpochUtc(wallToEpochUtc(w) + days * 86_400_000);
}

/** Calendar days from the date of one "YYYY-MM-DD…" string to that of another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

/** The same date at 00:00:00. */
export function startOfDay(w: WallClock): WallClock {
  return { year: w.year, month: w.month, day: w.day, hour: 0, minute: 0, second: 0 };
}

/** The same date at 23:59:59. */
export function endOfDay(w: WallClock): WallClock {
  return { year: w.year, month: w.month, day: w.day, hour: 23, minute: 59, second: 59 };
}

/** The `*_date_details` object cut from a `"YYYY-MM-DD HH:MM:SS"` string. */
export function dateDetails(s: string): DateDetails {
  return {
    year: s.slice(0, 4), month: s.slice(5, 7), day: s.slice(8, 10),
    hour: s.slice(11, 13), minutes: s.slice(14, 16), seconds: s.slice(17, 19),
  };
}

function pad(n: number, width = 2): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}
