// Occurrence ids (docs/recurrence.md). An occurrence's id is derived from two things that do
// not change while it exists: the id its series' occurrences are numbered from (the series'
// own id, or for a series split off another with "this and following", that one's), and the
// local date (in the series' zone) the rule generated it on. Neither the time of day nor an
// edit of the series moves it:
//
//     id = day number of the date × 2^31 + series id
//
// where the day number counts from 0001-01-01 = 1 (proleptic Gregorian, Python's
// `date.toordinal()`). Post ids are at most 2^31 − 1 (MAX_ID), so every occurrence id is
// larger than every post id (the day number is at least 1), and the largest (9999-12-31,
// series 2^31 − 1) is below 2^53: a JSON number every client reads exactly. A series has at
// most one occurrence per local date, which is what makes the date a key.
import { MAX_ID } from './records';

const SPAN = 2 ** 31;
/** The day number of 1970-01-01. */
const EPOCH_ORDINAL = 719_163;
const DAY = 86_400_000;

/** The id of the occurrence of series `base` generated on `date` ("YYYY-MM-DD"). */
export function occurrenceId(base: number, date: string): number {
  return dayNumber(date) * SPAN + base;
}

/** Whether an id can only name an occurrence (it is above every post id). */
export function isOccurrenceId(id: number): boolean {
  return Number.isSafeInteger(id) && id > MAX_ID;
}

/** The series id and local date an occurrence id is made of; undefined for other ids. */
export function decodeOccurrenceId(id: number): { base: number; date: string } | undefined {
  if (!isOccurrenceId(id)) return undefined;
  const base = id % SPAN;
  const day = (id - base) / SPAN;
  if (base < 1 || day < 1) return undefined;
  const date = new Date((day - EPOCH_ORDINAL) * DAY);
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  return { base, date: `${String(year).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}` };
}

/** The day number of a "YYYY-MM-DD" date: 0001-01-01 is 1. */
export function dayNumber(date: string): number {
  const d = new Date(0);
  d.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return Math.round(d.getTime() / DAY) + EPOCH_ORDINAL;
}
