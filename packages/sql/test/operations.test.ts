// The SQL adapter under the calendar's operations: the number of queries per endpoint does not
// grow with the page (no N+1), multi-record writes are all-or-nothing, and driver errors
// become core errors with nothing of the SQL in them.
import { createCalendar, type Calendar } from '@evcal/core';
import { isCalendarError, type Storage } from '@evcal/core/adapter';
import { eventRecord } from '@evcal/storage-test-suite';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres, openSqlite, POSTGRES_URL, type OpenedDatabase } from './databases';

const admin = { principal: { id: 1, role: 'administrator' } };
const NOW = Date.UTC(2026, 10, 22, 12);
const closing: Storage[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((s) => s.close()));
});

async function calendarOn(open: () => Promise<OpenedDatabase>, storage?: (s: Storage) => Storage) {
  const opened = await open();
  closing.push(opened.storage);
  const calendar = createCalendar({ storage: storage ? storage(opened.storage) : opened.storage, now: () => NOW });
  return { opened, calendar };
}

/** `n` events, each with a venue, two organizers, a category and a tag of its own. */
async function populate(calendar: Calendar, n: number): Promise<void> {
  const events = Array.from({ length: n }, (_, i) => ({
    id: 1000 + i, title: `Event ${i}`, status: 'publish', author: 1, timezone: 'UTC',
    start_date: `2026-12-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`, end_date: `2026-12-${String(1 + (i % 28)).padStart(2, '0')} 12:00:00`,
    venue: [100 + i], organizer: [300 + i, 400 + i], categories: [10 + i], tags: [600 + i],
  }));
  await calendar.importDataset({
    categories: events.map((_, i) => ({ id: 10 + i, name: `Cat ${i}` })),
    tags: events.map((_, i) => ({ id: 600 + i, name: `Tag ${i}` })),
    venues: events.map((_, i) => ({ id: 100 + i, venue: `Venue ${i}`, status: 'publish' })),
    organizers: events.flatMap((_, i) => [{ id: 300 + i, organizer: `A ${i}`, status: 'publish' }, { id: 400 + i, organizer: `B ${i}`, status: 'publish' }]),
    events,
  });
}

async function countQueries(opened: OpenedDatabase, run: () => Promise<unknown>): Promise<number> {
  opened.queries.length = 0;
  await run();
  return opened.queries.length;
}

const databases: Array<[string, () => Promise<OpenedDatabase>, boolean]> = [
  ['sqlite', () => openSqlite(), true],
  ['postgres', () => openPostgres(), Boolean(POSTGRES_URL)],
];

