// The differential property test: random datasets and random queries; every list an adapter
// returns must equal the core engine's answer over the same records, order included.
import {
  occurrenceId, runEventQuery, runLinkedPostQuery, runTermQuery, indexEventsByLink, POST_STATUSES,
  type EventQuery, type EventRecord, type LinkedPostQuery, type PostStatus, type TermQuery, type TermRecord, type VenueRecord,
} from '@evcal/core/adapter';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';
import { eventQueries, prune } from './event-queries';
import { eventRecord, termRecord, utcWall, venueRecord } from './fixtures';

// A small alphabet so that random texts and search words collide, with the SQL traps in it:
// LIKE and GLOB wildcards, backslashes, words shorter than a trigram, the separator of the SQL
// adapter's search text (U+001F), FTS5 query syntax (quotes, operators, parentheses).
const WORDS = ['jazz', 'Jazz', 'café', 'cafe', 'rock', '100%', '_', 'a_b', 'x\\y', 'ü', 'ROCK', 'night', 'a*b?', '[ab]', 'x\u001fy', 'say"hi"', 'AND', 'near(x'];
const word = fc.constantFrom(...WORDS);
const text = fc.array(word, { maxLength: 3 }).map((w) => w.join(' '));
const status = fc.constantFrom<PostStatus>('publish', 'publish', 'draft', 'private', 'trash', 'future');
const statuses = fc.uniqueArray(fc.constantFrom<PostStatus>(...POST_STATUSES), { minLength: 1, maxLength: 3 });
const HOURS = 24 * 20;
const instant = fc.integer({ min: 0, max: HOURS }).map((hour) => Date.UTC(2026, 5, 1) + hour * 3_600_000);
const ids = (max: number) => fc.uniqueArray(fc.integer({ min: 1, max }), { maxLength: 3 });
const dir = fc.constantFrom<'asc' | 'desc'>('asc', 'desc');
// Modification times on whole seconds, some sharing a second, and bounds between and on them.
const SECOND_BASE = Date.UTC(2026, 2, 1, 12);
const modifiedAt = fc.integer({ min: 0, max: 40 }).map((s) => SECOND_BASE + s * 1000);
const modifiedBound = fc.integer({ min: -2_000, max: 42_000 }).map((ms) => SECOND_BASE + ms);
const modifiedRange = fc.option(fc.oneof(
  fc.record({ gt: modifiedBound, lt: fc.option(modifiedBound, { nil: undefined }) }),
  fc.record({ gte: fc.option(modifiedBound, { nil: undefined }), lte: modifiedBound }),
), { nil: undefined });
const paging = fc.record({ limit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }), offset: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }) });

interface World {
  readonly venues: VenueRecord[];
  readonly categories: TermRecord[];
  readonly tags: TermRecord[];
  readonly events: EventRecord[];
}

const world: fc.Arbitrary<World> = fc.record({
  venues: fc.array(fc.record({ title: text, status, author: fc.integer({ min: 1, max: 3 }), city: text, geo: fc.boolean(), lat: fc.double({ min: 40, max: 46, noNaN: true }), lng: fc.double({ min: 8, max: 13, noNaN: true }), modified: modifiedAt }), { maxLength: 5 }),
  // Terms written before evcal kept their modification time have none.
  categories: fc.array(fc.record({ name: text, parent: fc.integer({ min: 0, max: 3 }), modified: fc.option(modifiedAt, { nil: undefined }) }), { maxLength: 5 }),
  tags: fc.array(fc.record({ name: text }), { maxLength: 4 }),
  events: fc.array(fc.record({
    title: text, description: text, status, author: fc.integer({ min: 1, max: 3 }), start: instant, hours: fc.integer({ min: 0, max: 30 }),
    startLocalShift: fc.integer({ min: -5, max: 5 }), date: instant, featured: fc.boolean(), hidden: fc.boolean(),
    ticketed: fc.constantFrom(true, false, null), parent: fc.integer({ min: 0, max: 3 }), modified: modifiedAt,
    // Series and their occurrences (docs/recurrence.md), stored as core writes them.
    kind: fc.constantFrom('event', 'event', 'series', 'occurrence'),
    categories: ids(5), tags: ids(4), venues: ids(5), organizers: ids(3),
  }), { maxLength: 14 }),
}).map((w) => ({
  venues: w.venues.map((v, i) => venueRecord(1000 + i, {
    title: v.title, status: v.status, authorId: v.author, city: v.city, geoLat: v.geo ? v.lat : null, geoLng: v.geo ? v.lng : null,
    date: utcWall(Date.UTC(2026, 0, 1 + (i % 3))), modifiedUtc: utcWall(v.modified),
  })),
  categories: w.categories.map((c, i) => termRecord(i + 1, {
    name: c.name || `c${i}`, slug: `c-${i}`, parent: c.parent > 0 && c.parent <= i ? c.parent : 0,
    ...(c.modified !== undefined ? { modifiedUtc: utcWall(c.modified) } : {}),
  })),
  tags: w.tags.map((t, i) => termRecord(100 + i, { name: t.name || `t${i}`, slug: `t-${i}` })),
  events: w.events.map((e, i) => eventRecord(e.kind === 'occurrence' ? occurrenceId(i + 1, utcWall(e.start).slice(0, 10)) : i + 1, {
    title: e.title, description: e.description, status: e.status, authorId: e.author, startUtc: e.start, endUtc: e.start + e.hours * 3_600_000,
    // Local starts need not follow UTC order (events in different zones).
    startLocal: utcWall(e.start + e.startLocalShift * 3_600_000), date: utcWall(e.date),
    featured: e.featured, hideFromListings: e.hidden, ticketed: e.ticketed, parentId: e.parent, modifiedUtc: utcWall(e.modified),
    categoryIds: e.categories, tagIds: e.tags.map((t) => 99 + t), venueIds: e.venues.map((v) => 999 + v), organizerIds: e.organizers.map((o) => 1999 + o),
    ...(e.kind === 'series' ? { recurrence: { rrule: 'FREQ=DAILY;COUNT=2', rdate: [], exdate: [], idBase: i + 1 } } : {}),
    ...(e.kind === 'occurrence' ? {
      slug: '', occurrence: { date: utcWall(e.start).slice(0, 10), originalStart: utcWall(e.start), ...(e.featured ? { overrides: { title: e.title } } : {}) },
    } : {}),
  })),
}));

