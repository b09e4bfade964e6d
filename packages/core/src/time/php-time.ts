// Date-time texts read the way PHP's strtotime() reads them (behaviour reference: "Is a time").
//
// The text is scanned the way timelib's re2c scanner does it: at each position every rule is
// tried, the longest match wins and ties go to the earlier rule. A rule only records what it read
// (absolute fields, a zone, relative amounts) in a `State`; `evaluate` then does what
// timelib_fill_holes and timelib_update_ts do: missing fields come from "now" in the text's
// zone, then "first/last day of", weekday moves and relative units are applied, then the zone.
import type { Zone } from './zone';
import { fixedOffsetZone, resolveZone } from './zone';
import { evaluate } from './php-time-evaluate';
import { newState, type Fields, type ParsedTime, type Relative, type State } from './php-time-state';
import { ALWAYS, localDayOf, secondOf, type Validity } from './validity';

export type { ParsedTime, TimeFrame } from './php-time-state';

export interface ParseTimeOptions {
  /** "now", epoch ms or Date: the reference for relative expressions. */
  readonly now: number | Date;
  /** Zone name (anything resolveZone accepts) in which texts without an explicit zone are read and relative expressions are evaluated. */
  readonly timeZone: string;
}

/**
 * Parses a date-time the way PHP's strtotime() accepts it (behaviour reference: "Is a time").
 * Returns undefined when the value is not a time: empty or blank strings, unparsable text,
 * impossible dates (month 13, day 32, Feb 30, hour 25...), and anything that resolves to the
 * instant 0 (1970-01-01 00:00:00 UTC), which PHP treats as false.
 */
export function parsePhpTime(value: unknown, options: ParseTimeOptions): ParsedTime | undefined {
  const zone = resolveZone(options.timeZone);
  if (!zone) throw new TypeError(`parsePhpTime: unknown time zone ${JSON.stringify(options.timeZone)}`);
  const now = options.now instanceof Date ? options.now.getTime() : options.now;
  if (typeof now !== 'number' || !Number.isFinite(now)) throw new TypeError('parsePhpTime: `now` is not a valid instant');
  let state: State | undefined;
  if (typeof value === 'number') state = Number.isFinite(value) ? timestampState(value) : undefined;
  else if (typeof value === 'string') state = recentText(value);
  return state && evaluate(state, now, zone);
}

/**
 * How long the reading of a time text at `options.now` holds as the clock moves: always when
 * the text names every field (a date and a time, a timestamp); for the day of `now` in the
 * text's zone when it names a time but takes its date from today (`tomorrow`, `midnight`,
 * `monday`); for the second otherwise (`now`, `+1 hour`). Undefined when it is not a time.
 */
export function timeValidity(value: unknown, options: ParseTimeOptions): Validity | undefined {
  const zone = resolveZone(options.timeZone);
  const now = options.now instanceof Date ? options.now.getTime() : options.now;
  let state: State | undefined;
  if (typeof value === 'number') state = Number.isFinite(value) ? timestampState(value) : undefined;
  else if (typeof value === 'string') state = recentText(value);
  if (!state || !zone) return undefined;
  // As evaluate fills them: a date without a time is at midnight, what is still missing comes from now.
  const given: Partial<Fields> = state.haveDate && !state.haveTime ? { ...state.fields, hour: 0, minute: 0, second: 0 } : state.fields;
  const timeGiven = given.hour !== undefined && given.minute !== undefined && given.second !== undefined;
  if (!timeGiven) return secondOf(now);
  return given.year !== undefined && given.month !== undefined && given.day !== undefined ? ALWAYS : localDayOf(now, state.zone ?? zone);
}

// A write reads each of its dates twice, in validation (is it a time?) and in the operation
// (in the event's zone): the scan of the last few texts is kept, since it depends on the text
// alone (`evaluate` only reads a state). Scanning a date costs about 10 µs.
const RECENT_TEXTS = 16;
const recentStates = new Map<string, State | undefined>();

