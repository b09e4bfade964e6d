// Totals from the day counts (list-counts.ts, migration 0006) against core's reference engine:
// events of every duration the counts treat differently (negative, 0, up to and past 7 days,
// starting on day boundaries), windows with every kind of bound, one category or tag, and the
// triggers followed through inserts, replaces (status, hidden flag, start, links) and deletes.
// Queries have every key of an event query (the storage suite's table), the keys the day
// counts do not keep (modification times, search, featured…) now and then: those lists must
// not be counted from the days.
import { runEventQuery, type EventQuery, type EventRecord, type PostStatus, type Storage } from '@evcal/core/adapter';
import { eventQueries, eventRecord, termRecord } from '@evcal/storage-test-suite';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openPostgres, openSqlite, POSTGRES_URL, type OpenedDatabase } from './databases';

const DAY = 86_400_000;
const T0 = Date.UTC(2030, 0, 1);
const ctx = { venue: () => undefined };

const instant = fc.oneof(
  fc.integer({ min: 0, max: 60 * 24 }).map((h) => T0 + h * 3_600_000),
  // Day boundaries and the milliseconds around them.
  fc.tuple(fc.integer({ min: 0, max: 60 }), fc.constantFrom(-1, 0, 1)).map(([d, ms]) => T0 + d * DAY + ms),
);
const duration = fc.oneof(
  fc.constantFrom(0, 1, DAY - 1, DAY, 7 * DAY - 1, 7 * DAY, 7 * DAY + 1, 9 * DAY, -3_600_000),
  fc.integer({ min: 0, max: 10 * 24 }).map((h) => h * 3_600_000),
);
const status = fc.constantFrom<PostStatus>('publish', 'publish', 'draft', 'private');
const SECOND = Date.UTC(2029, 5, 1, 12);
const modifiedAt = fc.integer({ min: 0, max: 8 }).map((s) => SECOND + s * 1000);
const WORDS = ['jazz', 'rock', 'night'];
const event = fc.record({
  start: instant, duration, status, hidden: fc.boolean(), categories: fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }), tag: fc.boolean(),
  modified: modifiedAt, featured: fc.boolean(), title: fc.constantFrom(...WORDS), author: fc.integer({ min: 1, max: 2 }),
});
// Lists mostly bound the start from below and the end from above (start_date, end_date); the
// other bounds come now and then.
const usual = fc.option(instant, { nil: undefined, freq: 5 });
const rare = fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: instant });

const boundsOf = (r: Record<string, number | undefined>) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
// The keys the day counts do not keep: each in one query in 30 (modification times in one in
// 3), so that most queries are counted from the days and many of those filter by modification.
const RARE = 30;
const query: fc.Arbitrary<EventQuery> = eventQueries({
  instant,
  modifiedInstant: fc.integer({ min: -1500, max: 9500 }).map((ms) => SECOND + ms),
  eventId: fc.integer({ min: 1, max: 30 }),
  categoryId: fc.integer({ min: 1, max: 3 }),
  tagId: fc.constant(10),
  venueId: fc.constant(100),
  organizerId: fc.constant(200),
  authorId: fc.integer({ min: 1, max: 2 }),
  parentId: fc.constant(0),
  searchWord: fc.constantFrom(...WORDS),
  near: fc.constant({ kind: 'near' as const, lat: 0, lng: 0, radiusKm: 1 }),
  oneIn: { ownedBy: RARE, ids: RARE, search: RARE, venueIds: RARE, organizerIds: RARE, featured: RARE, parentId: RARE, ticketed: RARE, geo: RARE, modified: 3, categoryIds: 3, tagIds: 5 },
}, {
  records: fc.constantFrom<EventQuery['records'][]>('listed', 'listed', 'listed', 'stored'),
  statuses: fc.constantFrom<PostStatus[]>(['publish'], ['publish', 'private'], ['draft']),
  // Lists mostly bound the start from below and the end from above (start_date, end_date).
  start: fc.record({ gte: usual, gt: rare, lt: rare, lte: rare }).map(boundsOf),
  end: fc.record({ gte: rare, gt: rare, lt: rare, lte: usual }).map(boundsOf),
  sort: fc.constant<EventQuery['sort']>([{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }]),
  limit: fc.constant(3),
});

const databases: Array<[string, () => Promise<OpenedDatabase>, boolean]> = [
  ['sqlite', () => openSqlite(), true],
  ['postgres', () => openPostgres(), Boolean(POSTGRES_URL)],
];

