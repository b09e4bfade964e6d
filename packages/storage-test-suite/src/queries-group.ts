// Queries, table-driven: one dataset per kind and a table of queries with the exact ids (in
// order) and totals each must return. These pin the reference semantics, traps included:
// LIKE wildcards in search text, case and accent folding, NULL-free ordering, ties by id.
import type { EventQuery, LinkedPostQuery, Storage, TermQuery } from '@evcal/core/adapter';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';
import { eventRecord, organizerRecord, termRecord, venueRecord } from './fixtures';

const h = (day: number, hour: number) => Date.UTC(2026, 5, day, hour);
/** The modification time of every fixture (fixtures.ts). */
const STAMPED = Date.UTC(2026, 0, 1, 10);
const START_AND_ID: EventQuery['sort'] = [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }];

async function seedEvents(s: Storage): Promise<void> {
  await s.venues.insert(venueRecord(100, { geoLat: 41.9028, geoLng: 12.4964 }));
  await s.venues.insert(venueRecord(101, { geoLat: 45.4642, geoLng: 9.19 }));
  await s.venues.insert(venueRecord(102));
  const events = [
    eventRecord(1, { title: 'Jazz Night', startUtc: h(1, 10), endUtc: h(1, 12), categoryIds: [10], tagIds: [20], venueIds: [100], organizerIds: [200], featured: true, date: '2026-01-05 00:00:00' }),
    eventRecord(2, { title: 'Rock & Roll 100%', description: 'loud_music', startUtc: h(2, 10), endUtc: h(3, 10), categoryIds: [11], venueIds: [101], date: '2026-01-01 00:00:00' }),
    eventRecord(3, { title: 'Draft jazz', status: 'draft', startUtc: h(1, 9), endUtc: h(1, 10) }),
    eventRecord(4, { title: 'Hidden', hideFromListings: true, startUtc: h(4, 10), endUtc: h(4, 11) }),
    eventRecord(5, { title: 'Matinee', excerpt: 'Café concert', startUtc: h(5, 10), endUtc: h(5, 11), parentId: 1, ticketed: true, organizerIds: [200, 201], venueIds: [102] }),
    eventRecord(6, { title: 'Private party', status: 'private', startUtc: h(6, 10), endUtc: h(6, 11), tagIds: [20, 21] }),
    // Same local start as event 1 in another zone: the tie is broken by id.
    eventRecord(7, { title: 'Morning in New York', timezone: 'America/New_York', startLocal: '2026-06-01 10:00:00', endLocal: '2026-06-01 11:00:00', startUtc: h(1, 14), endUtc: h(1, 15), date: '2026-01-03 00:00:00' }),
    eventRecord(8, { title: 'Trashed jazz', status: 'trash', startUtc: h(7, 10), endUtc: h(7, 11), slug: 'trashed-jazz__trashed' }),
  ];
  for (const e of events) await s.events.insert(e);
}