for (const [name, open, available] of databases) {
  describe.skipIf(!available)(`${name}: queries per endpoint`, { timeout: 30_000 }, () => {
    // Budgets: a list first reads the change counter (its validator); a page is 3 queries (rows,
    // count, the events' links); embedding an event page is at most 6 (venues, organizers,
    // categories, tags, and the two term counts); resolving a category filter is 4 (slugs, ids,
    // names, and the category tree for children).
    const EVENT_PAGE = 1 + 3 + 6;
    const endpoints: Array<[string, (c: Calendar) => Promise<unknown>, number]> = [
      ['event list', (c) => c.events.list({ per_page: 50, start_date: '2026-11-30', end_date: '2026-12-31' }, admin), EVENT_PAGE],
      ['event list, category filter', (c) => c.events.list({ per_page: 50, categories: [10, 11, 12], start_date: '2026-11-30' }, admin), EVENT_PAGE + 4],
      ['venue list', (c) => c.venues.list({ per_page: 50 }, admin), 1 + 2],
      ['organizer list with events', (c) => c.organizers.list({ per_page: 50, has_events: true }, admin), 1 + 2],
      ['category list', (c) => c.categories.list({ per_page: 50 }, admin), 1 + 2],
      // The event (rows, links) and its embedded records.
      ['single event', async (c) => (await c.events.get({ id: 1000 }, admin)).value, 2 + 6],
    ];
    for (const [endpoint, run, budget] of endpoints) {
      it(`${endpoint}: the same number of queries for 3 items as for 40`, async () => {
        const small = await calendarOn(open);
        await populate(small.calendar, 3);
        const large = await calendarOn(open);
        await populate(large.calendar, 40);
        await run(small.calendar); // the first call also runs the scheduler's sweep
        await run(large.calendar);
        const few = await countQueries(small.opened, () => run(small.calendar));
        const many = await countQueries(large.opened, () => run(large.calendar));
        expect(many).toBe(few);
        expect(many).toBeLessThanOrEqual(budget);
      });
    }

    it('filtering by 1 category or by 30 runs the same number of queries', async () => {
      const { opened, calendar } = await calendarOn(open);
      await populate(calendar, 40);
      // Lists not asked before (a list asked again is answered from what was kept).
      const filter = (n: number, perPage: number) => () => calendar.events.list({ categories: Array.from({ length: n }, (_, i) => 10 + i), start_date: '2026-11-30', per_page: perPage }, admin);
      await filter(1, 9)();
      await filter(30, 9)();
      expect(await countQueries(opened, filter(30, 10))).toBe(await countQueries(opened, filter(1, 10)));
    });

    it('an event list is one page query, one count and one query for the page\'s links', async () => {
      const { opened, calendar } = await calendarOn(open);
      await populate(calendar, 5);
      await calendar.events.list({}, admin);
      const storageQueries = await countQueries(opened, () => opened.storage.events.list({
        records: 'listed', statuses: ['publish'], excludeHidden: true, sort: [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }], limit: 10,
      }));
      expect(storageQueries).toBe(3);
    });
  });

  describe.skipIf(!available)(`${name}: writes`, () => {
    it('an event with an inline venue, organizers and new terms is written in one transaction: a failure leaves nothing', async () => {
      let failEventInsert = true;
      // Fails the event row after the venue, organizers and terms were written in the same transaction.
      const failing = (s: Storage): Storage => ({
        ...s,
        transaction: (fn) => s.transaction((tx) => fn({
          ...tx,
          events: {
            ...tx.events,
            insert: async (e) => {
              if (failEventInsert) throw new Error('disk full');
              return tx.events.insert(e);
            },
          },
        })),
      });
      const { opened, calendar } = await calendarOn(open, failing);
      const input = {
        title: 'Gig', start_date: '2026-12-01 20:00', end_date: '2026-12-01 23:00',
        venue: { venue: 'New Hall' }, organizer: [{ organizer: 'New Org' }], categories: 'New Category', tags: 'New Tag',
      };
      await expect(calendar.events.create(input, admin)).rejects.toThrow('disk full');
      const s = opened.storage;
      const everything = { statuses: ['publish', 'draft'] as const, sort: [{ field: 'id' as const, direction: 'asc' as const }] };
      expect((await s.venues.list(everything)).total).toBe(0);
      expect((await s.organizers.list(everything)).total).toBe(0);
      expect((await s.categories.list({ hideEmpty: false, countStatuses: [], sort: everything.sort })).total).toBe(0);
      expect((await s.tags.list({ hideEmpty: false, countStatuses: [], sort: everything.sort })).total).toBe(0);
      failEventInsert = false;
      const created = (await calendar.events.create(input, admin)).value;
      expect(created.venue).toMatchObject({ venue: 'New Hall' });
    });

    it('a unique violation is a conflict, with no SQL in the message', async () => {
      const { opened } = await calendarOn(open);
      const s = opened.storage;
      await s.categories.insert({ id: 1, name: 'A', slug: 'a', description: '', parent: 0, revision: 1 });
      const error = await s.categories.insert({ id: 1, name: 'B', slug: 'b', description: '', parent: 0, revision: 1 }).catch((e: unknown) => e);
      expect(isCalendarError(error) && error.code).toBe('conflict');
      expect((error as Error).message).not.toMatch(/insert|evcal_|constraint|sql/i);
    });

    /** `analyze …` or `vacuum (analyze) …` (PostgreSQL after a bulk write). */
    const ANALYZE = /^(analyze\b|vacuum \(analyze\))/i;

    it('a bulk load leaves fresh planner statistics; a single write does not analyze', async () => {
      const { opened, calendar } = await calendarOn(open);
      const analyzed = () => opened.queries.filter((q) => ANALYZE.test(q.trim())).length;
      await calendar.events.create({ title: 'One', start_date: '2026-12-01 20:00', end_date: '2026-12-01 21:00' }, admin);
      expect(analyzed()).toBe(0);
      const events = Array.from({ length: 1000 }, (_, i) => ({
        id: 5000 + i, title: `Bulk ${i}`, status: 'publish', start_date: '2026-12-02 10:00:00', end_date: '2026-12-02 11:00:00',
      }));
      await calendar.importDataset({ events });
      // PostgreSQL also analyzed during the load, as it inserted its 500th and 1,000th event.
      expect(analyzed()).toBe(name === 'postgres' ? 3 : 1);
      // What the planner now knows of the events table: every row the load wrote.
      const rows = name === 'sqlite'
        ? Math.max(...(await sql<{ stat: string }>`select stat from sqlite_stat1 where tbl = 'evcal_events'`.execute(opened.db)).rows.map((r) => Number(r.stat.split(' ')[0])))
        : Number((await sql<{ n: number }>`select reltuples as n from pg_class where oid = ${`${opened.schema}.evcal_events`}::regclass`.execute(opened.db)).rows[0]?.n);
      expect(rows).toBeGreaterThanOrEqual(1001);
    }, 60_000);

    it('a batch of 1,000 status changes leaves fresh statistics (a status the lists filter on)', async () => {
      const { opened } = await calendarOn(open);
      const ids = Array.from({ length: 1000 }, (_, i) => 30_000 + i);
      await opened.storage.transaction(async (tx) => {
        for (const id of ids) await tx.events.insert(eventRecord(id, { status: 'future' }));
      });
      opened.queries.length = 0;
      expect(await opened.storage.events.setStatus(ids, 'future', 'publish', 9)).toHaveLength(1000);
      expect(opened.queries.filter((q) => ANALYZE.test(q.trim())).length).toBe(1);
    }, 60_000);

    it.runIf(name === 'postgres')('a bulk load is vacuumed before it is answered: its rows visible to index-only reads', async () => {
      // Without it, index-only counts read the heap for every row until autovacuum sets the
      // visibility map. Which pages VACUUM may mark all-visible depends on every snapshot open in
      // the database (other test files run beside this one), so what is checked is that the
      // table was vacuumed by the load itself (vacuum_count counts VACUUM, not autovacuum).
      const { opened } = await calendarOn(open);
      await opened.storage.transaction(async (tx) => {
        for (let i = 0; i < 1100; i++) await tx.events.insert(eventRecord(50_000 + i));
      });
      const table = (await sql<{ vacuumed: number; analyzed: number }>`select vacuum_count as vacuumed, analyze_count as analyzed
        from pg_stat_user_tables where relid = ${`${opened.schema}.evcal_events`}::regclass`.execute(opened.db)).rows[0]!;
      expect(Number(table.vacuumed)).toBe(1);
      expect(Number(table.analyzed)).toBeGreaterThanOrEqual(1);
    }, 60_000);

    it.runIf(name === 'sqlite')('a load is answered with its events in the search index, none left pending for a background merge', async () => {
      // Merged in the background, batches of 2,000 held the one connection while lists queued
      // behind them, for seconds after `evcal serve --seed` (sql-storage.ts freshAfterBulk).
      const { opened } = await calendarOn(open);
      await opened.storage.transaction(async (tx) => {
        for (let i = 0; i < 1100; i++) await tx.events.insert(eventRecord(40_000 + i));
      });
      const pending = await sql<{ n: number }>`select count(*) as n from evcal_search_pending`.execute(opened.db);
      expect(Number(pending.rows[0]!.n)).toBe(0);
    }, 60_000);

    it.runIf(name === 'postgres')('a load analyzes the tables its triggers read as it grows, before it commits', async () => {
      // The sessions' cached plans of the count triggers are made again for the tables as they
      // are; planned on empty tables they read every event for each link (sql-storage.ts).
      const { opened } = await calendarOn(open);
      const seen: number[] = [];
      const reltuples = async () => Number((await sql<{ n: number }>`select reltuples as n from pg_class where oid = ${`${opened.schema}.evcal_events`}::regclass`.execute(opened.db)).rows[0]?.n);
      await opened.storage.transaction(async (tx) => {
        for (let i = 0; i < 1100; i++) {
          await tx.events.insert(eventRecord(20_000 + i));
          // Seen from another session: planner statistics are not transactional.
          if (i === 498 || i === 499 || i === 998 || i === 999) seen.push(await reltuples());
        }
      });
      // Analyzed as the 500th and the 1,000th insert ran, so with 499 and 999 rows.
      expect(seen).toEqual([0, 499, 499, 999]);
    }, 60_000);

    it('concurrent creates of events with the same title get distinct slugs', async () => {
      const { calendar } = await calendarOn(open);
      const created = await Promise.all(Array.from({ length: 8 }, async () => (await calendar.events.create(
        { title: 'Same Title', start_date: '2026-12-01 20:00', end_date: '2026-12-01 21:00' }, admin)).value));
      expect(new Set(created.map((e) => e.slug)).size).toBe(8);
    });
  });
}

