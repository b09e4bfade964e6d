// The column scan: the most common query shape (statuses, hidden, featured and a date window)
// answered from the typed columns of an order of events, without calling core per event. Which
// queries are of that shape is core's to say (splitEventQuery over COLUMN_SCAN): a query with a
// key the columns do not answer, or one core does not know, takes the general path. Its
// conditions are exactly core's matchesEventQuery for that shape (the storage suite's
// differential test compares every answer).
import { splitEventQuery, type EventQuery, type EventQueryCoverage, type EventRecords, type InstantRange } from '@evcal/core/adapter';
import { FEATURED, HIDDEN, OCCURRENCE, SERIES, STATUS_BIT, type Ordered } from './ordered-events';

/** The keys the columns answer (records, statuses, the hidden and featured flags, start and end), and any sort and paging. */
export const COLUMN_SCAN = {
  records: true, statuses: true, excludeHidden: true, featured: true, start: true, end: true, sort: true, limit: true, offset: true,
  ownedBy: false, ids: false, search: false, categoryIds: false, tagIds: false, venueIds: false, organizerIds: false,
  parentId: false, ticketed: false, geo: false, modified: false,
} as const satisfies EventQueryCoverage;

/** The column-scan form of a query, when it has one. */
export interface ColumnQuery {
  /** Undefined: any record (a prefilter that knows nothing of the query's). */
  readonly records: EventRecords | undefined;
  readonly statusMask: number;
  readonly excludeHidden: boolean;
  readonly featured: boolean | undefined;
  readonly start: InstantRange | undefined;
  readonly end: InstantRange | undefined;
}

function isNumericRange(r: unknown): r is InstantRange {
  if (r === undefined) return true;
  if (r === null || typeof r !== 'object') return false;
  const { gt, gte, lt, lte } = r as InstantRange;
  return [gt, gte, lt, lte].every((b) => b === undefined || typeof b === 'number');
}

/** The status bits of a list of statuses (unknown ones match nothing). */
export function statusMaskOf(statuses: readonly string[]): number {
  let mask = 0;
  for (const s of statuses) mask |= STATUS_BIT.get(s) ?? 0;
  return mask;
}

/** The column form of `q` when the columns answer all of it (and its values have the types they compare). */
export function columnQuery(q: EventQuery): ColumnQuery | undefined {
  if (!splitEventQuery(q, COLUMN_SCAN).complete) return undefined;
  if (!Array.isArray(q.statuses) || !RECORDS.has(q.records)) return undefined;
  if (q.featured !== undefined && typeof q.featured !== 'boolean') return undefined;
  if (!isNumericRange(q.start) || !isNumericRange(q.end)) return undefined;
  return { records: q.records, statusMask: statusMaskOf(q.statuses), excludeHidden: Boolean(q.excludeHidden), featured: q.featured, start: q.start, end: q.end };
}

const RECORDS = new Set<unknown>(['listed', 'stored', 'series']);

/**
 * Conditions every match of `q` meets, in column form: the column filters core says hold of
 * every match whatever else the query asks (EventQuerySplit.necessary; not `statuses` when
 * `ownedBy` widens them, nothing when a key is unknown). A prefilter only: core's
 * matchesEventQuery decides.
 */
export function necessaryConditions(q: EventQuery): ColumnQuery {
  const n = splitEventQuery(q, COLUMN_SCAN).necessary;
  const range = (r: unknown) => (r !== null && typeof r === 'object' && isNumericRange(r) ? r : undefined);
  return {
    records: RECORDS.has(n.records) ? n.records : undefined,
    statusMask: Array.isArray(n.statuses) ? statusMaskOf(n.statuses) : 0xff,
    excludeHidden: n.excludeHidden === true,
    featured: typeof n.featured === 'boolean' ? n.featured : undefined,
    start: range(n.start),
    end: range(n.end),
  };
}

/**
 * core's matchesEventQuery for a query of the column shape, read from the columns. Bounds are
 * copied into fields of one class, so the scan loops stay monomorphic whatever shape the
 * query objects have.
 */
export class ColumnFilter {
  private readonly statusMask: number;
  /** Flags none of which a match has (hidden, and the records not read). */
  private readonly hiddenMask: number;
  /** Flags a match has (SERIES when reading series alone). */
  private readonly requiredMask: number;
  /** -1: any; else the FEATURED bit wanted. */
  private readonly featuredWant: number;
  private readonly sGt: number; private readonly sGte: number; private readonly sLt: number; private readonly sLte: number;
  private readonly eGt: number; private readonly eGte: number; private readonly eLt: number; private readonly eLte: number;
  /** Which of the eight bounds are present, one bit each (sGt, sGte, sLt, sLte, eGt, eGte, eLt, eLte). */
  private readonly bounds: number;
  /** Equal for two filters exactly when they match the same events. */
  readonly key: string;

  constructor(c: ColumnQuery) {
    this.statusMask = c.statusMask;
    const records = c.records === 'listed' ? SERIES : c.records === undefined ? 0 : OCCURRENCE;
    this.hiddenMask = (c.excludeHidden ? HIDDEN : 0) | records;
    this.requiredMask = c.records === 'series' ? SERIES : 0;
    this.featuredWant = c.featured === undefined ? -1 : c.featured ? FEATURED : 0;
    const s = c.start ?? {};
    const e = c.end ?? {};
    const values = [s.gt, s.gte, s.lt, s.lte, e.gt, e.gte, e.lt, e.lte];
    let bounds = 0;
    values.forEach((v, i) => {
      if (v !== undefined) bounds |= 1 << i;
    });
    this.bounds = bounds;
    [this.sGt, this.sGte, this.sLt, this.sLte, this.eGt, this.eGte, this.eLt, this.eLte] = values.map((v) => v ?? 0) as [
      number, number, number, number, number, number, number, number];
    this.key = `${this.statusMask} ${this.hiddenMask} ${this.requiredMask} ${this.featuredWant} ${bounds} ${values.join(' ')}`;
  }

  matches(o: Ordered, i: number): boolean {
    const flags = o.flags[i]!;
    if ((o.status[i]! & this.statusMask) === 0 || (flags & this.hiddenMask) !== 0 || (flags & this.requiredMask) !== this.requiredMask) return false;
    if (this.featuredWant >= 0 && (o.flags[i]! & FEATURED) !== this.featuredWant) return false;
    const b = this.bounds;
    if (b === 0) return true;
    const a = o.start[i]!;
    const z = o.end[i]!;
    return !((b & 1 && !(a > this.sGt)) || (b & 2 && !(a >= this.sGte)) || (b & 4 && !(a < this.sLt)) || (b & 8 && !(a <= this.sLte))
      || (b & 16 && !(z > this.eGt)) || (b & 32 && !(z >= this.eGte)) || (b & 64 && !(z < this.eLt)) || (b & 128 && !(z <= this.eLte)));
  }
}
