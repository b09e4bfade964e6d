// Expanding a series' recurrence into the starts of its occurrences.
//
// rrule-temporal evaluates the RRULE over wall clocks: the series' DTSTART is handed to it as
// a time in UTC, a zone without transitions, so every rule part (BYDAY, BYSETPOS, INTERVAL…)
// works on the local calendar exactly as RFC 5545 defines it, whatever the server's TZ. Each
// wall clock is then placed in the series' zone with core's one DST rule (time/zone.ts): a
// start in a spring-forward gap moves forward by the gap (its local start is the wall clock it
// moved to, as a single event's is), an ambiguous one takes the earlier instant. rrule-temporal in a real zone would instead drop a start in a gap (RFC 5545
// §3.3.10 read literally); Google Calendar, ical.js and libical keep it, and so does evcal: a
// weekly 02:30 event does not vanish on the night the clocks change (docs/recurrence.md).
// UNTIL, an instant, is compared with the placed starts. DTSTART is a start only when the rule
// gives it (as ical.js and rrule-temporal expand it; RFC 5545 leaves a DTSTART off the rule
// undefined); a series of RDATEs alone starts at its DTSTART.
import { RRuleTemporal } from 'rrule-temporal';
import { msg, type Message } from '../domain/messages';
import type { RecurrenceRecord } from '../model/records';
import { formatWall, parseWall, type WallClock } from '../time/wall-clock';
import { instantToWall, wallToInstant, type Zone } from '../time/zone';

/** One start a series' recurrence generates. */
export interface GeneratedStart {
  /** Local date "YYYY-MM-DD" of the wall clock generated: the occurrence's key. */
  readonly date: string;
  /**
   * Local start "YYYY-MM-DD HH:MM:SS": the wall clock generated, moved forward out of a
   * spring-forward gap (all-day series keep their midnight: their starts are dates).
   */
  readonly start: string;
  /** The instant of `start` in the series' zone. */
  readonly startUtc: number;
}

/** A start of a rule as generated, before it is placed: what an RRULE gives a calendar app. */
export interface RuleStart {
  readonly date: string;
  /** The wall clock the rule gives, "YYYY-MM-DD HH:MM:SS" (it may not exist in the zone, or exist twice). */
  readonly wall: string;
  /** Its instant in the series' zone. */
  readonly startUtc: number;
}

export interface Expansion {
  readonly starts: readonly GeneratedStart[];
  /** The rule has COUNT or UNTIL (or there is no rule): `starts` is the whole series. */
  readonly bounded: boolean;
}

/** A recurrence that cannot be expanded, with the reason for the client. */
export class RecurrenceProblem extends Error {
  constructor(readonly text: Message) {
    super(text.template);
  }
}

/** The RRULE parts RFC 5545 defines. */
const PARTS = new Set(['FREQ', 'UNTIL', 'COUNT', 'INTERVAL', 'BYSECOND', 'BYMINUTE', 'BYHOUR', 'BYDAY', 'BYMONTHDAY', 'BYYEARDAY',
  'BYWEEKNO', 'BYMONTH', 'BYSETPOS', 'WKST']);
const FREQS = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);

/**
 * The parts of an RRULE value, checked for what evcal expands: known parts, once each, a FREQ
 * of at most one occurrence a day, not both COUNT and UNTIL.
 */
export function ruleParts(rrule: string): Map<string, string> {
  const parts = new Map<string, string>();
  const text = rrule.trim().replace(/^RRULE:/i, '');
  for (const piece of text.split(';')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const name = (eq < 0 ? piece : piece.slice(0, eq)).trim().toUpperCase();
    const value = eq < 0 ? '' : piece.slice(eq + 1).trim().toUpperCase();
    if (!PARTS.has(name) || value === '' || parts.has(name)) throw new RecurrenceProblem(msg('The recurrence rule is not valid: {part}', { part: piece }));
    parts.set(name, value);
  }
  const freq = parts.get('FREQ');
  if (!freq) throw new RecurrenceProblem(msg('The recurrence rule is not valid: {part}', { part: 'FREQ' }));
  if (!FREQS.has(freq)) {
    if (['HOURLY', 'MINUTELY', 'SECONDLY'].includes(freq)) {
      throw new RecurrenceProblem(msg('A recurrence repeats at most daily (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY).'));
    }
    throw new RecurrenceProblem(msg('The recurrence rule is not valid: {part}', { part: `FREQ=${freq}` }));
  }
  if (parts.has('COUNT') && parts.has('UNTIL')) throw new RecurrenceProblem(msg('The recurrence rule is not valid: {part}', { part: 'COUNT + UNTIL' }));
  const count = parts.get('COUNT');
  if (count !== undefined && !/^[1-9]\d{0,5}$/.test(count)) throw new RecurrenceProblem(msg('The recurrence rule is not valid: {part}', { part: `COUNT=${count}` }));
  const interval = parts.get('INTERVAL');
  if (interval !== undefined && !/^[1-9]\d{0,4}$/.test(interval)) throw new RecurrenceProblem(msg('The recurrence rule is not valid: {part}', { part: `INTERVAL=${interval}` }));
  return parts;
}