const EVENT_CASES: Array<[string, Partial<EventQuery>, number[], number?]> = [
  ['published, not hidden, by local start then id', {}, [1, 7, 2, 5]],
  ['several statuses', { statuses: ['publish', 'draft', 'private'] }, [3, 1, 7, 2, 5, 6]],
  ['hidden events included when asked', { excludeHidden: false }, [1, 7, 2, 4, 5]],
  ['ids', { ids: [5, 1, 99] }, [1, 5]],
  ['own drafts next to everyone\'s published events', { ownedBy: { authorId: 1, statuses: ['draft'] } }, [3, 1, 7, 2, 5]],
  ['another author\'s drafts stay out', { ownedBy: { authorId: 2, statuses: ['draft', 'private'] } }, [1, 7, 2, 5]],
  ['only own posts: no shared statuses', { statuses: [], ownedBy: { authorId: 1, statuses: ['private', 'draft'] } }, [3, 6]],
  ['no statuses at all matches nothing', { statuses: [] }, []],
  ['start on or after', { start: { gte: h(2, 0) } }, [2, 5]],
  // Every fixture was last modified at 2026-01-01 10:00:00 UTC, a whole second.
  ['modified after the instant just before', { modified: { gt: STAMPED - 1 } }, [1, 7, 2, 5]],
  ['modified after its own second: nothing', { modified: { gt: STAMPED } }, []],
  ['modified after a later instant of its second: nothing', { modified: { gt: STAMPED + 500 } }, []],
  ['modified at or after a later instant of its second: nothing', { modified: { gte: STAMPED + 1 } }, []],
  ['modified at or after its second', { modified: { gte: STAMPED } }, [1, 7, 2, 5]],
  ['modified before the next instant', { modified: { lt: STAMPED + 1 } }, [1, 7, 2, 5]],
  ['modified before its second: nothing', { modified: { lt: STAMPED } }, []],
  ['modified at or before the instant just before: nothing', { modified: { lte: STAMPED - 1 } }, []],
  ['modified bounds beyond the four-digit years', { modified: { gt: -1e15, lt: 1e15 } }, [1, 7, 2, 5]],
  ['start strictly after an exact start', { start: { gt: h(1, 10) } }, [7, 2, 5]],
  ['start before', { start: { lt: h(1, 14) } }, [1]],
  ['end on or before', { end: { lte: h(2, 12) } }, [1, 7]],
  ['end after', { end: { gt: h(3, 0) } }, [2, 5]],
  ['start and end bounds together', { start: { gte: h(1, 12) }, end: { lte: h(5, 23) } }, [7, 2, 5]],
  ['search one word, any case', { search: ['jazz'] }, [1]],
  ['search every word must occur', { search: ['jazz', 'night'] }, [1]],
  ['search words in different fields', { search: ['rock', 'loud'] }, [2]],
  ['search a literal %', { search: ['100%'] }, [2]],
  ['search a literal _', { search: ['loud_music'] }, [2]],
  ['search _ is no wildcard', { search: ['loudxmusic'] }, []],
  ['search % is no wildcard', { search: ['rock%roll'] }, []],
  ['search folds accents in the data', { search: ['cafe'] }, [5]],
  ['categories, any of', { categoryIds: [10, 11] }, [1, 2]],
  ['tags, any of, with private', { tagIds: [20], statuses: ['publish', 'private'] }, [1, 6]],
  ['venues', { venueIds: [101, 999] }, [2]],
  ['organizers', { organizerIds: [201] }, [5]],
  ['featured', { featured: true }, [1]],
  ['not featured', { featured: false }, [7, 2, 5]],
  ['parent', { parentId: 1 }, [5]],
  ['ticketed', { ticketed: true }, [5]],
  ['not ticketed (unknown counts as not)', { ticketed: false }, [1, 7, 2]],
  ['venue with coordinates', { geo: { kind: 'has-coordinates' } }, [1, 2]],
  ['near Rome', { geo: { kind: 'near', lat: 41.9, lng: 12.5, radiusKm: 50 } }, [1]],
  ['near Milan, nearest first', {
    geo: { kind: 'near', lat: 45.46, lng: 9.19, radiusKm: 600 },
    sort: [{ field: 'distance', direction: 'asc' }, { field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }],
  }, [2, 1]],
  ['publish date order', { sort: [{ field: 'date', direction: 'asc' }, { field: 'id', direction: 'asc' }] }, [2, 5, 7, 1]],
  ['descending with id last', { sort: [{ field: 'startLocal', direction: 'desc' }, { field: 'id', direction: 'desc' }] }, [5, 2, 7, 1]],
  ['a page: limit and offset, total over all pages', { limit: 2, offset: 1 }, [7, 2], 4],
  ['a page past the end', { limit: 2, offset: 10 }, [], 4],
];

async function seedLinked(s: Storage): Promise<void> {
  await s.venues.insert(venueRecord(100, { title: 'Blue Room', date: '2026-01-03 00:00:00', city: 'Roma', address: '10 Via del Corso' }));
  await s.venues.insert(venueRecord(101, { title: 'Red Hall', date: '2026-01-02 00:00:00', description: 'Big_hall 50%' }));
  await s.venues.insert(venueRecord(102, { title: 'blue room', date: '2026-01-01 00:00:00', status: 'draft', slug: '' }));
  await s.venues.insert(venueRecord(103, { title: 'Blue Room', status: 'trash', slug: 'blue-room__trashed' }));
  await s.venues.insert(venueRecord(104, { title: 'Éclat', date: '2026-01-02 00:00:00', phone: '+39 06 1234' }));
  await s.organizers.insert(organizerRecord(200, { email: 'ada@lovelace.example', website: 'https://ada.example' }));
  await s.events.insert(eventRecord(1, { venueIds: [100], organizerIds: [200], startUtc: h(10, 10), endUtc: h(10, 12) }));
  await s.events.insert(eventRecord(2, { venueIds: [101], status: 'draft', startUtc: h(11, 10), endUtc: h(11, 12) }));
  await s.events.insert(eventRecord(3, { venueIds: [100], status: 'private', startUtc: h(1, 10), endUtc: h(1, 12) }));
}