function recentText(text: string): State | undefined {
  if (recentStates.has(text)) return recentStates.get(text);
  const state = parseText(text);
  if (recentStates.size >= RECENT_TEXTS) recentStates.delete(recentStates.keys().next().value!);
  recentStates.set(text, state);
  return state;
}

const UTC: Zone = fixedOffsetZone('UTC', 0);

/** A timestamp is timelib's "@N": 1970-01-01 00:00:00 UTC plus N seconds as a relative part. */
function timestampState(seconds: number): State {
  const s = newState();
  applyTimestamp(s, seconds);
  return s;
}

function parseText(text: string): State | undefined {
  const trimmed = text.trim();
  if (/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(trimmed)) {
    // PHP reads an 8- or 14-digit number as a compact date (YYYYMMDD[HHMMSS]) when it is one.
    const compact = /^(?:\d{8}|\d{14})$/.test(trimmed) ? scan(trimmed) : undefined;
    return compact ?? timestampState(Number(trimmed));
  }
  return scan(trimmed);
}

// ---- scanner ----

type Action = (s: State, m: RegExpExecArray) => boolean | void; // false rejects the whole text
interface Rule {
  readonly re: RegExp;
  readonly action: Action;
}

function scan(text: string): State | undefined {
  const s = newState();
  let pos = 0;
  let tokens = 0;
  while (pos < text.length) {
    // timelib skips blanks, commas and dots between tokens.
    if (/[\s,.]/.test(text.charAt(pos))) {
      pos++;
      continue;
    }
    let best: { rule: Rule; match: RegExpExecArray } | undefined;
    for (const rule of RULES) {
      rule.re.lastIndex = pos;
      const match = rule.re.exec(text);
      if (match && match[0].length > (best?.match[0].length ?? 0)) best = { rule, match };
    }
    if (!best || best.rule.action(s, best.match) === false) return undefined;
    pos += best.match[0].length;
    tokens++;
  }
  return tokens > 0 ? s : undefined;
}

// ---- vocabulary ----

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10,
  nov: 11, november: 11, dec: 12, december: 12,
};
const DAYS: Record<string, number> = {
  sun: 0, sunday: 0, mon: 1, monday: 1, tue: 2, tuesday: 2, wed: 3, wednesday: 3,
  thu: 4, thursday: 4, fri: 5, friday: 5, sat: 6, saturday: 6,
};
/** timelib_reltext_lookup: [amount, weekday behavior]. */
const REL_TEXT: Record<string, readonly [number, number]> = {
  first: [1, 0], next: [1, 0], second: [2, 0], third: [3, 0], fourth: [4, 0], fifth: [5, 0], sixth: [6, 0],
  seventh: [7, 0], eight: [8, 0], eighth: [8, 0], ninth: [9, 0], tenth: [10, 0], eleventh: [11, 0],
  twelfth: [12, 0], last: [-1, 0], previous: [-1, 0], this: [0, 1],
};
type Unit = { readonly field: keyof Fields; readonly n: number } | { readonly weekday: number } | { readonly weekdays: true };
const UNITS: Record<string, Unit> = { weekday: { weekdays: true }, weekdays: { weekdays: true } };
for (const [names, field, n] of [
  [['sec', 'second'], 'second', 1], [['min', 'minute'], 'minute', 1], [['hour'], 'hour', 1],
  [['day'], 'day', 1], [['week'], 'day', 7], [['fortnight', 'forthnight'], 'day', 14],
  [['month'], 'month', 1], [['year'], 'year', 1],
] as const) {
  for (const name of names) UNITS[name] = UNITS[`${name}s`] = { field, n };
}
for (const [name, weekday] of Object.entries(DAYS)) UNITS[name] = { weekday };

