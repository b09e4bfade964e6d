// The core query AST compiled to SQL: every filter, the sort and the paging run in the
// database (no filtering afterwards in JavaScript), with the reference engine's semantics.
import { MAX_ID, modifiedBounds, splitEventQuery } from '@evcal/core/adapter';
import type {
  EventQuery, EventQueryCoverage, EventSortKey, GeoFilter, InstantRange, LinkedPostQuery, OwnedBy, PostStatus, TermQuery, TermSortKey,
} from '@evcal/core/adapter';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { storableEventIds, storableIds, type SqlDialect } from './dialect';
import { SEARCH_KEYS_INDEX } from './migrations/0014-search-keys';
import { SEARCH_SEPARATOR, SERIES, textHash } from './rows';
import type { EvcalDatabase } from './schema';

type DB = EvcalDatabase;
type EventsEb = ExpressionBuilder<DB & { e: DB['evcal_events'] }, 'e'>;
type LinkedEb = ExpressionBuilder<DB & { p: DB['evcal_venues'] & DB['evcal_organizers'] }, 'p'>;
type TermsEb = ExpressionBuilder<DB & { t: DB['evcal_terms'] }, 't'>;

const NEVER = sql<SqlBool>`1 = 0`;
const RAD = Math.PI / 180;

// ---- events ----

/**
 * Every key of an event query, compiled by eventWhere (filters), eventOrder (sort) and paged
 * (paging). A key added to core's EventQuery is a compile error here until it is compiled; a
 * key this adapter does not know at run time (a newer core) is refused, never ignored.
 */
const COMPILED = {
  records: true, statuses: true, ownedBy: true, excludeHidden: true, ids: true, start: true, end: true, search: true,
  categoryIds: true, tagIds: true, venueIds: true, organizerIds: true, featured: true, parentId: true, ticketed: true,
  geo: true, modified: true, sort: true, limit: true, offset: true,
} as const satisfies EventQueryCoverage;

/**
 * The WHERE of an event query. Besides the query's own conditions it states bounds they imply,
 * which never change the result but let the database use its indexes: on the start of events
 * that must end by a date (startRange), on the links' copy of the start (linkedTo) and, for a
 * page in local start order, on the local start (localStartFloor). Lists then read index
 * ranges the size of their result (or of their window), not the table.
 */
export function eventWhere(q: EventQuery, d: SqlDialect, page = false, walked?: LinkWalk) {
  const { residual } = splitEventQuery(q, COMPILED);
  if (Object.keys(residual).length) throw new Error(`evcal/sql: this version cannot evaluate the event query keys ${Object.keys(residual).join(', ')}`);
  return (eb: EventsEb): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [statusIn(eb, 'e', q), ...recordsIn(eb, q)];
    if (q.ids) and.push(idsIn(eb, 'e.id', q.ids, storableEventIds));
    // Which implied bound helps depends on the query. With a link filter the links (which carry
    // the start bounds) lead. A page in local start order from a start walks its index from
    // localStartFloor: there the bound on start_utc from the end would make a planner prefer
    // reading the whole window and sorting it. Otherwise that bound closes the window's range.
    // A walk of one term's links in page order (linkWalk) reads the links from their own floor.
    const linked = q.categoryIds ?? q.tagIds ?? q.venueIds ?? q.organizerIds;
    const floor = !linked && page && q.sort[0]?.field === 'startLocal' ? localStartFloor(eb, 'e.start_local', q, d) : [];
    if (walked) floor.push(...localStartFloor(eb, 'ol.start_local' as 'e.start_local', q, d));
    and.push(...(linked || floor.length ? range(eb, 'e.start_utc', q.start) : startRange(eb, 'e.start_utc', q)), ...floor, ...range(eb, 'e.end_utc', q.end));
    if (q.search) and.push(...searchConditions(eb, q.search, d));
    for (const [kind, ids] of [['category', q.categoryIds], ['tag', q.tagIds], ['venue', q.venueIds], ['organizer', q.organizerIds]] as const) {
      if (ids && kind !== walked?.kind) and.push(linkedTo(eb, kind, ids, q));
    }
    if (q.featured !== undefined) and.push(eb('e.featured', '=', q.featured ? 1 : 0));
    if (q.parentId !== undefined) and.push(eb('e.parent_id', '=', q.parentId));
    if (q.ticketed === true) and.push(eb('e.ticketed', '=', 1));
    if (q.ticketed === false) and.push(eb.or([eb('e.ticketed', 'is', null), eb('e.ticketed', '=', 0)]));
    if (q.geo) and.push(eb.exists(venueDistances(eb, q.geo, d).select(sql.lit(1).as('one'))));
    if (q.modified) and.push(...modifiedConditions(eb, 'e.modified_utc', q.modified, d));
    return eb.and(and);
  };
}