const DATE_DESC: LinkedPostQuery['sort'] = [{ field: 'date', direction: 'desc' }, { field: 'id', direction: 'desc' }];
const LIVE = ['publish', 'draft', 'pending', 'future', 'private'] as const;

const LINKED_CASES: Array<[string, Partial<LinkedPostQuery>, number[], number?]> = [
  ['published, newest first, ties by id descending', {}, [100, 104, 101]],
  ['all live statuses', { statuses: LIVE }, [100, 104, 101, 102]],
  ['own drafts', { ownedBy: { authorId: 1, statuses: ['draft'] } }, [100, 104, 101, 102]],
  ['another author\'s drafts stay out', { ownedBy: { authorId: 9, statuses: ['draft'] } }, [100, 104, 101]],
  ['search in the title, any case', { search: ['blue'], statuses: LIVE }, [100, 102]],
  ['every fragment in the same field', { search: ['via', 'corso'] }, [100]],
  ['fragments in different fields do not match', { search: ['roma', 'corso'] }, []],
  ['search the description; _ and % are literal', { search: ['big_hall'] }, [101]],
  ['% is not a wildcard', { search: ['big%'] }, []],
  ['search folds accents', { search: ['eclat'] }, [104]],
  ['search a custom field (phone)', { search: ['1234'] }, [104]],
  ['title equality ignoring case', { titleEquals: 'blue room', statuses: LIVE }, [100, 102]],
  ['title and description equality', { titleEquals: 'red hall', descriptionEquals: 'big_hall 50%' }, [101]],
  ['linked to an event', { eventId: 1 }, [100]],
  ['with events of some statuses', { hasEvents: { value: true, eventStatuses: ['publish'] } }, [100]],
  ['without events of some statuses', { hasEvents: { value: false, eventStatuses: ['publish', 'private'] } }, [104, 101]],
  ['with events from an instant on', { withEvents: { eventStatuses: ['publish', 'private', 'draft'], startingFrom: h(11, 0) } }, [101]],
  ['by id ascending', { sort: [{ field: 'id', direction: 'asc' }] }, [100, 101, 104]],
  ['a page', { limit: 1, offset: 1 }, [104], 3],
];

async function seedTerms(s: Storage): Promise<void> {
  await s.categories.insert(termRecord(10, { name: 'Music', slug: 'music' }));
  await s.categories.insert(termRecord(11, { name: 'jazz', slug: 'jazz', parent: 10 }));
  await s.categories.insert(termRecord(12, { name: 'Art', slug: 'art' }));
  await s.categories.insert(termRecord(13, { name: 'Sculpture', slug: 'sculpture', parent: 12, description: 'Stone' }));
  await s.categories.insert(termRecord(14, { name: 'Zeta', slug: 'z_100%' }));
  await s.tags.insert(termRecord(20, { name: 'Music', slug: 'music' }));
  await s.events.insert(eventRecord(1, { categoryIds: [11], tagIds: [20] }));
  await s.events.insert(eventRecord(2, { categoryIds: [12], status: 'draft' }));
  await s.events.insert(eventRecord(3, { categoryIds: [13, 11] }));
}

const BY_NAME: TermQuery['sort'] = [{ field: 'name', direction: 'asc' }, { field: 'id', direction: 'asc' }];