/** Common zone abbreviations, as fixed offsets in minutes (ambiguous ones such as IST left out). */
const ABBREVIATIONS: Record<string, number> = {
  utc: 0, gmt: 0, ut: 0, z: 0, wet: 0, west: 60, bst: 60, cet: 60, cest: 120, eet: 120, eest: 180,
  msk: 180, sgt: 480, hkt: 480, awst: 480, jst: 540, kst: 540, acst: 570, acdt: 630, aest: 600,
  aedt: 660, nzst: 720, nzdt: 780, hst: -600, akst: -540, akdt: -480, pst: -480, pdt: -420,
  mst: -420, mdt: -360, cst: -360, cdt: -300, est: -300, edt: -240, ast: -240, adt: -180,
  nst: -210, ndt: -150,
};

/** An alternation of the words, longest first so that "september" is not read as "sep". */
const alt = (words: Record<string, unknown>): string =>
  `(?:${Object.keys(words).sort((a, b) => b.length - a.length).join('|')})`;
const MONTH = alt(MONTHS);
const DAY = alt(DAYS);
const UNIT = alt(UNITS);
const RELTEXT = alt(REL_TEXT);
const DAYNUM = '(\\d{1,2})(?:st|nd|rd|th)?';
const SEP = '[ .\\t-]*';
const END = '(?![a-z])';

const rule = (source: string, action: Action): Rule => ({ re: new RegExp(source, 'iy'), action });