/**
 * Which records the query reads, and the hidden flag: a series' row has 2 added to its
 * hide_from_listings (rows.ts), an occurrence's id is above MAX_ID. Lists of listed events
 * without hidden ones read `= 0`, which the indexes of 0002 and the day counts of 0006 answer.
 */
function recordsIn(eb: EventsEb, q: EventQuery): Expression<SqlBool>[] {
  switch (q.records) {
    case 'listed': return [q.excludeHidden ? eb('e.hide_from_listings', '=', 0) : eb('e.hide_from_listings', '<', SERIES)];
    case 'stored': return [eb('e.id', '<=', MAX_ID), ...(q.excludeHidden ? [eb('e.hide_from_listings', 'in', [0, SERIES])] : [])];
    case 'series': return [eb('e.hide_from_listings', q.excludeHidden ? '=' : '>=', SERIES)];
    default: return [NEVER];
  }
}

/**
 * Core's search (every word in the folded title, description or excerpt), as conditions: words
 * of three characters or more through the trigram index (a substring of search_text is one of
 * a field, since such a word has no U+001F); shorter ones read search_text of the events the
 * other conditions leave; a word with U+001F reads the fields one by one.
 */
function searchConditions(eb: EventsEb, words: readonly string[], d: SqlDialect): Expression<SqlBool>[] {
  const indexed = indexedWords(words);
  const out: Expression<SqlBool>[] = indexed.length ? [d.searchIndexed(indexed)] : [];
  for (const word of words) {
    if (indexed.includes(word)) continue;
    out.push(word.includes(SEARCH_SEPARATOR)
      ? eb.or([d.contains(eb.ref('e.search_title'), word), d.contains(eb.ref('e.search_description'), word), d.contains(eb.ref('e.search_excerpt'), word)])
      : d.contains(eb.ref('e.search_text'), word));
  }
  return out;
}

/** The search words the trigram index answers: three characters or more, without U+001F. */
function indexedWords(words: readonly string[]): string[] {
  return words.filter((w) => !w.includes(SEARCH_SEPARATOR) && [...w].length >= 3);
}

/**
 * The events (`e`) of a list's query. A search through the trigram index reads its matches'
 * list keys from SQLite's index of them by id (migration 0014): named, so that the plan does not
 * depend on planner statistics a calendar may not have, and with the condition of that partial
 * index (`id > 0`, true of every event) written as there (a literal, not a parameter), without
 * which SQLite does not use it. Other lists leave the choice to the planner, which cannot choose
 * that index for them.
 */
export function eventsOf(db: Kysely<DB>, q: EventQuery, d: SqlDialect) {
  if (d.name !== 'sqlite' || !q.search || indexedWords(q.search).length === 0) return db.selectFrom('evcal_events as e');
  return db.selectFrom(sql<DB['evcal_events']>`evcal_events`.as<'e'>(sql`e indexed by ${sql.id(SEARCH_KEYS_INDEX)}`)).where(sql<SqlBool>`e.id > 0`);
}

/**
 * The keys of a query's sort that order anything: a distance from no point (a `distance` key
 * without a `near` filter) ties every event, as in core, and a constant in ORDER BY would be
 * read as a column position by SQLite and PostgreSQL.
 */
export function effectiveSort(q: EventQuery): readonly EventSortKey[] {
  return q.geo?.kind === 'near' ? q.sort : q.sort.filter((key) => key.field !== 'distance');
}

/** ORDER BY terms for an event sort. */
export function eventOrder(eb: EventsEb, key: EventSortKey, d: SqlDialect, geo: GeoFilter | undefined): Expression<unknown> {
  switch (key.field) {
    case 'startLocal': return d.binary(eb.ref('e.start_local'));
    case 'date': return d.binary(eb.ref('e.date'));
    case 'id': return eb.ref('e.id');
    case 'distance':
      return geo?.kind === 'near'
        ? venueDistances(eb, geo, d).select((sub) => sub.fn.min(distance(d, geo)).as('d'))
        : sql`(select 0)`;
  }
}

