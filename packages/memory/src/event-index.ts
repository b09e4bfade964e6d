// Indexes over the committed events, so that a list does not filter and sort every event:
//
// - two orders of the events, each with columns (typed arrays) of what the common filters
//   read: by local start then id (the default sort of `/events`), and by UTC start then id
//   (date windows select a slice of it);
// - postings: the events of each category, tag, venue and organizer;
// - the folded search texts of each event, computed on the first search that reads them.
//
// Every answer equals the core reference engine's (`runEventQuery`): candidates are a superset
// of the matches (read from the filters core says every match satisfies), each candidate is
// tested with core's `matchesEventQuery` (its search words with core's `searchTextMatches`,
// over texts kept here) and ordered with core's comparator. The one place that decides matches
// without calling core is the column scan of the most common query shape (column-scan.ts),
// which answers only what core's `splitEventQuery` gives it; a query with any other key
// takes the general path, so a new filter in core needs nothing here.
// Records that do not fit the columns (non-numeric instants, an end before the start, an
// unknown status…) are kept aside, are candidates of every query, and turn the column scan off.
import {
  eventComparator, eventSearchText, matchesEventQuery, runEventQuery, searchTextMatches, splitEventQuery, type EventQuery,
  type EventQueryContext, type EventQueryCoverage, type EventRecord, type InstantRange, type Page,
} from '@evcal/core/adapter';
import { ColumnFilter, columnQuery, necessaryConditions, type ColumnQuery } from './column-scan';
import { byLocal, byStart, LINK_FIELDS, Ordered, regular, type LinkField } from './ordered-events';

/**
 * What the general path reads candidates from (ids, the postings of links, the UTC order's
 * slice of a date window), and its search through kept texts; the rest is core's test alone.
 */
const CANDIDATES = {
  ids: true, categoryIds: true, tagIds: true, venueIds: true, organizerIds: true, start: true, end: true, search: true,
  records: false, statuses: false, ownedBy: false, excludeHidden: false, featured: false, parentId: false, ticketed: false,
  geo: false, modified: false, sort: false, limit: false, offset: false,
} as const satisfies EventQueryCoverage;
import { pageOf, plainPaging } from './paging';

export const tuning = {
  /** Changes committed at once above this count rebuild the index instead of updating it. */
  bulkChanges: 512,
  /** A column-scan match set up to this size is ordered by a partial sort rather than by walking the local order. */
  smallMatchSet: 2048,
  /** How many totals of distinct filters are kept between changes. */
  cachedTotals: 64,
};

/** The indexes of one storage's committed events; `list` answers as core's runEventQuery does. */
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
    const necessary = splitEventQuery(query, CANDIDATES).necessary;
    const { rest, words } = this.splitSearch(query, necessary);
    const matching: EventRecord[] = [];
    // Both tests are pure; the search, when there is one, rejects most events at less cost.
    const test = (e: EventRecord, at: number) =>
      (words === undefined || this.searchHit(e, at, words)) && matchesEventQuery(e, rest, ctx);
    const source = this.candidates(necessary);
    if (Array.isArray(source)) {
      for (const e of source) if (test(e, -1)) matching.push(e);
    } else {
      // A slice of the UTC order: the columns reject most non-matches before core's test.
      const o = this.utc;
      const prefilter = new ColumnFilter(necessaryConditions(query));
      for (let i = source.lo; i < source.hi; i++) if (prefilter.matches(o, i) && test(o.recs[i]!, i)) matching.push(o.recs[i]!);
      for (const e of this.irregular.values()) if (test(e, -1)) matching.push(e);
    }
    return { items: pageOf(matching, query, eventComparator(sort, ctx, query.geo)), total: matching.length };
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
   * A superset of the events matching a query whose necessary conditions (EventQuerySplit) are
   * `q`, each once: the smallest of the sources they allow. A slice of the UTC order is
   * returned as positions (irregular events come on top).
   */
  private candidates(q: Partial<EventQuery>): EventRecord[] | { lo: number; hi: number } {
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
  private splitSearch(q: EventQuery, necessary: Partial<EventQuery>): { rest: EventQuery; words?: readonly string[] } {
    const words = necessary.search;
    if (!Array.isArray(words) || !words.every((w) => typeof w === 'string')) return { rest: q };
    return { rest: { ...q, search: undefined }, words };
  }

  /**
   * core's search condition (searchTextMatches) over the event's eventSearchText, folded once
   * and kept at its position in the UTC order (`at`, or -1 when the caller does not know it).
   */
  private searchHit(e: EventRecord, at: number, words: readonly string[]): boolean {
    const o = this.utc;
    const i = at >= 0 ? at : this.irregular.get(e.id) === e ? -1 : o.indexOf(e);
    let text = i >= 0 ? o.texts[i] : undefined;
    if (text === undefined) {
      text = narrow(eventSearchText(e));
      if (i >= 0) {
        // Grow the cache to this position (holes are filled by later searches).
        while (o.texts.length < i) o.texts.push(undefined);
        o.texts[i] = text;
      }
    }
    return searchTextMatches(words, text, e);
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
    return { items: pageOf(matching, q, eventComparator(sort, ctx, q.geo)), total };
  }
}

// ---- helpers ----

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

/** Whether refs[i] occurs earlier in refs, compared as `includes` and Map keys compare (SameValueZero). */
function seenBefore(refs: readonly unknown[], i: number): boolean {
  const ref = refs[i];
  for (let j = 0; j < i; j++) if (refs[j] === ref || (Number.isNaN(refs[j]) && Number.isNaN(ref))) return true;
  return false;
}