describe('connection failures', () => {
  it.skipIf(!POSTGRES_URL)('a database that cannot be reached is "unavailable", with nothing of the driver in the message', async () => {
    const { Kysely, PostgresDialect } = await import('kysely');
    const pg = (await import('pg')).default;
    const { createSqlStorage } = await import('../src/index');
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: 'postgres://nobody:x@127.0.0.1:1/none', connectionTimeoutMillis: 2000 }) }) });
    const storage = createSqlStorage({ db, dialect: 'postgres', destroyOnClose: true });
    closing.push(storage);
    const error = await storage.events.get(1).catch((e: unknown) => e);
    expect(isCalendarError(error) && error.code).toBe('unavailable');
    expect((error as Error).message).not.toMatch(/127\.0\.0\.1|ECONN|nobody/);
  });
});

for (const [name, open, available] of databases) {
  describe.skipIf(!available)(`${name}: term lists`, () => {
    it('sort by name when orderby names a property every object has (constructor, __proto__, toString)', async () => {
      const { calendar } = await calendarOn(open);
      await populate(calendar, 3);
      const ids = (list: { body: { tags: readonly { id: number }[] } }) => list.body.tags.map((t) => t.id);
      const byName = ids(await calendar.tags.list({ hide_empty: false, orderby: 'name' }, admin));
      expect(byName).toHaveLength(3);
      for (const orderby of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        expect(ids(await calendar.tags.list({ hide_empty: false, orderby }, admin)), orderby).toEqual(byName);
      }
    });
  });
}