/** The RRULE in a canonical text: upper case, parts in RFC 5545 order. */
export function formatRule(parts: ReadonlyMap<string, string>): string {
  return [...PARTS].filter((p) => parts.has(p)).map((p) => `${p}=${parts.get(p)}`).join(';');
}

/** The UNTIL of a rule as an instant, read as RFC 5545 says (UTC, or a date: its whole day in the zone). */
export function untilInstant(until: string, zone: Zone): number {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(until);
  const wall = m && parseWall(`${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '23'}:${m[5] ?? '59'}:${m[6] ?? '59'}`);
  if (!m || !wall) throw new RecurrenceProblem(msg('The recurrence rule is not valid: {part}', { part: `UNTIL=${until}` }));
  return m[7] ? Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) : wallToInstant(wall, zone);
}

/**
 * The starts of a series beginning at `first` (its DTSTART, a wall clock in `zone`): those of
 * the rule, plus RDATEs, less EXDATEs, sorted. An unbounded rule is expanded up to the instant
 * `horizon`. More than `max` starts is a problem, and so are two starts on one local date.
 * `dates`: the series is all-day, its starts are dates (not moved out of a gap at midnight).
 */
export function expandRecurrence(first: WallClock, zone: Zone, rec: Pick<RecurrenceRecord, 'rrule' | 'rdate' | 'exdate'>, horizon: number, max: number, dates = false): Expansion {
  const walls = new Set<string>();
  let bounded = true;
  let limit = Infinity;
  if (rec.rrule !== '') {
    const rule = ruleWalls(first, zone, rec.rrule, horizon, max);
    bounded = rule.bounded;
    limit = rule.limit;
    for (const wall of rule.walls) walls.add(wall);
  } else {
    walls.add(formatWall(first));
  }
  for (const r of rec.rdate) walls.add(r);
  const excluded = new Set(rec.exdate);
  const starts: GeneratedStart[] = [];
  for (const wall of [...walls].sort()) {
    const startUtc = wallToInstant(parseWall(wall)!, zone);
    const start = dates ? wall : formatWall(instantToWall(startUtc, zone));
    if (excluded.has(wall) || excluded.has(start) || excluded.has(wall.slice(0, 10))) continue;
    if (startUtc > limit && !rec.rdate.includes(wall)) continue;
    const last = starts[starts.length - 1];
    if (last && last.date === wall.slice(0, 10)) {
      throw new RecurrenceProblem(msg('A series has at most one occurrence a day: {date} has two.', { date: last.date }));
    }
    starts.push({ date: wall.slice(0, 10), start, startUtc });
  }
  if (starts.length > max) {
    throw new RecurrenceProblem(msg('A series may have at most {max} occurrences; this one has more. Give it a smaller COUNT, an earlier UNTIL or a longer INTERVAL.', { max }));
  }
  if (starts.length === 0) throw new RecurrenceProblem(msg('The recurrence has no occurrence.'));
  return { starts, bounded };
}

/**
 * The starts of an RRULE alone from `first` (no RDATE, no EXDATE), as a calendar app given
 * the rule generates them: wall clocks as the rule gives them, each with its instant in `zone`;
 * an unbounded rule up to the instant `until`, a bounded one whole (UNTIL applied).
 */
export function expandRule(first: WallClock, zone: Zone, rrule: string, until: number): RuleStart[] {
  const { walls, limit } = ruleWalls(first, zone, rrule, until, Number.MAX_SAFE_INTEGER);
  const out: RuleStart[] = [];
  for (const wall of [...walls].sort()) {
    const startUtc = wallToInstant(parseWall(wall)!, zone);
    if (startUtc <= limit) out.push({ date: wall.slice(0, 10), wall, startUtc });
  }
  return out;
}

/** The wall clocks of a rule, sorted, and the instant past which its starts are dropped (UNTIL, or the horizon of an unbounded rule). */
function ruleWalls(first: WallClock, zone: Zone, rrule: string, horizon: number, max: number): { walls: string[]; bounded: boolean; limit: number } {
  const walls: string[] = [];
  const parts = ruleParts(rrule);
  const bounded = parts.has('COUNT') || parts.has('UNTIL');
  const limit = parts.has('UNTIL') ? untilInstant(parts.get('UNTIL')!, zone) : bounded ? Infinity : horizon;
  // Wall clocks past the limit's (a day later: DST never moves a clock that far) end the walk.
  const stop = Number.isFinite(limit) ? formatWall(instantToWall(limit + 86_400_000, zone)) : '';
  parts.delete('UNTIL');
  let problem: unknown;
  try {
    const rule = new RRuleTemporal({ rruleString: `DTSTART;TZID=UTC:${compact(first)}\nRRULE:${formatRule(parts)}` });
    rule.all((dt) => {
      const wall = String(dt.toPlainDateTime().toString()).replace('T', ' ').slice(0, 19);
      if (stop !== '' && wall > stop) return false;
      walls.push(wall);
      return walls.length <= max;
    });
  } catch (error) {
    problem = error;
  }
  if (problem) throw new RecurrenceProblem(msg('The recurrence rule is not valid: {part}', { part: describe(problem) }));
  return { walls, bounded, limit };
}

// ---- helpers ----

/** "YYYYMMDDTHHMMSS" of a wall clock. */
export function compact(w: WallClock): string {
  return formatWall(w).replace(/[-:]/g, '').replace(' ', 'T');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