/** The event's venues with coordinates (within the radius for `near`). */
function venueDistances(eb: EventsEb, geo: GeoFilter, d: SqlDialect) {
  let q = eb.selectFrom('evcal_event_links as gl')
    .innerJoin('evcal_venues as gv', 'gv.id', 'gl.ref_id')
    .whereRef('gl.event_id', '=', 'e.id')
    .where('gl.kind', '=', 'venue')
    .where('gv.geo_lat', 'is not', null)
    .where('gv.geo_lng', 'is not', null);
  if (geo.kind === 'near') q = q.where(distance(d, geo), '<=', geo.radiusKm);
  return q;
}

/**
 * Great-circle distance from the filter's point to `gv`, the same formula as core's
 * haversineKm, with the point's terms computed in JavaScript.
 */
function distance(d: SqlDialect, geo: Extract<GeoFilter, { kind: 'near' }>): RawBuilder<number> {
  const cosLat1 = Math.cos(geo.lat * RAD);
  const dLat = sql`((gv.geo_lat - ${geo.lat}) * ${RAD})`;
  const dLng = sql`((gv.geo_lng - ${geo.lng}) * ${RAD})`;
  const h = sql<number>`(sin(${dLat} / 2) * sin(${dLat} / 2) + ${cosLat1} * cos(gv.geo_lat * ${RAD}) * sin(${dLng} / 2) * sin(${dLng} / 2))`;
  return sql<number>`(2 * 6371.0088 * asin(${d.least(sql<number>`sqrt(${h})`, 1)}))`;
}

// ---- venues and organizers ----

/** The folded columns a search looks in, per kind (core's linkedPostSearchTexts). */
const SEARCH_COLUMNS = {
  venue: ['title', 'description', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  organizer: ['title', 'description', 'excerpt', 'phone', 'email', 'website'],
} as const;

export function linkedPostWhere(kind: 'venue' | 'organizer', q: LinkedPostQuery, d: SqlDialect) {
  return (eb: LinkedEb): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [statusIn(eb, 'p', q)];
    if (q.ids) and.push(idsIn(eb, 'p.id', q.ids));
    if (q.search) {
      const words = q.search;
      // Every fragment in one and the same field; any field.
      and.push(eb.or(SEARCH_COLUMNS[kind].map((field) =>
        eb.and(words.map((w) => d.contains(sql.ref(`p.search_${field}`), w))))));
    }
    if (q.titleEquals !== undefined) and.push(eb('p.title_hash', '=', textHash(q.titleEquals)), eb('p.title_key', '=', q.titleEquals));
    if (q.descriptionEquals !== undefined) and.push(eb('p.description_key', '=', q.descriptionEquals));
    if (q.eventId !== undefined) {
      and.push(eb.exists(eb.selectFrom('evcal_event_links as l').select(sql.lit(1).as('one'))
        .whereRef('l.ref_id', '=', 'p.id').where('l.kind', '=', kind).where('l.event_id', '=', q.eventId)));
    }
    for (const [cond, wanted] of [[q.hasEvents, q.hasEvents?.value], [q.withEvents, true]] as const) {
      if (!cond) continue;
      let events = eb.selectFrom('evcal_event_links as l').innerJoin('evcal_events as le', 'le.id', 'l.event_id')
        .select(sql.lit(1).as('one')).whereRef('l.ref_id', '=', 'p.id').where('l.kind', '=', kind);
      events = cond.eventStatuses.length ? events.where('le.status', 'in', [...cond.eventStatuses]) : events.where(NEVER);
      // The links' copy of the event's start: read from the index on links.
      if (cond.startingFrom !== undefined) events = events.where('l.start_utc', '>=', cond.startingFrom);
      and.push(wanted ? eb.exists(events) : eb.not(eb.exists(events)));
    }
    if (q.modified) and.push(...modifiedConditions(eb, 'p.modified_utc', q.modified, d));
    return eb.and(and);
  };
}

// ---- terms ----

/**
 * `count`: events with a counted status using the term. `hideEmpty` keeps used terms and, for
 * categories, their ancestors (a recursive walk up `parent`).
 */
export function termCount(eb: TermsEb, taxonomy: 'category' | 'tag', q: TermQuery): RawBuilder<number> {
  if (q.countStatuses.length === 0) return sql<number>`0`;
  // evcal_term_counts, kept by triggers: a few rows per term whatever the number of events.
  const counted = eb.selectFrom('evcal_term_counts as tc')
    .select((sub) => sub.fn.coalesce(sub.fn.sum<number>('tc.n'), sql.lit(0)).as('n'))
    .where('tc.kind', '=', taxonomy)
    .whereRef('tc.ref_id', '=', 't.id')
    .where('tc.status', 'in', [...q.countStatuses]);
  return sql<number>`(${counted})`;
}

