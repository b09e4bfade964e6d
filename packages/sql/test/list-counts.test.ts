// Totals from the day counts (list-counts.ts, migration 0006) against core's reference engine:
// events of every duration the counts treat differently (negative, 0, up to and past 7 days,
// starting on day boundaries), windows with every kind of bound, one category or tag, and the
// triggers followed through inserts, replaces (status, hidden flag, start, links) and deletes.
import { runEventQuery, type EventQuery, type EventRecord, type PostStatus } from '@evcal/core/adapter';
import { eventRecord, termRecord } from '@evcal/storage-test-suite';
import fc from 'fast-check';
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
const event = fc.record({ start: instant, duration, status, hidden: fc.boolean(), categories: fc.uniqueArray(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }), tag: fc.boolean() });
// Lists mostly bound the start from below and the end from above (start_date, end_date); the
// other bounds come now and then.
const usual = fc.option(instant, { nil: undefined, freq: 5 });
const rare = fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: instant });

const query: fc.Arbitrary<EventQuery> = fc.record({
  records: fc.constantFrom<EventQuery['records'][]>('listed', 'stored'),
  statuses: fc.constantFrom<PostStatus[]>(['publish'], ['publish', 'private'], ['draft']),
  excludeHidden: fc.boolean(),
  start: fc.record({ gte: usual, gt: rare, lt: rare, lte: rare }),
  end: fc.record({ gte: rare, gt: rare, lt: rare, lte: usual }),
  term: fc.constantFrom(undefined, 1, 2, 'tag'),
}).map(({ term, start, end, ...q }) => ({
  ...q,
  start: Object.fromEntries(Object.entries(start).filter(([, v]) => v !== undefined)),
  end: Object.fromEntries(Object.entries(end).filter(([, v]) => v !== undefined)),
  ...(term === 'tag' ? { tagIds: [10] } : term !== undefined ? { categoryIds: [term] } : {}),
  sort: [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }],
  limit: 3,
}) as EventQuery);

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
              categoryIds: e.categories, tagIds: e.tag ? [10] : [],
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