const TERM_CASES: Array<[string, Partial<TermQuery>, Array<[number, number]>, number?]> = [
  ['every category by name, ignoring case', {}, [[12, 0], [11, 2], [10, 0], [13, 1], [14, 0]]],
  ['used ones, with the ancestors of used ones', { hideEmpty: true }, [[12, 0], [11, 2], [10, 0], [13, 1]]],
  ['search the name', { search: 'mus' }, [[10, 0]]],
  ['search the slug; _ is literal', { search: 'z_1' }, [[14, 0]]],
  ['search: % is literal', { search: '100%' }, [[14, 0]]],
  ['search: _ is no wildcard', { search: 'zx1' }, []],
  ['children of a parent', { parent: 10 }, [[11, 2]]],
  ['top level', { parent: 0 }, [[12, 0], [10, 0], [14, 0]]],
  ['terms of an event', { eventId: 3 }, [[11, 2], [13, 1]]],
  ['one slug', { slugs: ['music'] }, [[10, 0]]],
  ['any of several slugs; none matches an unknown one', { slugs: ['art', 'nope', 'z_100%'] }, [[12, 0], [14, 0]]],
  ['folded names, any of', { nameKeys: ['jazz', 'zeta'] }, [[11, 2], [14, 0]]],
  ['an empty slug list matches nothing', { slugs: [] }, []],
  ['include, in the given order', { ids: [13, 10], sort: [{ field: 'include', direction: 'asc' }, { field: 'id', direction: 'asc' }] }, [[13, 1], [10, 0]]],
  ['exclude', { excludeIds: [10, 11] }, [[12, 0], [13, 1], [14, 0]]],
  ['by count, most used first', { sort: [{ field: 'count', direction: 'desc' }, { field: 'id', direction: 'asc' }] }, [[11, 2], [13, 1], [10, 0], [12, 0], [14, 0]]],
  ['counting drafts too', { countStatuses: ['publish', 'draft'], ids: [12] }, [[12, 1]]],
  ['by slug descending', { sort: [{ field: 'slug', direction: 'desc' }, { field: 'id', direction: 'asc' }] }, [[14, 0], [13, 1], [10, 0], [11, 2], [12, 0]]],
  ['a page', { limit: 2, offset: 2 }, [[10, 0], [13, 1]], 5],
];

export function queriesGroup(ctx: SuiteContext): void {
  describe('event queries', () => {
    for (const [name, partial, ids, total] of EVENT_CASES) {
      it(name, async () => {
        const s = await ctx.fresh();
        await seedEvents(s);
        const page = await s.events.list({ records: 'listed', statuses: ['publish'], excludeHidden: true, sort: START_AND_ID, ...partial } as EventQuery);
        expect(page.items.map((e) => e.id)).toEqual(ids);
        expect(page.total).toBe(total ?? ids.length);
      });
    }
  });

  describe('venue and organizer queries', () => {
    for (const [name, partial, ids, total] of LINKED_CASES) {
      it(name, async () => {
        const s = await ctx.fresh();
        await seedLinked(s);
        const page = await s.venues.list({ statuses: ['publish'], sort: DATE_DESC, ...partial });
        expect(page.items.map((v) => v.id)).toEqual(ids);
        expect(page.total).toBe(total ?? ids.length);
      });
    }
    it('organizers search their e-mail and website', async () => {
      const s = await ctx.fresh();
      await seedLinked(s);
      const email = await s.organizers.list({ statuses: ['publish'], sort: DATE_DESC, search: ['lovelace'] });
      const web = await s.organizers.list({ statuses: ['publish'], sort: DATE_DESC, search: ['https', 'ada'] });
      expect([email.items.map((o) => o.id), web.items.map((o) => o.id)]).toEqual([[200], [200]]);
    });
  });

  describe('term queries', () => {
    for (const [name, partial, expected, total] of TERM_CASES) {
      it(name, async () => {
        const s = await ctx.fresh();
        await seedTerms(s);
        const page = await s.categories.list({ hideEmpty: false, countStatuses: ['publish'], sort: BY_NAME, ...partial });
        expect(page.items.map((t) => [t.term.id, t.count])).toEqual(expected);
        expect(page.total).toBe(total ?? expected.length);
      });
    }
    it('tags are a separate taxonomy', async () => {
      const s = await ctx.fresh();
      await seedTerms(s);
      const page = await s.tags.list({ hideEmpty: true, countStatuses: ['publish'], sort: BY_NAME });
      expect(page.items.map((t) => [t.term.id, t.count])).toEqual([[20, 1]]);
    });
  });
}