export function termWhere(taxonomy: 'category' | 'tag', q: TermQuery, d: SqlDialect, schema: string | undefined) {
  return (eb: TermsEb): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [eb('t.taxonomy', '=', taxonomy)];
    if (q.ids) and.push(idsIn(eb, 't.id', q.ids));
    if (q.excludeIds) {
      const ids = storableIds(q.excludeIds);
      if (ids.length) and.push(eb('t.id', 'not in', ids));
    }
    if (q.search !== undefined) and.push(eb.or([d.contains(eb.ref('t.name_key'), q.search), d.contains(eb.ref('t.slug_key'), q.search)]));
    if (q.parent !== undefined) and.push(eb('t.parent', '=', q.parent));
    if (q.eventId !== undefined) {
      and.push(eb.exists(eb.selectFrom('evcal_event_links as l').select(sql.lit(1).as('one'))
        .whereRef('l.ref_id', '=', 't.id').where('l.kind', '=', taxonomy).where('l.event_id', '=', q.eventId)));
    }
    if (q.slugs) and.push(q.slugs.length ? eb('t.slug', 'in', [...q.slugs]) : NEVER);
    if (q.nameKeys) and.push(q.nameKeys.length ? eb('t.name_key', 'in', [...q.nameKeys]) : NEVER);
    if (q.hideEmpty) and.push(taxonomy === 'category' ? usedOrAncestor(q, schema) : sql<SqlBool>`(${termCount(eb, taxonomy, q)}) > 0`);
    if (q.modified) and.push(...modifiedConditions(eb, 't.modified_utc', q.modified, d));
    return eb.and(and);
  };
}

export function termOrder(eb: TermsEb, key: TermSortKey, taxonomy: 'category' | 'tag', q: TermQuery, d: SqlDialect): Expression<unknown>[] {
  switch (key.field) {
    case 'name': return [d.binary(eb.ref('t.name_key')), d.binary(eb.ref('t.name'))];
    case 'slug': return [d.binary(eb.ref('t.slug_key')), d.binary(eb.ref('t.slug'))];
    case 'description': return [d.binary(eb.ref('t.description_key')), d.binary(eb.ref('t.description'))];
    case 'count': return [termCount(eb, taxonomy, q)];
    case 'parent': return [eb.ref('t.parent')];
    case 'id': return [eb.ref('t.id')];
    case 'include': {
      const ids = q.ids ?? [];
      if (ids.length === 0) return [sql.lit(0)];
      return [sql`case ${sql.join(ids.map((id, i) => sql`when t.id = ${id} then ${i}`), sql` `)} else -1 end`];
    }
  }
}

/** Categories used by a counted event, and every ancestor of those. */
function usedOrAncestor(q: TermQuery, schema: string | undefined): RawBuilder<SqlBool> {
  if (q.countStatuses.length === 0) return NEVER as RawBuilder<SqlBool>;
  const table = (name: string) => (schema ? sql`${sql.id(schema, name)}` : sql.id(name));
  return sql<SqlBool>`t.id in (
    with recursive kept(id) as (
      select c.ref_id from ${table('evcal_term_counts')} c
      where c.kind = 'category' and c.status in (${sql.join([...q.countStatuses])}) and c.n > 0
      union
      select p.parent from ${table('evcal_terms')} p join kept on p.id = kept.id
      where p.taxonomy = 'category' and p.parent <> 0
    )
    select id from kept)`;
}

// ---- shared ----

/** One of the statuses, or one of the owner's statuses on the owner's posts (core's statusMatches). */
function statusIn(eb: ExpressionBuilder<any, any>, alias: string, q: { statuses: readonly PostStatus[]; ownedBy?: OwnedBy }): Expression<SqlBool> {
  const any: Expression<SqlBool>[] = [];
  if (q.statuses.length) any.push(eb(`${alias}.status`, 'in', [...q.statuses]));
  if (q.ownedBy && q.ownedBy.statuses.length) {
    any.push(eb.and([eb(`${alias}.author_id`, '=', q.ownedBy.authorId), eb(`${alias}.status`, 'in', [...q.ownedBy.statuses])]));
  }
  return any.length ? eb.or(any) : NEVER;
}

/** Core's modifiedIn: the wall-clock text (byte order) against the bounds as texts; no text matches nothing. */
function modifiedConditions(eb: ExpressionBuilder<any, any>, column: string, r: InstantRange, d: SqlDialect): Expression<SqlBool>[] {
  const text = d.binary(eb.ref(column));
  const b = modifiedBounds(r);
  const out: Expression<SqlBool>[] = [eb(column, 'is not', null), eb(text, '<>', '')];
  if (b.gt !== undefined) out.push(eb(text, '>', b.gt));
  if (b.gte !== undefined) out.push(eb(text, '>=', b.gte));
  if (b.lt !== undefined) out.push(eb(text, '<', b.lt));
  if (b.lte !== undefined) out.push(eb(text, '<=', b.lte));
  return out;
}

