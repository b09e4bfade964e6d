// One total order of the committed events, with columns (typed arrays) of what the common
// filters read: UTC start and end, a status bit and flags. The event index keeps two: by
// local start then id (the default sort of /events), and by UTC start then id (date windows
// select a slice of it).
import { eventComparator, POST_STATUSES, type EventRecord } from '@evcal/core/adapter';

/** One bit per post status, in the status column. */
export const STATUS_BIT = new Map<string, number>(POST_STATUSES.map((s, i) => [s, 1 << i]));
/** Bits of the flags column. */
export const HIDDEN = 1;
export const FEATURED = 2;
/** A series (listed through its occurrences) and an occurrence (not stored as such). */
export const SERIES = 4;
export const OCCURRENCE = 8;
export const LINK_FIELDS = ['categoryIds', 'tagIds', 'venueIds', 'organizerIds'] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

/** Local start, then id: core's order for `[startLocal asc, id asc]`, the default sort of lists. */
export const byLocal = eventComparator([{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }], { venue: () => undefined });
/** UTC start, then id. */
export const byStart = (a: EventRecord, b: EventRecord): number => a.startUtc - b.startUtc || a.id - b.id;

/** Whether an event fits the columns: what the column scan reads has the types core compares. */
export function regular(e: EventRecord): boolean {
  return typeof e.id === 'number' && Number.isFinite(e.id)
    && typeof e.startUtc === 'number' && typeof e.endUtc === 'number'
    && !Number.isNaN(e.startUtc) && !Number.isNaN(e.endUtc) && e.endUtc >= e.startUtc
    && typeof e.startLocal === 'string' && STATUS_BIT.has(e.status) && typeof e.featured === 'boolean'
    && LINK_FIELDS.every((f) => Array.isArray(e[f]));
}

/** Events in one total order, with columns of UTC start and end, status bit and flags. */
export class Ordered {
  recs: EventRecord[] = [];
  /** The cached folded search text of the event at each position (filled by searches). */
  texts: (string | undefined)[] = [];
  start = new Float64Array(0);
  end = new Float64Array(0);
  status = new Uint8Array(0);
  flags = new Uint8Array(0);

  constructor(readonly cmp: (a: EventRecord, b: EventRecord) => number) {}

  get size(): number {
    return this.recs.length;
  }

  rebuild(events: EventRecord[]): void {
    this.recs = events.sort(this.cmp);
    this.texts = [];
    this.allocate(Math.max(16, events.length + (events.length >> 3)));
    for (let i = 0; i < events.length; i++) this.write(i, events[i]!);
  }

  insert(e: EventRecord): void {
    const i = this.lowerBound(e);
    const n = this.recs.length;
    if (n === this.start.length) this.allocate(Math.max(16, n + (n >> 1)));
    this.start.copyWithin(i + 1, i, n);
    this.end.copyWithin(i + 1, i, n);
    this.status.copyWithin(i + 1, i, n);
    this.flags.copyWithin(i + 1, i, n);
    this.recs.splice(i, 0, e);
    if (this.texts.length > i) this.texts.splice(i, 0, undefined);
    this.write(i, e);
  }

  remove(e: EventRecord): void {
    const i = this.lowerBound(e);
    if (this.recs[i]?.id !== e.id) throw new Error(`evcal/memory: event ${e.id} missing from the index`);
    const n = this.recs.length;
    this.start.copyWithin(i, i + 1, n);
    this.end.copyWithin(i, i + 1, n);
    this.status.copyWithin(i, i + 1, n);
    this.flags.copyWithin(i, i + 1, n);
    this.recs.splice(i, 1);
    if (this.texts.length > i) this.texts.splice(i, 1);
  }

  /** The position of `e`, or -1. */
  indexOf(e: EventRecord): number {
    const i = this.lowerBound(e);
    return this.recs[i] === e ? i : -1;
  }

  /** The first position whose event does not sort before `e`. */
  private lowerBound(e: EventRecord): number {
    let lo = 0;
    let hi = this.recs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cmp(this.recs[mid]!, e) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first position whose UTC start is > (strict) or >= `value` (only for the UTC start order). */
  startBound(value: number, strict: boolean): number {
    let lo = 0;
    let hi = this.recs.length;
    const start = this.start;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (strict ? start[mid]! <= value : start[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private write(i: number, e: EventRecord): void {
    this.start[i] = e.startUtc;
    this.end[i] = e.endUtc;
    this.status[i] = STATUS_BIT.get(e.status)!;
    this.flags[i] = (e.hideFromListings ? HIDDEN : 0) | (e.featured ? FEATURED : 0) | (e.recurrence ? SERIES : 0) | (e.occurrence ? OCCURRENCE : 0);
  }

  private allocate(capacity: number): void {
    const n = this.recs.length;
    const grow = <T extends Float64Array | Uint8Array>(old: T, make: (c: number) => T): T => {
      const next = make(capacity);
      next.set(old.subarray(0, Math.min(n, old.length)));
      return next;
    };
    this.start = grow(this.start, (c) => new Float64Array(c));
    this.end = grow(this.end, (c) => new Float64Array(c));
    this.status = grow(this.status, (c) => new Uint8Array(c));
    this.flags = grow(this.flags, (c) => new Uint8Array(c));
  }
}
