// Indexes over the committed events, so that a list does not filter and sort every event:
//
// - two orders of the events, each with columns (typed arrays) of what the common filters
//   read: by local start then id (the default sort of `/events`), and by UTC start then id
//   (date windows select a slice of it);
// - postings: the events of each category, tag, venue and organizer;
// - the folded search texts of each event, computed on the first search that reads them.
//
// Every answer equals the core reference engine's (`runEventQuery`): candidates are a superset
// of the matches, each candidate is tested with core's `matchesEventQuery` and ordered with
// core's `compareEvents`. The one place that decides matches without calling core is the
// column scan of the most common query shape (statuses, hidden, featured and a date window),
// whose conditions are exactly core's; a query with any other filter takes the general path.
// Records that do not fit the columns (non-numeric instants, an end before the start, an
// unknown status…) are kept aside, are candidates of every query, and turn the column scan off.
import {
  compareEvents, matchesEventQuery, paginate, POST_STATUSES, runEventQuery, searchableTexts,
  type EventQuery, type EventQueryContext, type EventRecord, type InstantRange, type Page,
} from '@evcal/core';

const STATUS_BIT = new Map<string, number>(POST_STATUSES.map((s, i) => [s, 1 << i]));
const HIDDEN = 1;
const FEATURED = 2;
const LINK_FIELDS = ['categoryIds', 'tagIds', 'venueIds', 'organizerIds'] as const;
type LinkField = (typeof LINK_FIELDS)[number];
export const tuning = {
  /** Changes committed at once above this count rebuild the index instead of updating it. */
  bulkChanges: 512,
  /** A column-scan match set up to this size is ordered by a partial sort rather than by walking the local order. */
  smallMatchSet: 2048,
  /** How many totals of distinct filters are kept between changes. */
  cachedTotals: 64,
};
/** Separates the folded texts of an event in its cached search text; a word containing it is checked text by text. */
const SEPARATOR = '\u0000';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The same text, stored one byte per character when it is ASCII. Folding goes through NFKD,
 * which leaves V8 strings two bytes per character even once the marks are gone.
 */
function narrow(text: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u007f]/.test(text) ? text : decoder.decode(encoder.encode(text));
}

/** Local start, then id: core's order for `[startLocal asc, id asc]`. */
const byLocal = (a: EventRecord, b: EventRecord): number =>
  (a.startLocal < b.startLocal ? -1 : a.startLocal > b.startLocal ? 1 : a.id - b.id);
/** UTC start, then id. */
const byStart = (a: EventRecord, b: EventRecord): number => a.startUtc - b.startUtc || a.id - b.id;

/** Whether refs[i] occurs earlier in refs, compared as `includes` and Map keys compare (SameValueZero). */
function seenBefore(refs: readonly unknown[], i: number): boolean {
  const ref = refs[i];
  for (let j = 0; j < i; j++) if (refs[j] === ref || (refs[j] !== refs[j] && ref !== ref)) return true;
  return false;
}

/** Whether an event fits the columns: what the column scan reads has the types core compares. */
function regular(e: EventRecord): boolean {
  return typeof e.id === 'number' && Number.isFinite(e.id)
    && typeof e.startUtc === 'number' && typeof e.endUtc === 'number'
    && !Number.isNaN(e.startUtc) && !Number.isNaN(e.endUtc) && e.endUtc >= e.startUtc
    && typeof e.startLocal === 'string' && STATUS_BIT.has(e.status) && typeof e.featured === 'boolean'
    && LINK_FIELDS.every((f) => Array.isArray(e[f]));
}

