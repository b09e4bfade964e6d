// Random event queries, one arbitrary per key of core's EventQuery: the table every property
// test of lists draws from (the differential test here, the SQL day counts', the memory
// indexes'). It is keyed by every key of EventQuery (checked at compile time), so a filter
// added to core is a compile error here until the tests generate it, and no test of a
// shortcut can leave out a key the shortcut must step aside for.
import type { EventQuery, EventSortKey, GeoFilter, InstantRange, OwnedBy, PostStatus } from '@evcal/core/adapter';
import { POST_STATUSES } from '@evcal/core/adapter';
import fc from 'fast-check';

/** What the records of a test hold, for queries that hit and miss them. */
export interface EventQueryDomain {
  /** Instants around the events' starts and ends. */
  readonly instant: fc.Arbitrary<number>;
  /** Instants around the events' modification times (whole seconds; bounds fall between and on them). */
  readonly modifiedInstant: fc.Arbitrary<number>;
  /** Event ids, some of them absent. */
  readonly eventId: fc.Arbitrary<number>;
  readonly categoryId: fc.Arbitrary<number>;
  readonly tagId: fc.Arbitrary<number>;
  readonly venueId: fc.Arbitrary<number>;
  readonly organizerId: fc.Arbitrary<number>;
  readonly authorId: fc.Arbitrary<number>;
  /** Parent ids events have (0: none). */
  readonly parentId: fc.Arbitrary<number>;
  /** Folded search words (as core's eventSearchWords makes them). */
  readonly searchWord: fc.Arbitrary<string>;
  /** Near points and radii that reach some venues and miss others. */
  readonly near: fc.Arbitrary<Extract<GeoFilter, { kind: 'near' }>>;
  /**
   * How rare each optional key is: one query in `oneIn[key]` has it (default 2: half of them).
   * Tests of a shortcut make the keys it does not answer rare, so that most queries take it
   * and some must not.
   */
  readonly oneIn?: Partial<Record<keyof EventQuery, number>>;
}

type Fields = { readonly [K in keyof EventQuery]-?: fc.Arbitrary<EventQuery[K]> };

/** One arbitrary per key of EventQuery; `undefined` stands for an absent optional key. */
export function eventQueryFields(d: EventQueryDomain): Fields {
  const opt = <K extends keyof EventQuery>(key: K, arb: fc.Arbitrary<NonNullable<EventQuery[K]>>): fc.Arbitrary<EventQuery[K]> =>
    fc.oneof({ weight: (d.oneIn?.[key] ?? 2) - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb }) as fc.Arbitrary<EventQuery[K]>;
  const ids = (id: fc.Arbitrary<number>) => fc.uniqueArray(id, { maxLength: 3 });
  const statuses = fc.uniqueArray(fc.constantFrom<PostStatus>(...POST_STATUSES), { minLength: 1, maxLength: 3 });
  return {
    records: fc.constantFrom<EventQuery['records']>('listed', 'listed', 'stored', 'series'),
    // Sometimes none: the caller's own posts alone (with ownedBy).
    statuses: fc.oneof({ weight: 6, arbitrary: statuses }, { weight: 1, arbitrary: fc.constant<PostStatus[]>([]) }),
    ownedBy: opt('ownedBy', fc.record<OwnedBy>({ authorId: d.authorId, statuses })),
    excludeHidden: fc.boolean(),
    ids: opt('ids', ids(d.eventId)),
    start: opt('start', range(d.instant)),
    end: opt('end', range(d.instant)),
    search: opt('search', fc.array(d.searchWord, { minLength: 1, maxLength: 2 })),
    categoryIds: opt('categoryIds', ids(d.categoryId)),
    tagIds: opt('tagIds', ids(d.tagId)),
    venueIds: opt('venueIds', ids(d.venueId)),
    organizerIds: opt('organizerIds', ids(d.organizerId)),
    featured: opt('featured', fc.boolean()),
    parentId: opt('parentId', d.parentId),
    ticketed: opt('ticketed', fc.boolean()),
    geo: opt('geo', fc.oneof(fc.constant<GeoFilter>({ kind: 'has-coordinates' }), d.near)),
    modified: opt('modified', range(d.modifiedInstant)),
    // Core's sorts always end with the id.
    sort: fc.constantFrom<EventSortKey[]>(
      [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }],
      [{ field: 'startLocal', direction: 'desc' }, { field: 'id', direction: 'desc' }],
      [{ field: 'date', direction: 'asc' }, { field: 'id', direction: 'asc' }],
      [{ field: 'distance', direction: 'asc' }, { field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }],
    ),
    limit: opt('limit', fc.integer({ min: 1, max: 5 })),
    offset: opt('offset', fc.integer({ min: 0, max: 6 })),
  };
}

/** Random event queries as core builds them: every key of the table, absent keys left out. */
export function eventQueries(d: EventQueryDomain, override: Partial<Fields> = {}): fc.Arbitrary<EventQuery> {
  return fc.record({ ...eventQueryFields(d), ...override } as Fields).map((q) => prune(q) as EventQuery);
}

/** Bounds on an instant, each present or not (an empty range is left out). */
function range(instant: fc.Arbitrary<number>): fc.Arbitrary<InstantRange> {
  const bound = fc.option(instant, { nil: undefined });
  return fc.record({ gt: bound, gte: bound, lt: bound, lte: bound }).map((r) => prune(r));
}

/** Drops undefined keys and empty objects, as core builds queries. */
export function prune<T extends object>(q: T): T {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined
    && !(typeof v === 'object' && v && !Array.isArray(v) && Object.values(v).every((x) => x === undefined)))) as T;
}