// In the order timelib lists its rules, which decides between matches of equal length
// (so "12.09.26" is a time, as in PHP).
const RULES: readonly Rule[] = [
  rule('@([+-]?\\d+(?:\\.\\d+)?)', (s, m) => (s.haveDate || s.haveTime || s.zone ? false : applyTimestamp(s, num(m, 1)))),
  rule(`(first|last)\\s+day\\s+of${END}`, (s, m) => {
    s.rel.firstLast = word(m, 1) === 'first' ? 'first' : 'last';
  }),
  rule(`(${RELTEXT})\\s+(${DAY})\\s+of${END}`, weekdayOf),
  // 12-hour times: 8pm, 8 pm, 8:30pm, 8:30:15 p.m.
  rule(`t?(1[0-2]|0?[1-9])(?:[:.]([0-5]\\d)(?:[:.]([0-5]\\d))?)?\\s*([ap])\\.?m\\.?${END}`, (s, m) =>
    setTime(s, (num(m, 1) % 12) + (word(m, 4) === 'p' ? 12 : 0), opt(m, 2) ?? 0, opt(m, 3) ?? 0)),
  // 24-hour times, with the ISO "T" and ignored fractions: 20:00, T20:00:05.123
  rule('t?(2[0-3]|[01]?\\d)[:.]([0-5]\\d)(?:[:.]([0-5]\\d)(?:[.,]\\d+)?)?(?!\\d)', (s, m) =>
    setTime(s, num(m, 1), num(m, 2), opt(m, 3) ?? 0)),
  rule('(\\d{4})(\\d{2})(\\d{2})(?:t?([01]\\d|2[0-3])([0-5]\\d)([0-5]\\d))?(?!\\d)', (s, m) =>
    setDate(s, num(m, 1), num(m, 2), num(m, 3)) && (m[4] === undefined || setTime(s, num(m, 4), num(m, 5), num(m, 6)))),
  rule('(\\d{4})([-/])(\\d{1,2})\\2(\\d{1,2})(?!\\d)', (s, m) => setDate(s, num(m, 1), num(m, 3), num(m, 4))),
  rule('(\\d{4})-(\\d{1,2})(?![\\d-])', (s, m) => setDate(s, num(m, 1), num(m, 2), 1)), // 2026-09
  rule('(\\d{1,2})/(\\d{1,2})(?:/(\\d{4}|\\d{2}))?(?!\\d)', (s, m) => setDate(s, year(m, 3), num(m, 1), num(m, 2))),
  rule('(\\d{1,2})[.-](\\d{1,2})[.-](\\d{4})(?!\\d)', (s, m) => setDate(s, num(m, 3), num(m, 2), num(m, 1))),
  rule('(\\d{1,2})\\.(\\d{1,2})\\.(\\d{2})(?!\\d)', (s, m) => setDate(s, year(m, 3), num(m, 2), num(m, 1))),
  rule(`${DAYNUM}${SEP}(${MONTH})${SEP}(\\d{4})(?!\\d)`, (s, m) => setDate(s, num(m, 3), month(m, 2), num(m, 1))),
  rule(`${DAYNUM}${SEP}(${MONTH})${END}`, (s, m) => setDate(s, undefined, month(m, 2), num(m, 1))),
  rule(`(${MONTH})${SEP}${DAYNUM}[,.\\s]*(\\d{4})(?!\\d)`, (s, m) => setDate(s, num(m, 3), month(m, 1), num(m, 2))),
  rule(`(${MONTH})${SEP}${DAYNUM}(?![\\d:a-z])`, (s, m) => setDate(s, undefined, month(m, 1), num(m, 2))),
  rule(`(${MONTH})${SEP}(\\d{4})(?!\\d)`, (s, m) => setDate(s, num(m, 2), month(m, 1), 1)),
  rule(`(\\d{4})${SEP}(${MONTH})${END}`, (s, m) => setDate(s, num(m, 1), month(m, 2), 1)),
  // A month alone keeps today's day of month, unchecked (PHP rolls "february" on the 30th over).
  rule(`(${MONTH})${END}`, (s, m) => setDate(s, undefined, month(m, 1), undefined)),
  rule(`(now|today|midnight|noon|tomorrow|yesterday)${END}`, keyword),
  rule(`(next|last|previous|this)\\s+week${END}`, (s, m) => {
    // "next week" is a Monday-Sunday week: Monday of it unless a weekday is named as well.
    s.rel.day += 7 * relText(m, 1)[0];
    s.rel.weekdayBehavior = 2;
    s.rel.weekday ??= 1;
  }),
  rule(`(${RELTEXT})\\s+(${UNIT})${END}`, (s, m) => {
    const [amount, behavior] = relText(m, 1);
    setRelative(s, amount, behavior, unit(m, 2), false);
  }),
  rule(`([+-]*)[ \\t]*(\\d{1,13})\\s*(${UNIT})${END}`, (s, m) => {
    const negative = ((m[1] ?? '').split('-').length - 1) % 2 === 1;
    setRelative(s, negative ? -num(m, 2) : num(m, 2), 1, unit(m, 3), true);
  }),
  rule(`ago${END}`, (s) => ago(s.rel)),
  rule(`(${DAY})${END}`, (s, m) => {
    unhaveTime(s);
    s.rel.weekday = DAYS[word(m, 1)];
    if (s.rel.weekdayBehavior !== 2) s.rel.weekdayBehavior = 1;
  }),
  rule('(?:gmt|utc)?([+-])(\\d{1,2})(?::?([0-5]\\d))?(?!\\d)', (s, m) => {
    const minutes = num(m, 2) * 60 + (opt(m, 3) ?? 0);
    return minutes <= 14 * 60 && setZone(s, fixedOffsetZone(m[0], m[1] === '-' ? -minutes : minutes));
  }),
  rule(`(${alt(ABBREVIATIONS)})${END}`, (s, m) => setZone(s, fixedOffsetZone(word(m, 1).toUpperCase(), ABBREVIATIONS[word(m, 1)] ?? 0))),
  rule('[a-z][a-z_]*(?:/[a-z0-9_+-]+)+', (s, m) => {
    const zone = resolveZone(m[0]);
    return zone !== undefined && setZone(s, zone);
  }),
];

// ---- rule actions ----

function setDate(s: State, y: number | undefined, m: number, d: number | undefined): boolean {
  if (s.haveDate || m < 1 || m > 12 || (d !== undefined && (d < 1 || d > 31))) return false;
  Object.assign(s.fields, { year: y, month: m, day: d });
  s.haveDate = true;
  s.dayGiven = d !== undefined;
  return true;
}

