// How a series is written in a feed so that every calendar parser shows its occurrences where
// evcal does (docs/icalendar.md#series; the parser matrix, packages/cli/test/ical-matrix, reads
// every shape with five parsers):
//
// - Its rule is a VEVENT with RRULE and EXDATE (the occurrences the caller does not see) when
//   every start the rule gives is a wall clock all parsers place at evcal's instant: it exists
//   once in the zone (not in a skipped or a repeated hour), and the zone's VTIMEZONE gives it
//   evcal's offset. Parsers place a skipped or repeated wall clock each by its own rule, and
//   disagree on EXDATEs naming one (feed-zones.ts), so such a series is not written as a rule.
// - Every other occurrence the caller sees is a VEVENT of its own, with its own UID: the
//   starts a series adds to its rule (RDATE: node-ical 0.26 ignores the property, ical.js
//   drops DTSTART from a set of RDATEs without a rule), and every occurrence of a series whose
//   rule cannot be written exactly (a start in a skipped or repeated hour, a zone whose
//   VTIMEZONE misplaces it, a fixed offset). A series without an end is then written up to the
//   last occurrence stored (the recurrence horizon, docs/recurrence.md#the-horizon).
// - An occurrence changed on its own (an exception) of a written rule is a VEVENT with the
//   series' UID and a RECURRENCE-ID, as RFC 5545 has it.
import ICAL from 'ical.js';
import type { EventRecord } from '../model/records';
import { ruleParts, untilInstant, type RuleStart } from '../recurrence/expand';
import { addDays, daysBetween, formatWall, parseWall } from '../time/wall-clock';
import { instantToWall, resolveZone, wallToInstant, type Zone } from '../time/zone';
import { feedZone, type FeedZone } from './feed-zones';
import { utcValue, zonedValue, type IcsTime } from './ical-props';
import { dateOf, placeInstant, vevent, type FeedEventContent, type ZonesUsed } from './vevent';

/** The occurrences of a series as a feed shows them. */
export interface SeriesSet {
  /**
   * The starts of the series' RRULE alone, as the rule generates them (none without a rule):
   * all of them when the rule ends, else up to the last occurrence stored, and on to the last
   * EXDATE.
   */
  readonly rule: readonly RuleStart[];
  /** Dates of `rule` starts apps must not show: occurrences the caller does not see (trashed, excluded, not visible). */
  readonly excluded: ReadonlySet<string>;
  /** The occurrences the caller sees, with what they show. */
  readonly shown: readonly ShownOccurrence[];
}

export interface ShownOccurrence {
  readonly event: EventRecord;
  readonly content: FeedEventContent;
}

/** The VEVENTs of a series: its rule with its exceptions when it can be written exactly, and every other occurrence on its own. */
export function seriesVevents(series: EventRecord, content: FeedEventContent, set: SeriesSet, used: ZonesUsed): string {
  const plan = rulePlan(series, set);
  const out: string[] = [];
  if (plan && (plan.open || set.rule.some((s) => !set.excluded.has(s.date)))) {
    const first = set.rule[0]!;
    const days = daysBetween(series.startLocal, series.endLocal);
    const times: [IcsTime, IcsTime] = series.allDay
      ? [dateOf(first.wall), dateOf(first.wall, days + 1)]
      : [instanceOf(first, plan, used), placeInstant(first.startUtc + (series.endUtc - series.startUtc), plan.zone, used)];
    const exdates = set.rule.filter((s) => set.excluded.has(s.date)).map((s) => instanceOf(s, plan, used));
    out.push(vevent(series, content, used, { times, rrule: recurOf(series), exdates }));
  }
  for (const o of set.shown) {
    const start = plan?.byDate.get(o.event.occurrence!.date);
    if (!start) out.push(vevent(o.event, o.content, used));
    else if (o.event.occurrence!.overrides) out.push(vevent(o.event, { ...o.content, uid: content.uid }, used, { recurrenceId: instanceOf(start, plan!, used) }));
  }
  return out.join('');
}