const ownedBy = fc.option(fc.record({ authorId: fc.integer({ min: 1, max: 3 }), statuses }), { nil: undefined });
const maybeNoStatuses = fc.oneof({ weight: 4, arbitrary: statuses }, { weight: 1, arbitrary: fc.constant<PostStatus[]>([]) });

// Every key of an event query, from the table all list tests share (event-queries.ts).
const eventQuery: fc.Arbitrary<EventQuery> = eventQueries({
  instant,
  modifiedInstant: modifiedBound,
  eventId: fc.integer({ min: 1, max: 14 }),
  categoryId: fc.integer({ min: 1, max: 5 }),
  tagId: fc.integer({ min: 100, max: 103 }),
  venueId: fc.integer({ min: 1000, max: 1004 }),
  organizerId: fc.integer({ min: 2000, max: 2002 }),
  authorId: fc.integer({ min: 1, max: 3 }),
  parentId: fc.integer({ min: 0, max: 3 }),
  searchWord: word.map((w) => w.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '')),
  near: fc.record({ kind: fc.constant('near' as const), lat: fc.constant(43), lng: fc.constant(10.5), radiusKm: fc.constantFrom(100, 250, 400) }),
});

const linkedQuery: fc.Arbitrary<LinkedPostQuery> = fc.record({
  statuses: maybeNoStatuses,
  ownedBy,
  search: fc.option(fc.array(word.map((w) => w.toLowerCase()), { minLength: 1, maxLength: 2 }), { nil: undefined }),
  eventId: fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined }),
  hasEvents: fc.option(fc.record({ value: fc.boolean(), eventStatuses: statuses }), { nil: undefined }),
  withEvents: fc.option(fc.record({ eventStatuses: statuses, startingFrom: instant }), { nil: undefined }),
  modified: modifiedRange,
  sort: fc.record({ a: dir, b: dir }).map(({ a, b }) => [{ field: 'date' as const, direction: a }, { field: 'id' as const, direction: b }]),
}).chain((q) => paging.map((p) => prune({ ...q, ...p })));

const termQuery: fc.Arbitrary<TermQuery> = fc.record({
  ids: fc.option(ids(5), { nil: undefined }),
  excludeIds: fc.option(ids(5), { nil: undefined }),
  search: fc.option(word.map((w) => w.toLowerCase()), { nil: undefined }),
  parent: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  eventId: fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined }),
  slugs: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 6 }).map((i) => `c-${i}`), { maxLength: 3 }), { nil: undefined }),
  nameKeys: fc.option(fc.uniqueArray(word.map((w) => w.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '')), { maxLength: 2 }), { nil: undefined }),
  hideEmpty: fc.boolean(),
  countStatuses: statuses,
  modified: modifiedRange,
  sort: fc.tuple(fc.constantFrom('name', 'id', 'slug', 'count', 'description', 'parent') as fc.Arbitrary<TermQuery['sort'][number]['field']>, dir)
    .map(([field, direction]) => [{ field, direction }, { field: 'id' as const, direction: 'asc' as const }]),
}).chain((q) => paging.map((p) => prune({ ...q, ...p })));

export function differentialGroup(ctx: SuiteContext): void {
  const numRuns = ctx.options.propertyRuns ?? 60;
  describe('differential (random datasets and queries against the core engine)', () => {
    it('lists the same pages as the core engine', async () => {
      await fc.assert(fc.asyncProperty(world, fc.array(eventQuery, { minLength: 1, maxLength: 4 }),
        fc.array(linkedQuery, { maxLength: 3 }), fc.array(termQuery, { maxLength: 3 }),
        async (w, eventQueries, linkedQueries, termQueries) => {
          const s = await ctx.options.create();
          try {
            for (const v of w.venues) await s.venues.insert(v);
            for (const c of w.categories) await s.categories.insert(c);
            for (const t of w.tags) await s.tags.insert(t);
            for (const e of w.events) await s.events.insert(e);
            const venues = new Map(w.venues.map((v) => [v.id, v]));
            for (const q of eventQueries) {
              const want = runEventQuery(w.events, q, { venue: (id) => venues.get(id) });
              expect(await s.events.list(q), JSON.stringify(q)).toEqual(want);
            }
            const eventsOf = indexEventsByLink(w.events);
            for (const q of linkedQueries) {
              expect(await s.venues.list(q), JSON.stringify(q)).toEqual(runLinkedPostQuery('venue', w.venues, q, eventsOf));
            }
            for (const q of termQueries) {
              expect(await s.categories.list(q), JSON.stringify(q)).toEqual(runTermQuery('category', w.categories, w.events, q));
            }
          } finally {
            await s.close();
          }
        }), { numRuns });
    }, 120_000);
  });
}