for (const [name, open, available] of databases) {
  describe.skipIf(!available)(`${name}: totals from the day counts`, () => {
    it('equal the reference engine\'s, through inserts, replaces and deletes', { timeout: 120_000 }, async () => {
      await fc.assert(fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 25 }),
        fc.array(fc.tuple(fc.nat(), event, fc.boolean()), { maxLength: 6 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        async (events, changes, queries) => {
          const { storage } = await open();
          try {
            const model = new Map<number, EventRecord>();
            const record = (id: number, e: (typeof events)[number]) => eventRecord(id, {
              startUtc: e.start, endUtc: e.start + e.duration, status: e.status, hideFromListings: e.hidden,
              categoryIds: e.categories, tagIds: e.tag ? [10] : [], modifiedUtc: new Date(e.modified).toISOString().slice(0, 19).replace('T', ' '),
              featured: e.featured, title: e.title, authorId: e.author,
            });
            for (const t of [termRecord(1), termRecord(2, { parent: 1 }), termRecord(3)]) await storage.categories.insert(t);
            await storage.tags.insert(termRecord(10));
            await storage.transaction(async (tx) => {
              for (const [i, e] of events.entries()) {
                const r = record(i + 1, e);
                await tx.events.insert(r);
                model.set(r.id, r);
              }
            });
            for (const [pick, e, remove] of changes) {
              const id = [...model.keys()][pick % model.size];
              if (id === undefined) break;
              if (remove) {
                await storage.events.delete(id);
                model.delete(id);
              } else {
                const r = record(id, e);
                await storage.events.replace(r);
                model.set(id, r);
              }
            }
            for (const q of queries) {
              expect((await storage.events.list(q)).total, JSON.stringify(q)).toBe(runEventQuery(model.values(), q, ctx).total);
            }
          } finally {
            await storage.close();
          }
        },
      ), { numRuns: name === 'postgres' ? 40 : 100 });
    });
  });
}

// PostgreSQL folds the counts of a transaction that writes many events (migration 0017): the
// triggers append to temporary tables, summed into the counts before the commit. The same
// writes, in one transaction and one at a time, leave the same counts.
describe.skipIf(!POSTGRES_URL)('postgres: counts folded in a transaction of many writes', () => {
  type Op = { kind: 'insert' | 'replace'; pick: number; e: Parameters<typeof toRecord>[1] }
    | { kind: 'delete'; pick: number } | { kind: 'publish' } | { kind: 'unlink'; category: number } | { kind: 'read' };
  const toRecord = (id: number, e: { start: number; duration: number; status: PostStatus; hidden: boolean; categories: number[]; tag: boolean }) => eventRecord(id, {
    startUtc: e.start, endUtc: e.start + e.duration, status: e.status, hideFromListings: e.hidden, categoryIds: e.categories, tagIds: e.tag ? [10] : [],
  });
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('insert' as const), pick: fc.nat(), e: event }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), e: event }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  );
  const COUNTS = ['select kind, ref_id, status, n from evcal_term_counts where n <> 0 order by 1, 2, 3',
    'select kind, ref_id, status, hidden, day, n from evcal_event_days where n <> 0 order by 1, 2, 3, 4, 5'];

  it('leave the counts one write at a time leaves', { timeout: 240_000 }, async () => {
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 150, maxLength: 220 }), async (ops) => {
      // Midway, a batch of drafts published, a count read inside the transaction, and a category unlinked.
      const all: Op[] = [...ops.slice(0, 120), { kind: 'publish' }, { kind: 'read' }, { kind: 'unlink', category: 2 }, ...ops.slice(120)];
      const [bulk, single] = [await openPostgres(), await openPostgres()];
      try {
        for (const s of [bulk.storage, single.storage]) {
          for (const t of [termRecord(1), termRecord(2, { parent: 1 }), termRecord(3)]) await s.categories.insert(t);
          await s.tags.insert(termRecord(10));
        }
        /** Runs every write of `all` on `s`, new events numbered on from 1000; what the count read saw. */
        const applyAll = async (s: Storage): Promise<number | undefined> => {
          const ids: number[] = [];
          let nextId = 1000;
          let read: number | undefined;
          for (const o of all) {
            if (o.kind === 'insert') {
              ids.push(nextId);
              await s.events.insert(toRecord(nextId++, o.e));
            } else if (o.kind === 'replace' && ids.length) await s.events.replace(toRecord(ids[o.pick % ids.length]!, o.e));
            else if (o.kind === 'delete' && ids.length) await s.events.delete(ids.splice(o.pick % ids.length, 1)[0]!);
            else if (o.kind === 'publish') await s.events.setStatus(ids, 'draft', 'publish', 5);
            else if (o.kind === 'unlink') await s.events.unlink('category', o.category, 5);
            else if (o.kind === 'read') read = (await s.categories.list({ hideEmpty: false, countStatuses: ['publish'], sort: [{ field: 'id', direction: 'asc' }] })).items[0]?.count;
          }
          return read;
        };
        bulk.queries.length = 0;
        const readInOne = await bulk.storage.transaction((tx) => applyAll(tx));
        expect(bulk.queries.some((q) => q.includes('set_config')), 'the transaction folded its counts').toBe(true);
        single.queries.length = 0;
        const readOneAtATime = await applyAll(single.storage);
        // One write at a time: only the batch (publishing, unlinking) may fold.
        expect(single.queries.filter((q) => q.includes('set_config')).length).toBeLessThanOrEqual(2);
        // The count read inside the folding transaction saw what a write at a time saw.
        expect(readInOne).toBe(readOneAtATime);
        for (const text of COUNTS) {
          const [a, b] = await Promise.all([bulk, single].map(async (o) => (await sql.raw(text.replace(/from (\w+)/, `from "${o.schema}".$1`)).execute(o.db)).rows));
          expect(a!.length).toBeGreaterThan(0);
          expect(a).toEqual(b);
        }
      } finally {
        await bulk.storage.close();
        await single.storage.close();
      }
    }), { numRuns: 4, endOnFailure: true });
  });
});