/**
 * One occurrence alone (`GET /events/{occurrence}.ics`): a VEVENT with the series' UID and its
 * RECURRENCE-ID, the start the series' rule gives it as the feed writes the rule, else the
 * instant evcal generated it at (a date for all-day series).
 */
export function occurrenceVevent(series: EventRecord, content: FeedEventContent, set: SeriesSet, target: ShownOccurrence, used: ZonesUsed): string {
  const occurrence = target.event.occurrence!;
  const plan = rulePlan(series, set);
  const start = plan?.byDate.get(occurrence.date);
  const recurrenceId = start ? instanceOf(start, plan!, used)
    : series.allDay ? dateOf(occurrence.date)
      : utcValue(wallToInstant(parseWall(occurrence.originalStart)!, resolveZone(series.timezone)!));
  return vevent(target.event, { ...target.content, uid: content.uid }, used, { recurrenceId });
}

// ---- helpers ----

interface RulePlan {
  /** The zone the rule is written in (timed series). */
  readonly zone?: FeedZone;
  readonly byDate: ReadonlyMap<string, RuleStart>;
  /** The rule has no COUNT or UNTIL: apps expand it past the starts listed. */
  readonly open: boolean;
}

/** How the series' rule is written, or undefined when it is not (no rule, or a start no VTIMEZONE places exactly). */
function rulePlan(series: EventRecord, set: SeriesSet): RulePlan | undefined {
  const rrule = series.recurrence?.rrule ?? '';
  if (rrule === '' || set.rule.length === 0) return undefined;
  const parts = ruleParts(rrule);
  const plan = { byDate: new Map(set.rule.map((s) => [s.date, s])), open: !parts.has('COUNT') && !parts.has('UNTIL') };
  if (series.allDay) return plan;
  const zone = feedZone(series.timezone);
  if (!zone || !set.rule.every((s) => formatWall(instantToWall(s.startUtc, zone.zone)) === s.wall && zone.exact(s.startUtc))) return undefined;
  return { ...plan, zone };
}

/** A start of the rule as the feed names it (DTSTART, EXDATE, RECURRENCE-ID): its date, or its wall clock in the rule's zone. */
function instanceOf(start: RuleStart, plan: RulePlan, used: ZonesUsed): IcsTime {
  if (!plan.zone) return dateOf(start.wall);
  used.add(plan.zone);
  return zonedValue(parseWall(start.wall)!, plan.zone.tzid);
}

/**
 * The series' RRULE, part by part as ical.js writes it. UNTIL is written as RFC 5545 asks for
 * DTSTART's type: a date for an all-day series (the last date whose midnight is not past
 * evcal's UNTIL), else the instant evcal reads it as, in UTC.
 */
function recurOf(series: EventRecord): ICAL.Recur {
  const zone = resolveZone(series.timezone)!;
  const data: Parameters<typeof ICAL.Recur.fromData>[0] & Record<string, unknown> = {};
  for (const [name, value] of ruleParts(series.recurrence!.rrule)) {
    const list = value.split(',');
    if (name === 'FREQ') data.freq = value as typeof data.freq;
    else if (name === 'COUNT') data.count = Number(value);
    else if (name === 'INTERVAL') data.interval = Number(value);
    else if (name === 'WKST') data.wkst = ICAL.Recur.icalDayToNumericDay(value) as typeof data.wkst;
    else if (name === 'UNTIL') data.until = series.allDay ? lastDate(untilInstant(value, zone), zone) : utcValue(untilInstant(value, zone)).value;
    else if (name === 'BYDAY') data.byday = list;
    else data[name.toLowerCase()] = list.map(Number);
  }
  return ICAL.Recur.fromData(data);
}

/** The last date whose midnight in `zone` is not after `limit`. */
function lastDate(limit: number, zone: Zone): ICAL.Time {
  let w = { ...instantToWall(limit, zone), hour: 0, minute: 0, second: 0 };
  if (wallToInstant(w, zone) > limit) w = addDays(w, -1);
  return dateOf(formatWall(w)).value;
}
