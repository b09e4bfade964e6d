// The total of an event list without counting its rows one by one. Events that last between
// 0 and 7 days are counted per UTC day of their start in evcal_event_days (migration 0006,
// kept by triggers); a list's total is then the sum of the days whose events all match, plus
// exact counts of the few days at the edges of its window that its end bounds cut through,
// plus an exact count of the events counted nowhere (longer, or ending before they start,
// which are few). The day counts answer the keys of DAY_COUNTS; core's splitEventQuery says
// whether a list has any other (or one core does not know), and such lists are counted exactly.
import { splitEventQuery, type EventQuery, type EventQueryCoverage, type InstantRange } from '@evcal/core/adapter';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { eventsOf, eventWhere } from './compile';
import type { SqlDialect } from './dialect';
import type { EvcalDatabase } from './schema';

const DAY = 86_400_000;
/** The longest event counted per day (migration 0006's LONG). */
const DAY_COUNTED_MS = 7 * DAY;

type Db = Kysely<EvcalDatabase>;

/**
 * What the day counts keep: listed records by status, hidden flag, UTC start day and at most
 * one category or tag (values checked in dayCountPlan). Sort and paging do not change a total.
 */
export const DAY_COUNTS = {
  records: true, statuses: true, excludeHidden: true, start: true, end: true, categoryIds: true, tagIds: true,
  sort: true, limit: true, offset: true,
  ownedBy: false, ids: false, search: false, venueIds: false, organizerIds: false, featured: false, parentId: false,
  ticketed: false, geo: false, modified: false,
} as const satisfies EventQueryCoverage;

/** The number of events matching `q` (paging aside), in one statement. */
export async function countEvents(db: Db, d: SqlDialect, q: EventQuery): Promise<number> {
  const plan = dayCountPlan(q);
  if (!plan) return Number((await exactCount(db, d, q).executeTakeFirstOrThrow()).n);
  // Literally as in migration 0006: the partial index of the uncounted events is found by it.
  const counted = sql<boolean>`e.end_utc - e.start_utc between 0 and ${sql.lit(DAY_COUNTED_MS)}`;
  const parts = [
    ...(plan.days ? [sumDays(db, q, plan.days)] : []),
    ...plan.exact.map((start) => exactCount(db, d, { ...q, start }, counted)),
    // The events no day counts: longer ones, or ending before they start.
    exactCount(db, d, q, sql<boolean>`not (${counted})`),
  ];
  const row = await db.selectNoFrom(parts.map((part, i) => part.as(`n${i}`))).executeTakeFirstOrThrow() as Record<string, unknown>;
  return Object.values(row).reduce<number>((sum, n) => sum + Number(n ?? 0), 0);
}

interface DayCountPlan {
  /** Days [from, to] (either open when infinite) whose every counted event matches. */
  readonly days?: { readonly from: number; readonly to: number };
  /** Start ranges whose counted events are counted one by one. */
  readonly exact: readonly InstantRange[];
}

/**
 * How to count `q` from the day counts, or undefined when it has a filter they do not keep.
 * With the start in [A, B] and the end in [C, E], an event counted per day starts in
 * [max(A, C - 7 days), min(B, E)] if it matches at all; one starting on day d (in
 * [s0, s0 + DAY)) ends in [s0, s0 + DAY + 7 days), so the whole day matches when that day
 * lies in the start range and those ends in [C, E]. The days around C and E, and the partial
 * days at either end of the start range, are counted exactly.
 */
function dayCountPlan(q: EventQuery): DayCountPlan | undefined {
  if (!splitEventQuery(q, DAY_COUNTS).complete) return undefined;
  // One category or one tag at most; an empty list matches nothing, which no day counts.
  const terms = [q.categoryIds, q.tagIds].filter((ids) => ids !== undefined);
  if (q.records !== 'listed' || terms.length > 1 || terms.some((ids) => ids.length !== 1)) return undefined;
  const [a, b] = closed(q.start);
  const [c, e] = closed(q.end);
  if ([a, b, c, e].some(Number.isNaN)) return undefined;
  const lo = Math.max(a, c - DAY_COUNTED_MS);
  const hi = Math.min(b, e);
  if (lo > hi) return { exact: [] };
  const first = Math.max(Math.ceil(lo / DAY), Math.ceil(c / DAY));
  const last = Math.min(Math.floor((hi + 1) / DAY) - 1, Math.floor((e - DAY_COUNTED_MS - DAY + 1) / DAY));
  if (first > last) return { exact: [open(lo, hi)] };
  return {
    days: { from: first, to: last },
    exact: [
      ...(Number.isFinite(first) && lo <= first * DAY - 1 ? [open(lo, first * DAY - 1)] : []),
      ...(Number.isFinite(last) && (last + 1) * DAY <= hi ? [open((last + 1) * DAY, hi)] : []),
    ],
  };
}

/** The sum of the day counts of the query's statuses, hidden flag and term, over the days. */
function sumDays(db: Db, q: EventQuery, days: { from: number; to: number }) {
  const [kind, ref] = q.categoryIds?.length ? ['category', q.categoryIds[0]!] : q.tagIds?.length ? ['tag', q.tagIds[0]!] : ['', 0];
  let query = db.selectFrom('evcal_event_days')
    .select((eb) => eb.fn.sum<number>('n').as('n'))
    .where('kind', '=', kind as '' | 'category' | 'tag')
    .where('ref_id', '=', ref)
    .where('status', 'in', q.statuses.length ? [...q.statuses] : ['']);
  if (Number.isFinite(days.from)) query = query.where('day', '>=', days.from);
  if (Number.isFinite(days.to)) query = query.where('day', '<=', days.to);
  // A series' own row is counted under hidden 2 or 3 (migration 0009): never a listed event.
  return query.where('hidden', q.excludeHidden ? '=' : '<', q.excludeHidden ? 0 : 2);
}

/** The exact count of the events matching `q` (and `also`). */
function exactCount(db: Db, d: SqlDialect, q: EventQuery, also?: RawBuilder<boolean>) {
  const query = eventsOf(db, q, d).where(eventWhere(q, d));
  return (also ? query.where(also) : query).select((eb) => eb.fn.countAll<number>().as('n'));
}

// ---- helpers ----

/** A range as closed integer bounds [lo, hi] (instants are whole milliseconds); ±Infinity when open. */
function closed(r: InstantRange | undefined): [number, number] {
  let lo = -Infinity;
  let hi = Infinity;
  if (r?.gte !== undefined) lo = Math.max(lo, Math.ceil(r.gte));
  if (r?.gt !== undefined) lo = Math.max(lo, Math.floor(r.gt) + 1);
  if (r?.lte !== undefined) hi = Math.min(hi, Math.floor(r.lte));
  if (r?.lt !== undefined) hi = Math.min(hi, Math.ceil(r.lt) - 1);
  return [lo, hi];
}

/** The range [lo, hi] as an InstantRange, infinite bounds left out. */
function open(lo: number, hi: number): InstantRange {
  return { ...(Number.isFinite(lo) ? { gte: lo } : {}), ...(Number.isFinite(hi) ? { lte: hi } : {}) };
}