function idsIn<E extends ExpressionBuilder<any, any>>(eb: E, column: string, ids: readonly number[], storable = storableIds): Expression<SqlBool> {
  const valid = storable(ids);
  return valid.length ? eb(column, 'in', valid) : NEVER;
}

/**
 * Events linked to one of the ids: the links of those ids whose start (a copy of the event's)
 * is in the query's window, so that the database reads a term's links of that window only.
 */
function linkedTo(eb: EventsEb, kind: 'category' | 'tag' | 'venue' | 'organizer', ids: readonly number[], q: EventQuery): Expression<SqlBool> {
  const valid = storableIds(ids);
  if (valid.length === 0) return NEVER;
  return eb('e.id', 'in', eb.selectFrom('evcal_event_links as l').select('l.event_id')
    .where('l.kind', '=', kind).where('l.ref_id', 'in', valid)
    .where((lb) => lb.and(startRange(lb as unknown as EventsEb, 'l.start_utc' as 'e.start_utc', q))));
}

/**
 * Conditions on a start instant: the query's start bounds and, when events must end before a
 * date, the latest start such an event can have: that date plus the largest start-minus-end of
 * any event (negative when every event lasts; an index on the expression finds it).
 */
function startRange(eb: EventsEb, column: 'e.start_utc', q: EventQuery): Expression<SqlBool>[] {
  const out = range(eb, column, q.start);
  const ends = [q.end?.lt, q.end?.lte].filter((x): x is number => x !== undefined);
  if (ends.length) {
    const overhang = eb.selectFrom('evcal_events as ov').select(sql<number>`max(ov.start_utc - ov.end_utc)`.as('m'));
    out.push(eb(column, '<=', sql<number>`${Math.min(...ends)} + ${overhang}`));
  }
  return out;
}

/**
 * A lower bound on the local start of events with a start bound: the wall clock of that
 * instant plus the smallest start_offset of any event (rows.ts startOffset). A list in local
 * start order then walks its index from there instead of from the first event ever.
 */
function localStartFloor(eb: EventsEb, column: 'e.start_local', q: EventQuery, d: SqlDialect): Expression<SqlBool>[] {
  const starts = [q.start?.gt, q.start?.gte].filter((x): x is number => x !== undefined);
  if (starts.length === 0) return [];
  const offset = eb.selectFrom('evcal_events as ov').select(sql<number>`min(ov.start_offset)`.as('m'));
  return [eb(d.binary(eb.ref(column)), '>=', d.wallFloor(sql<number>`${Math.max(...starts)} + ${offset}`))];
}

/**
 * A page read by walking one term's (venue's, organizer's) links in list order: the links
 * carry their event's local start (migration 0010) and are indexed by (kind, ref_id,
 * start_local, event_id), so the page reads about as many rows as it shows, however many
 * events the term has. For a list in local start order filtered by one link id; a filter by
 * several ids (a category with subcategories) is read as the other lists are.
 */
export interface LinkWalk {
  readonly kind: 'category' | 'tag' | 'venue' | 'organizer';
  readonly id: number;
}

export function linkWalk(q: EventQuery): LinkWalk | undefined {
  if (q.sort[0]?.field !== 'startLocal' || q.sort[0].direction !== 'asc' || q.sort[1]?.field !== 'id' || q.sort[1].direction !== 'asc') return undefined;
  for (const [kind, ids] of [['category', q.categoryIds], ['tag', q.tagIds], ['venue', q.venueIds], ['organizer', q.organizerIds]] as const) {
    if (ids === undefined) continue;
    const valid = storableIds(ids);
    return valid.length === 1 && ids.length === 1 ? { kind, id: valid[0]! } : undefined;
  }
  return undefined;
}

function range(eb: EventsEb, column: 'e.start_utc' | 'e.end_utc', r: InstantRange | undefined): Expression<SqlBool>[] {
  if (!r) return [];
  const out: Expression<SqlBool>[] = [];
  if (r.gt !== undefined) out.push(eb(column, '>', r.gt));
  if (r.gte !== undefined) out.push(eb(column, '>=', r.gte));
  if (r.lt !== undefined) out.push(eb(column, '<', r.lt));
  if (r.lte !== undefined) out.push(eb(column, '<=', r.lte));
  return out;
}
