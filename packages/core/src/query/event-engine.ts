// The reference semantics of an event query, as pure functions. The memory and file
// adapters run them; the SQL adapter must return the same pages (the storage test suite
// compares them).
import type { EventRecord, PostRecord, PostStatus, VenueRecord } from '../model/records';
import type { EventQuery, EventSortKey, GeoFilter, InstantRange, OwnedBy, Page } from './query-types';
import { everyWordInSome, foldText } from './text-match';
import { formatUtc } from '../time/wall-clock';

/** What evaluating an event query needs beyond the events themselves. */
export interface EventQueryContext {
  /** The venue with this id, for geographic filters. */
  venue(id: number): VenueRecord | undefined;
}

/** Whether an event satisfies every filter of the query (paging and sort aside). */
export function matchesEventQuery(event: EventRecord, query: EventQuery, ctx: EventQueryContext): boolean {
  if (!recordsMatch(event, query.records)) return false;
  if (!statusMatches(event, query)) return false;
  if (query.excludeHidden && event.hideFromListings) return false;
  if (query.ids && !query.ids.includes(event.id)) return false;
  if (query.start && !inRange(event.startUtc, query.start)) return false;
  if (query.end && !inRange(event.endUtc, query.end)) return false;
  if (query.search && !everyWordInSome(query.search, searchableTexts(event))) return false;
  if (query.categoryIds && !intersects(event.categoryIds, query.categoryIds)) return false;
  if (query.tagIds && !intersects(event.tagIds, query.tagIds)) return false;
  if (query.venueIds && !intersects(event.venueIds, query.venueIds)) return false;
  if (query.organizerIds && !intersects(event.organizerIds, query.organizerIds)) return false;
  if (query.featured !== undefined && event.featured !== query.featured) return false;
  if (query.parentId !== undefined && event.parentId !== query.parentId) return false;
  if (query.ticketed !== undefined && (event.ticketed ?? false) !== query.ticketed) return false;
  if (query.geo && eventDistanceKm(event, query.geo, ctx) === undefined) return false;
  if (query.modified && !modifiedIn(event.modifiedUtc, query.modified)) return false;
  return true;
}

/** Orders two events by the query's sort keys. */
export function compareEvents(a: EventRecord, b: EventRecord, sort: readonly EventSortKey[], ctx: EventQueryContext, geo?: GeoFilter): number {
  for (const key of sort) {
    const c = compareBy(a, b, key, ctx, geo);
    if (c !== 0) return key.direction === 'asc' ? c : -c;
  }
  return 0;
}

/**
 * `compareEvents` for one sort, as one function: the local start order of lists (the default
 * sort, either way) compared without going through the keys.
 */
export function eventComparator(sort: readonly EventSortKey[], ctx: EventQueryContext, geo?: GeoFilter): (a: EventRecord, b: EventRecord) => number {
  const [first, second] = sort;
  if (sort.length === 2 && first?.field === 'startLocal' && second?.field === 'id') {
    const s = first.direction === 'asc' ? 1 : -1;
    const t = second.direction === 'asc' ? 1 : -1;
    return (a, b) => (a.startLocal < b.startLocal ? -s : a.startLocal > b.startLocal ? s : t * (a.id - b.id));
  }
  return (a, b) => compareEvents(a, b, sort, ctx, geo);
}

/** One page of the events matching the query, and the number matching over all pages. */
export function runEventQuery(events: Iterable<EventRecord>, query: EventQuery, ctx: EventQueryContext): Page<EventRecord> {
  const matching: EventRecord[] = [];
  for (const e of events) if (matchesEventQuery(e, query, ctx)) matching.push(e);
  matching.sort(eventComparator(query.sort, ctx, query.geo));
  return { items: paginate(matching, query), total: matching.length };
}

/**
 * The great-circle distance (km) from the geo filter's point to the event's nearest venue
 * with coordinates; 0 for `has-coordinates`; undefined when the event does not pass.
 */
export function eventDistanceKm(event: EventRecord, geo: GeoFilter, ctx: EventQueryContext): number | undefined {
  let best: number | undefined;
  for (const id of event.venueIds) {
    const venue = ctx.venue(id);
    if (!venue || venue.geoLat === null || venue.geoLng === null) continue;
    if (geo.kind === 'has-coordinates') return 0;
    const d = haversineKm(geo.lat, geo.lng, venue.geoLat, venue.geoLng);
    if (d <= geo.radiusKm && (best === undefined || d < best)) best = d;
  }
  return best;
}

/** Great-circle distance in kilometres on a sphere of the Earth's mean radius. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The slice of a sorted list a query's paging selects. */
export function paginate<T>(sorted: readonly T[], paging: { readonly limit?: number; readonly offset?: number }): T[] {
  const offset = paging.offset ?? 0;
  return sorted.slice(offset, paging.limit === undefined ? undefined : offset + paging.limit);
}