/** Events in one total order, with columns of UTC start and end, status bit and flags. */
class Ordered {
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
    this.flags[i] = (e.hideFromListings ? HIDDEN : 0) | (e.featured ? FEATURED : 0);
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

/** The column-scan form of a query, when it has one. */
interface ColumnQuery {
  readonly statusMask: number;
  readonly excludeHidden: boolean;
  readonly featured: boolean | undefined;
  readonly start: InstantRange | undefined;
  readonly end: InstantRange | undefined;
}

const COLUMN_KEYS = new Set(['statuses', 'excludeHidden', 'featured', 'start', 'end', 'sort', 'limit', 'offset']);
/** The query keys of core's EventQuery whose meaning the prefilter relies on (see necessaryConditions). */
const KNOWN_KEYS = new Set([...COLUMN_KEYS, 'ownedBy', 'ids', 'search', 'categoryIds', 'tagIds', 'venueIds', 'organizerIds', 'parentId', 'ticketed', 'geo']);

function isNumericRange(r: unknown): r is InstantRange {
  if (r === undefined) return true;
  if (r === null || typeof r !== 'object') return false;
  const { gt, gte, lt, lte } = r as InstantRange;
  return [gt, gte, lt, lte].every((b) => b === undefined || typeof b === 'number');
}

/** The status bits of a list of statuses (unknown ones match nothing). */
function statusMaskOf(statuses: readonly string[]): number {
  let mask = 0;
  for (const s of statuses) mask |= STATUS_BIT.get(s) ?? 0;
  return mask;
}

function columnQuery(q: EventQuery): ColumnQuery | undefined {
  for (const [key, value] of Object.entries(q)) if (value !== undefined && !COLUMN_KEYS.has(key)) return undefined;
  if (!Array.isArray(q.statuses)) return undefined;
  if (q.featured !== undefined && typeof q.featured !== 'boolean') return undefined;
  if (!isNumericRange(q.start) || !isNumericRange(q.end)) return undefined;
  return { statusMask: statusMaskOf(q.statuses), excludeHidden: Boolean(q.excludeHidden), featured: q.featured, start: q.start, end: q.end };
}

/**
 * Conditions every match of `q` meets, in column form: its statuses (unless its owner's posts
 * may match with other statuses), hidden, featured and date bounds. A prefilter only.
 */
function necessaryConditions(q: EventQuery): ColumnQuery {
  // A key this code does not know might widen what matches: no prefilter then.
  for (const [key, value] of Object.entries(q)) {
    if (value !== undefined && !KNOWN_KEYS.has(key)) return { statusMask: 0xff, excludeHidden: false, featured: undefined, start: undefined, end: undefined };
  }
  const statusMask = Array.isArray(q.statuses) && (q as { ownedBy?: unknown }).ownedBy === undefined ? statusMaskOf(q.statuses) : 0xff;
  const range = (r: unknown) => (r !== null && typeof r === 'object' && isNumericRange(r) ? r : undefined);
  return {
    statusMask,
    excludeHidden: Boolean(q.excludeHidden),
    featured: typeof q.featured === 'boolean' ? q.featured : undefined,
    start: range(q.start),
    end: range(q.end),
  };
}

/** The paging of a query, when it is plain (non-negative integers). */
function plainPaging(q: EventQuery): { offset: number; limit: number | undefined } | undefined {
  const offset = q.offset ?? 0;
  const limit = q.limit;
  if (!Number.isInteger(offset) || offset < 0) return undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) return undefined;
  return { offset, limit };
}