function setTime(s: State, hour: number, minute: number, second: number): boolean {
  if (s.haveTime) return false; // "Double time specification"
  Object.assign(s.fields, { hour, minute, second });
  s.haveTime = true;
  return true;
}

/** TIMELIB_UNHAVE_TIME: today, tomorrow, weekday names... put the time at 00:00:00 but let a later time set it. */
function unhaveTime(s: State): void {
  Object.assign(s.fields, { hour: 0, minute: 0, second: 0 });
  s.haveTime = false;
}

function setZone(s: State, zone: Zone): boolean {
  if (s.zone) return false;
  s.zone = zone;
  return true;
}

function applyTimestamp(s: State, seconds: number): void {
  Object.assign(s.fields, { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
  s.haveDate = s.haveTime = s.timestamp = true;
  s.zone = UTC;
  s.rel.second += Math.floor(seconds);
}

function keyword(s: State, m: RegExpExecArray): boolean | void {
  const w = word(m, 1);
  if (w === 'now') return;
  // Like PHP these reset any time read before them: "9am tomorrow" is tomorrow 00:00.
  unhaveTime(s);
  if (w === 'noon') return setTime(s, 12, 0, 0);
  if (w === 'tomorrow' || w === 'yesterday') s.rel.day = w === 'tomorrow' ? 1 : -1;
}

/** "first monday of", "last friday of": counted from the 1st of the (following) month. */
function weekdayOf(s: State, m: RegExpExecArray): void {
  const [amount, behavior] = relText(m, 1);
  s.rel.special = amount > 0 ? 'dowInMonth' : 'lastDowInMonth';
  setRelative(s, amount, amount > 0 ? 1 : behavior, unit(m, 2), false);
}

/** timelib_set_relative; `keepTime` is false for the worded forms ("next monday" is at 00:00). */
function setRelative(s: State, amount: number, behavior: number, u: Unit, keepTime: boolean): void {
  if ('field' in u) {
    s.rel[u.field] += amount * u.n;
    return;
  }
  if (!keepTime) unhaveTime(s);
  if ('weekdays' in u) {
    s.rel.special = 'weekdays';
    s.rel.specialAmount = amount;
    return;
  }
  s.rel.day += (amount > 0 ? amount - 1 : amount) * 7;
  s.rel.weekday = u.weekday;
  s.rel.weekdayBehavior = behavior;
}

/** "ago" negates every relative amount read so far. */
function ago(r: Relative): void {
  for (const k of ['year', 'month', 'day', 'hour', 'minute', 'second'] as const) r[k] = -r[k];
  if (r.weekday !== undefined) r.weekday = -r.weekday || -7;
  if (r.special === 'weekdays') r.specialAmount = -r.specialAmount;
}

// ---- helpers ----

const num = (m: RegExpExecArray, i: number): number => Number(m[i]);
const opt = (m: RegExpExecArray, i: number): number | undefined => (m[i] === undefined ? undefined : Number(m[i]));
const word = (m: RegExpExecArray, i: number): string => (m[i] ?? '').toLowerCase();
const month = (m: RegExpExecArray, i: number): number => MONTHS[word(m, i)] ?? 0;
const unit = (m: RegExpExecArray, i: number): Unit => UNITS[word(m, i)] ?? { field: 'day', n: 0 };
const relText = (m: RegExpExecArray, i: number): readonly [number, number] => REL_TEXT[word(m, i)] ?? [0, 0];

/** A written year: two digits are 1970-2069, as in PHP. */
function year(m: RegExpExecArray, i: number): number | undefined {
  const text = m[i];
  if (text === undefined) return undefined;
  const n = Number(text);
  return text.length > 2 ? n : n < 70 ? 2000 + n : 1900 + n;
}