/** The folded texts an event search looks in. */
export function searchableTexts(event: EventRecord): string[] {
  return [foldText(event.title), foldText(event.description), foldText(event.excerpt)];
}

/** Separates the texts in `eventSearchText`; no folded word a search makes of a query string holds it. */
export const SEARCH_TEXT_SEPARATOR = '\u0000';

/** An event's searchable texts, folded and joined in one string: what an index keeps per event for `searchTextMatches`. */
export function eventSearchText(event: EventRecord): string {
  return searchableTexts(event).join(SEARCH_TEXT_SEPARATOR);
}

/**
 * The search condition of `matchesEventQuery` over the event's kept `eventSearchText`: every
 * word occurs in one of its texts. A word holding the separator could span two texts in the
 * joined string: it is looked for text by text.
 */
export function searchTextMatches(words: readonly string[], text: string, event: EventRecord): boolean {
  for (const w of words) {
    const found = w.includes(SEARCH_TEXT_SEPARATOR) ? searchableTexts(event).some((t) => t.includes(w)) : text.includes(w);
    if (!found) return false;
  }
  return true;
}

/** Whether an event is of the records a query reads: a series is stored, an occurrence listed. */
export function recordsMatch(event: EventRecord, records: EventQuery['records']): boolean {
  switch (records) {
    case 'listed': return event.recurrence === undefined;
    case 'stored': return event.occurrence === undefined;
    case 'series': return event.recurrence !== undefined;
    default: return false;
  }
}

/** The status condition: one of `statuses`, or one of `ownedBy.statuses` on the owner's posts. */
export function statusMatches(post: Pick<PostRecord, 'status' | 'authorId'>, q: { readonly statuses: readonly PostStatus[]; readonly ownedBy?: OwnedBy }): boolean {
  if (q.statuses.includes(post.status)) return true;
  return q.ownedBy !== undefined && post.authorId === q.ownedBy.authorId && q.ownedBy.statuses.includes(post.status);
}

/**
 * Whether a record's last modification (`modifiedUtc`, UTC "YYYY-MM-DD HH:MM:SS", whole
 * seconds) satisfies the bounds: compared as text with `modifiedBounds`, as a database compares
 * the column. A record without one never does.
 */
export function modifiedIn(modifiedUtc: string | undefined, r: InstantRange): boolean {
  if (!modifiedUtc) return false;
  const b = modifiedBounds(r);
  return (b.gt === undefined || modifiedUtc > b.gt) && (b.gte === undefined || modifiedUtc >= b.gte)
    && (b.lt === undefined || modifiedUtc < b.lt) && (b.lte === undefined || modifiedUtc <= b.lte);
}

/**
 * Instant bounds as bounds on a whole-second UTC wall clock, exactly: a time after x is after
 * x's second, one at or after x at or after the next whole second, and so on. Instants outside
 * the four-digit years become texts below ('') or above ('~') every wall clock.
 */
export function modifiedBounds(r: InstantRange): { gt?: string; gte?: string; lt?: string; lte?: string } {
  const floor = (x: number) => wallText(Math.floor(x / 1000) * 1000);
  const ceil = (x: number) => wallText(Math.ceil(x / 1000) * 1000);
  return {
    ...(r.gt !== undefined ? { gt: floor(r.gt) } : {}),
    ...(r.gte !== undefined ? { gte: ceil(r.gte) } : {}),
    ...(r.lt !== undefined ? { lt: ceil(r.lt) } : {}),
    ...(r.lte !== undefined ? { lte: floor(r.lte) } : {}),
  };
}

/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z. */
const YEAR_0 = -62_167_219_200_000;
const YEAR_10000 = 253_402_300_800_000;

function wallText(ms: number): string {
  if (!(ms >= YEAR_0)) return '';
  return ms >= YEAR_10000 ? '~' : formatUtc(ms);
}

// ---- helpers ----

/** Whether an instant satisfies every bound of a range (core's date-window test). */
export function inRange(value: number, r: InstantRange): boolean {
  return (r.gt === undefined || value > r.gt) && (r.gte === undefined || value >= r.gte)
    && (r.lt === undefined || value < r.lt) && (r.lte === undefined || value <= r.lte);
}

function intersects(a: readonly number[], b: readonly number[]): boolean {
  return a.some((x) => b.includes(x));
}

function compareBy(a: EventRecord, b: EventRecord, key: EventSortKey, ctx: EventQueryContext, geo?: GeoFilter): number {
  switch (key.field) {
    case 'startLocal': return cmp(a.startLocal, b.startLocal);
    case 'date': return cmp(a.date, b.date);
    case 'id': return a.id - b.id;
    case 'distance': {
      if (!geo) return 0;
      return (eventDistanceKm(a, geo, ctx) ?? Infinity) - (eventDistanceKm(b, geo, ctx) ?? Infinity);
    }
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