/** The `k` first items of `items` in `cmp` order, sorted (a bounded max-heap). */
function firstK<T>(items: readonly T[], k: number, cmp: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  const heap: T[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && cmp(heap[l]!, heap[top]!) > 0) top = l;
      if (r < heap.length && cmp(heap[r]!, heap[top]!) > 0) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (cmp(heap[i]!, heap[p]!) <= 0) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (cmp(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(cmp);
}

/** One page of `matching` in `cmp` order (a total order), as core's sort-then-paginate gives it. */
function pageOf(matching: EventRecord[], q: EventQuery, cmp: (a: EventRecord, b: EventRecord) => number): EventRecord[] {
  const paging = plainPaging(q);
  if (paging && paging.limit !== undefined && (paging.offset + paging.limit) * 4 < matching.length) {
    return firstK(matching, paging.offset + paging.limit, cmp).slice(paging.offset);
  }
  matching.sort(cmp);
  return paginate(matching, q);
}

export class EventIndex {
  private stale = true;
  private readonly local = new Ordered(byLocal);
  private readonly utc = new Ordered(byStart);
  /** Events that do not fit the columns, by id. */
  private readonly irregular = new Map<number, EventRecord>();
  private readonly postings: Record<LinkField, Map<unknown, number[]>> = {
    categoryIds: new Map(), tagIds: new Map(), venueIds: new Map(), organizerIds: new Map(),
  };

  /**
   * Totals of column-scan queries since the last change, by their filter: a list asked again
   * (the same page of `/events`, or the next one) counts nothing. Any change empties it.
   */
  private readonly totals = new Map<string, number>();

  /** `rows`: the committed events, which this index follows through `update` and `invalidate`. */
  constructor(private readonly rows: ReadonlyMap<number, EventRecord>) {}

  /** Moves an event from its committed old version to its new one. */
  update(before: EventRecord | undefined, after: EventRecord | undefined): void {
    if (this.stale) return;
    this.totals.clear();
    if (before) this.remove(before);
    if (after) this.add(after);
  }

  /** Forgets everything; the next list rebuilds from the committed rows (after bulk changes). */
  invalidate(): void {
    if (this.stale) return;
    this.stale = true;
    this.totals.clear();
    this.local.rebuild([]);
    this.utc.rebuild([]);
    this.irregular.clear();
    for (const f of LINK_FIELDS) this.postings[f].clear();
  }

  /** One page of the committed events matching `query`, equal to `runEventQuery`'s. */
  list(query: EventQuery, ctx: EventQueryContext): Page<EventRecord> {
    const sort = query.sort;
    // Without a final id key the order of ties would depend on iteration order: leave it to core.
    if (!Array.isArray(sort) || sort.length === 0 || sort[sort.length - 1]?.field !== 'id') {
      return runEventQuery(this.rows.values(), query, ctx);
    }
    this.build();
    const columns = this.irregular.size === 0 ? columnQuery(query) : undefined;
    if (columns) {
      const page = this.columnList(query, columns, ctx);
      if (page) return page;
    }
    const { rest, words } = this.splitSearch(query);
    const matching: EventRecord[] = [];
    // Both tests are pure; the search, when there is one, rejects most events at less cost.
    const test = (e: EventRecord, at: number) =>
      (words === undefined || this.searchHit(e, at, words)) && matchesEventQuery(e, rest, ctx);
    const source = this.candidates(query);
    if (Array.isArray(source)) {
      for (const e of source) if (test(e, -1)) matching.push(e);
    } else {
      // A slice of the UTC order: the columns reject most non-matches before core's test.
      const o = this.utc;
      const necessary = new ColumnFilter(necessaryConditions(query));
      for (let i = source.lo; i < source.hi; i++) if (necessary.matches(o, i) && test(o.recs[i]!, i)) matching.push(o.recs[i]!);
      for (const e of this.irregular.values()) if (test(e, -1)) matching.push(e);
    }
    return { items: pageOf(matching, query, (a, b) => compareEvents(a, b, sort, ctx, query.geo)), total: matching.length };
  }

  // ---- maintenance ----

  private build(): void {
    if (!this.stale) return;
    this.stale = false;
    const local: EventRecord[] = [];
    for (const e of this.rows.values()) {
      if (regular(e)) local.push(e);
      else this.irregular.set(e.id, e);
    }
    this.utc.rebuild([...local]);
    this.local.rebuild(local);
    for (const e of this.rows.values()) if (regular(e)) this.link(e, 1);
  }

  private add(e: EventRecord): void {
    if (!regular(e)) {
      this.irregular.set(e.id, e);
      return;
    }
    this.local.insert(e);
    this.utc.insert(e);
    this.link(e, 1);
  }

  private remove(e: EventRecord): void {
    if (this.irregular.get(e.id) === e) {
      this.irregular.delete(e.id);
      return;
    }
    this.local.remove(e);
    this.utc.remove(e);
    this.link(e, -1);
  }

  private link(e: EventRecord, delta: 1 | -1): void {
    for (const field of LINK_FIELDS) {
      const refs = e[field];
      for (let i = 0; i < refs.length; i++) {
        const ref = refs[i]!;
        if (seenBefore(refs, i)) continue; // once per distinct reference
        const map = this.postings[field];
        let ids = map.get(ref);
        if (delta > 0) {
          if (!ids) map.set(ref, (ids = []));
          ids.push(e.id);
        } else if (ids) {
          const at = ids.lastIndexOf(e.id);
          if (at >= 0) {
            ids[at] = ids[ids.length - 1]!;
            ids.pop();
          }
          if (ids.length === 0) map.delete(ref);
        }
      }
    }
  }

  // ---- the general path ----

  /**
   * A superset of the events matching `q`, each once: the smallest of the sources the query
   * allows. A slice of the UTC order is returned as positions (irregular events come on top).
   */
  private candidates(q: EventQuery): EventRecord[] | { lo: number; hi: number } {
    let best: (() => EventRecord[]) | undefined;
    let bestSize = Infinity;
    const consider = (size: number, make: () => EventRecord[]) => {
      if (size < bestSize) {
        bestSize = size;
        best = make;
      }
    };
    if (Array.isArray(q.ids)) {
      const ids = q.ids;
      consider(ids.length, () => {
        const out: EventRecord[] = [];
        for (const id of new Set(ids)) {
          const e = this.rows.get(id);
          if (e) out.push(e);
        }
        return out;
      });
    }
    for (const field of LINK_FIELDS) {
      const refs = q[field];
      if (!Array.isArray(refs)) continue;
      const lists = [...new Set(refs)].map((ref) => this.postings[field].get(ref) ?? []);
      consider(lists.reduce((n, l) => n + l.length, 0) + this.irregular.size, () => {
        const ids = lists.length === 1 ? lists[0]! : [...new Set(lists.flat())];
        const out = ids.map((id) => this.rows.get(id)!);
        for (const e of this.irregular.values()) out.push(e);
        return out;
      });
    }
    const [lo, hi] = this.utcSlice(q.start, q.end);
    // Positions cost less than records taken from a list: prefer the slice on a near tie.
    if (best && bestSize * 2 < hi - lo + this.irregular.size) return best();
    return { lo, hi };
  }

  /**
   * The slice [lo, hi) of the UTC start order that can hold events within these bounds. An
   * event's end is never before its start here (irregular events are kept aside), so bounds on
   * the end also bound the start from above.
   */
  private utcSlice(start: unknown, end: unknown): [number, number] {
    const o = this.utc;
    let lo = 0;
    let hi = o.size;
    const num = (v: unknown): v is number => typeof v === 'number' && !Number.isNaN(v);
    if (start !== null && typeof start === 'object') {
      const s = start as InstantRange;
      if (num(s.gte)) lo = Math.max(lo, o.startBound(s.gte, false));
      if (num(s.gt)) lo = Math.max(lo, o.startBound(s.gt, true));
      if (num(s.lte)) hi = Math.min(hi, o.startBound(s.lte, true));
      if (num(s.lt)) hi = Math.min(hi, o.startBound(s.lt, false));
    }
    if (end !== null && typeof end === 'object') {
      const e = end as InstantRange;
      if (num(e.lte)) hi = Math.min(hi, o.startBound(e.lte, true));
      if (num(e.lt)) hi = Math.min(hi, o.startBound(e.lt, false));
    }
    return [lo, Math.max(lo, hi)];
  }

  /** The query without its search words when this index evaluates them (from cached folded texts). */
  private splitSearch(q: EventQuery): { rest: EventQuery; words?: readonly string[] } {
    const words = q.search;
    if (!Array.isArray(words) || !words.every((w) => typeof w === 'string')) return { rest: q };
    return { rest: { ...q, search: undefined }, words };
  }

  /**
   * core's everyWordInSome(words, searchableTexts(e)), over the event's texts folded once and
   * kept at its position in the UTC order (`at`, or -1 when the caller does not know it).
   */
  private searchHit(e: EventRecord, at: number, words: readonly string[]): boolean {
    const o = this.utc;
    const i = at >= 0 ? at : this.irregular.get(e.id) === e ? -1 : o.indexOf(e);
    let text = i >= 0 ? o.texts[i] : undefined;
    if (text === undefined) {
      text = narrow(searchableTexts(e).join(SEPARATOR));
      if (i >= 0) {
        // Grow the cache to this position (holes are filled by later searches).
        while (o.texts.length < i) o.texts.push(undefined);
        o.texts[i] = text;
      }
    }
    for (const w of words) {
      const found = w.includes(SEPARATOR) ? searchableTexts(e).some((t) => t.includes(w)) : text.includes(w);
      if (!found) return false;
    }
    return true;
  }

  // ---- the column scan ----

  /** Lists a query of the column shape; undefined when its sort or paging needs the general path. */
  private columnList(q: EventQuery, c: ColumnQuery, ctx: EventQueryContext): Page<EventRecord> | undefined {
    const paging = plainPaging(q);
    if (!paging) return undefined;
    const [lo, hi] = this.utcSlice(c.start, c.end);
    const o = this.utc;
    const f = new ColumnFilter(c);
    let total = this.totals.get(f.key);
    if (total === undefined) {
      total = 0;
      for (let i = lo; i < hi; i++) if (f.matches(o, i)) total++;
      if (this.totals.size >= tuning.cachedTotals) this.totals.clear();
      this.totals.set(f.key, total);
    }

    const sort = q.sort;
    const walk = sort.length === 2 && sort[0]!.field === 'startLocal' && sort[1]!.field === 'id'
      && (sort[0]!.direction === 'asc') === (sort[1]!.direction === 'asc');
    const asc = sort[0]!.direction === 'asc';
    if (paging.offset >= total || paging.limit === 0) return { items: [], total };
    const wanted = paging.limit === undefined ? total : Math.min(total, paging.offset + paging.limit);
    if (walk && total > tuning.smallMatchSet) {
      // Walk the local-start order (backwards for descending) until the page is complete.
      const l = this.local;
      const items: EventRecord[] = [];
      let seen = 0;
      for (let k = 0; k < l.size && seen < wanted; k++) {
        const i = asc ? k : l.size - 1 - k;
        if (!f.matches(l, i)) continue;
        if (seen++ >= paging.offset) items.push(l.recs[i]!);
      }
      return { items, total };
    }
    const matching: EventRecord[] = [];
    for (let i = lo; i < hi; i++) if (f.matches(o, i)) matching.push(o.recs[i]!);
    const cmp = walk
      ? (asc ? byLocal : (a: EventRecord, b: EventRecord) => byLocal(b, a))
      : (a: EventRecord, b: EventRecord) => compareEvents(a, b, sort, ctx, q.geo);
    return { items: pageOf(matching, q, cmp), total };
  }
}

/**
 * core's matchesEventQuery for a query of the column shape, read from the columns. Bounds are
 * copied into fields of one class, so the scan loops stay monomorphic whatever shape the
 * query objects have.
 */
class ColumnFilter {
  private readonly statusMask: number;
  private readonly hiddenMask: number;
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
    this.hiddenMask = c.excludeHidden ? HIDDEN : 0;
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
    this.key = `${this.statusMask} ${this.hiddenMask} ${this.featuredWant} ${bounds} ${values.join(' ')}`;
  }

  matches(o: Ordered, i: number): boolean {
    if ((o.status[i]! & this.statusMask) === 0 || (o.flags[i]! & this.hiddenMask) !== 0) return false;
    if (this.featuredWant >= 0 && (o.flags[i]! & FEATURED) !== this.featuredWant) return false;
    const b = this.bounds;
    if (b === 0) return true;
    const a = o.start[i]!;
    const z = o.end[i]!;
    return !((b & 1 && !(a > this.sGt)) || (b & 2 && !(a >= this.sGte)) || (b & 4 && !(a < this.sLt)) || (b & 8 && !(a <= this.sLte))
      || (b & 16 && !(z > this.eGt)) || (b & 32 && !(z >= this.eGte)) || (b & 64 && !(z < this.eLt)) || (b & 128 && !(z <= this.eLte)));
  }
}
