// Every key of an event query, described once, and the split of a query between a shortcut and
// the reference engine. A shortcut (an adapter's column scan, its day counts, an index's
// prefilter) declares which keys it answers, as a record over every key of EventQuery: a key
// added to EventQuery is then a compile error in every shortcut until it says whether it
// answers it. What it does not answer, and any key core does not know (a query built by a
// newer core), is residual: the shortcut steps aside, or filters with matchesEventQuery.
// Shortcuts fail closed: they never guess at a key they were not written for.
import type { EventQuery } from './query-types';

/**
 * What a key does in a list:
 * - `filter`: narrows what matches; every match satisfies the key's condition on its own;
 * - `{ widens }`: widens another key's condition (`ownedBy`: the caller's own posts match
 *   with more statuses than `statuses`), so that condition alone no longer holds of every match;
 * - `order`, `paging`: which matches a page shows, and in which order; not what matches.
 */
export type EventQueryKeyRole = 'filter' | { readonly widens: keyof EventQuery } | 'order' | 'paging';

/** Every key of EventQuery and its role (checked at compile time: no key may be missing). */
export const EVENT_QUERY_KEYS = {
  records: 'filter',
  statuses: 'filter',
  ownedBy: { widens: 'statuses' },
  excludeHidden: 'filter',
  ids: 'filter',
  start: 'filter',
  end: 'filter',
  search: 'filter',
  categoryIds: 'filter',
  tagIds: 'filter',
  venueIds: 'filter',
  organizerIds: 'filter',
  featured: 'filter',
  parentId: 'filter',
  ticketed: 'filter',
  geo: 'filter',
  modified: 'filter',
  sort: 'order',
  limit: 'paging',
  offset: 'paging',
} as const satisfies { readonly [K in keyof EventQuery]-?: EventQueryKeyRole };

/**
 * What a shortcut answers: for every key of EventQuery, true when the shortcut evaluates that
 * key itself (it may still check the key's value and step aside), false when a query with that
 * key is not its to answer. Declare it with `satisfies EventQueryCoverage`.
 */
export type EventQueryCoverage = { readonly [K in keyof EventQuery]-?: boolean };

/** An event query as a shortcut may use it (splitEventQuery). */
export interface EventQuerySplit {
  /** The keys present in the query that the shortcut answers, with their values. */
  readonly indexable: Partial<EventQuery>;
  /** The keys present that it does not answer, core's unknown keys included, with their values. */
  readonly residual: Readonly<Record<string, unknown>>;
  /** Nothing is residual: the shortcut answers the whole query. */
  readonly complete: boolean;
  /**
   * The answered filters whose conditions every match of the whole query satisfies, whatever
   * the residual: a prefilter that never loses a match (`matchesEventQuery` then decides).
   * Filters widened by a present key are left out; so is everything when a key is unknown
   * (it might widen anything).
   */
  readonly necessary: Partial<EventQuery>;
}

/** Splits `q` between a shortcut answering `coverage` and the reference engine. */
export function splitEventQuery(q: EventQuery, coverage: EventQueryCoverage): EventQuerySplit {
  const indexable: Record<string, unknown> = {};
  const residual: Record<string, unknown> = {};
  const widened = new Set<string>();
  let unknown = false;
  for (const key of Object.keys(q)) {
    const value = (q as unknown as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const role = Object.hasOwn(EVENT_QUERY_KEYS, key) ? EVENT_QUERY_KEYS[key as keyof EventQuery] : undefined;
    if (role === undefined) unknown = true;
    else if (typeof role === 'object') widened.add(role.widens);
    if (role !== undefined && coverage[key as keyof EventQuery] === true) indexable[key] = value;
    else residual[key] = value;
  }
  const necessary: Record<string, unknown> = {};
  if (!unknown) {
    for (const [key, value] of Object.entries(indexable)) {
      if (EVENT_QUERY_KEYS[key as keyof EventQuery] === 'filter' && !widened.has(key)) necessary[key] = value;
    }
  }
  return { indexable: indexable as Partial<EventQuery>, residual, complete: Object.keys(residual).length === 0, necessary: necessary as Partial<EventQuery> };
}

/** The keys that select events (role `filter` or widening), in declaration order. */
export const EVENT_QUERY_FILTERS = (Object.keys(EVENT_QUERY_KEYS) as (keyof EventQuery)[])
  .filter((key) => { const role = EVENT_QUERY_KEYS[key] as EventQueryKeyRole; return role === 'filter' || typeof role === 'object'; });
