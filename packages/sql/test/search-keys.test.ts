// SQLite searches read their matches' list keys from the partial index of migration 0014,
// whatever statistics the planner has, and no other list reads it; lists stay exact while
// events change under that index (status, hidden flag, start and end updated, events deleted
// and created); a database made before 0014 gets the index when it is opened.
import { CompiledQuery, Kysely, sql, SqliteDialect, type LogEvent } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { runEventQuery, type EventQuery, type EventRecord, type PostStatus, type Storage } from '@evcal/core/adapter';
import { eventRecord } from '@evcal/storage-test-suite';
import { createSqlStorage, loadBetterSqlite3, migrate, pendingMigrations } from '../src/index';
import { sqliteFile } from './temp-files';

const Database = await loadBetterSqlite3();
const INDEX = 'evcal_events_match_keys';

interface Opened {
  readonly storage: Storage;
  readonly db: Kysely<any>;
  /** The statements run (SQL and parameters) since the last reset. */
  readonly log: { sql: string; parameters: readonly unknown[] }[];
}
const opened: Opened[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.storage.close()));
});


async function open(file: string, migrated = true): Promise<Opened> {
  const log: Opened['log'] = [];
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  const db = new Kysely<any>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (e: LogEvent) => { if (e.level === 'query') log.push({ sql: e.query.sql, parameters: e.query.parameters }); },
  });
  if (migrated) await migrate(db);
  // Merged at once: searches then read the FTS5 index, not the pending rows.
  const o = { storage: createSqlStorage({ db, dialect: 'sqlite', destroyOnClose: true, searchMerge: { after: 1, quietMs: 1 } }), db, log };
  opened.push(o);
  return o;
}

const WORDS = ['lantern', 'harbour', 'meadow', 'orchard'];

/** Event `id`: two of WORDS in its title or description, a status, a flag and a start that vary with `version`. */
function event(id: number, version: number): EventRecord {
  const statuses: PostStatus[] = ['publish', 'publish', 'draft', 'publish', 'private'];
  const startUtc = Date.UTC(2026, 0, 1) + ((id * 7 + version * 13) % 40) * 86_400_000 + id * 60_000;
  const [a, b] = [WORDS[(id * 13 + version * 7 + (id >> 2)) % 4]!, WORDS[(id * 3 + version + (id >> 3)) % 4]!];
  return eventRecord(id, {
    title: `${a} night ${id}`, description: version % 2 ? `<p>by the ${b}</p>` : '', excerpt: version % 3 ? '' : b,
    status: statuses[(id + version) % statuses.length]!, hideFromListings: (id + version) % 6 === 0,
    startUtc, endUtc: startUtc + ((id + version) % 3) * 86_400_000,
    revision: version + 1,
  });
}

/** Searches as the REST lists ask them: a window, listed events, in start order, paged. */
function queries(): EventQuery[] {
  const base = { records: 'listed', excludeHidden: true, statuses: ['publish'], sort: [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }] } as const;
  const window = { start: { gte: Date.UTC(2026, 0, 5) }, end: { lte: Date.UTC(2026, 1, 5) } };
  return [
    ...WORDS.map((w) => ({ ...base, search: [w], limit: 5, offset: 0 })),
    { ...base, ...window, search: ['lantern'], limit: 3, offset: 3 },
    { ...base, ...window, search: ['harbour', 'night'], limit: 4, offset: 0 },
    { ...base, search: ['meadow'], limit: 5, offset: 500 },
    { ...base, statuses: ['publish', 'draft', 'private'], excludeHidden: false, search: ['orchard'], limit: 50, offset: 0 },
    { ...base, search: ['lantern', 'ni'], limit: 5, offset: 2 },
  ] as EventQuery[];
}

async function expectLists(storage: Storage, events: Map<number, EventRecord>): Promise<void> {
  let listed = 0;
  for (const q of queries()) {
    const want = runEventQuery(events.values(), q, { venue: () => undefined });
    expect(await storage.events.list(q), JSON.stringify(q)).toEqual(want);
    if (want.items.length) listed++;
  }
  // Not vacuous: every search lists events but the page past the end (its total counted apart).
  expect(listed).toBe(queries().length - 1);
}

/** SQLite's plan for a statement that was run. */
async function explain(o: Opened, statement: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  const rows = await o.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]));
  return rows.rows.map((r) => r.detail).join('\n');
}

describe('sqlite search keys (migration 0014)', () => {
  it('a search reads its matches from the index of their list keys, on a database never analyzed', async () => {
    const o = await open(sqliteFile());
    for (let id = 1; id <= 40; id++) await o.storage.events.insert(event(id, 0));
    o.log.length = 0;
    const q = queries()[5]!;
    await o.storage.events.list(q);
    const page = o.log.find((s) => s.sql.startsWith('select') && s.sql.includes('evcal_events_search match'))!;
    expect(page.sql).toContain(`indexed by "${INDEX}"`);
    expect(await explain(o, page)).toContain(`USING COVERING INDEX ${INDEX}`);
    // A word too short for the trigram index is a scan bounded by the other filters: the planner chooses.
    o.log.length = 0;
    await o.storage.events.list({ ...q, search: ['ni'] });
    expect(o.log.some((s) => s.sql.includes('indexed by'))).toBe(false);
  });

  it('other lists never read it, even with planner statistics that make it look cheap', async () => {
    const o = await open(sqliteFile());
    for (let id = 1; id <= 300; id++) {
      const e = event(id, 0);
      // A few events longer than a week: counted exactly, not per day (migration 0006).
      await o.storage.events.insert({ ...e, categoryIds: [1 + (id % 3)], ...(id % 50 === 0 ? { endUtc: e.startUtc + 30 * 86_400_000 } : {}) });
    }
    await sql`analyze`.execute(o.db);
    const base = { records: 'listed', excludeHidden: true, statuses: ['publish'], sort: [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }], limit: 10, offset: 0 } as const;
    const window = { start: { gte: Date.UTC(2026, 0, 5) }, end: { lte: Date.UTC(2026, 1, 5) } };
    const lists = [base, { ...base, ...window }, { ...base, categoryIds: [2] }, { ...base, ...window, categoryIds: [1, 3] }, { ...base, ids: [3, 4, 5] },
      { ...base, search: ['ni'] }] as EventQuery[];
    for (const q of lists) {
      o.log.length = 0;
      await o.storage.events.list(q);
      const reads = o.log.filter((s) => s.sql.startsWith('select'));
      expect(reads.length).toBeGreaterThan(0);
      for (const statement of reads) expect(await explain(o, statement), statement.sql).not.toContain(INDEX);
    }
    // A search does, with the same statistics.
    o.log.length = 0;
    await o.storage.events.list({ ...base, ...window, categoryIds: [1, 3], search: ['night'] } as EventQuery);
    const page = o.log.find((s) => s.sql.startsWith('select') && s.sql.includes('evcal_events_search match'))!;
    expect(await explain(o, page)).toContain(`USING COVERING INDEX ${INDEX}`);
  });

  it('lists stay exact while the events under the index change, are deleted and created', async () => {
    const o = await open(sqliteFile());
    const events = new Map<number, EventRecord>();
    for (let id = 1; id <= 60; id++) {
      events.set(id, event(id, 0));
      await o.storage.events.insert(events.get(id)!);
    }
    await expectLists(o.storage, events);
    for (let version = 1; version <= 3; version++) {
      for (let id = version; id <= 60; id += 4) {
        if (!events.has(id)) continue;
        events.set(id, event(id, version));
        await o.storage.events.replace(events.get(id)!);
      }
      for (let id = 60 - version * 5; id > 60 - version * 5 - 2; id--) {
        if (!events.delete(id)) continue;
        await o.storage.events.delete(id);
      }
      const id = 100 + version;
      events.set(id, event(id, version));
      await o.storage.events.insert(events.get(id)!);
      await expectLists(o.storage, events);
    }
    const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(o.db);
    expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
  });

  it('a database made before 0014 gets the index when it is opened', async () => {
    const file = sqliteFile();
    const before = await open(file);
    const events = new Map<number, EventRecord>();
    for (let id = 1; id <= 30; id++) {
      events.set(id, event(id, 1));
      await before.storage.events.insert(events.get(id)!);
    }
    // As a database last opened by a build without 0014 left it.
    await sql`drop index ${sql.id(INDEX)}`.execute(before.db);
    await sql`delete from evcal_migrations where name = '0014_search_keys'`.execute(before.db);
    await before.storage.close();
    opened.splice(opened.indexOf(before), 1);

    const unmigrated = await open(file, false);
    expect(await pendingMigrations(unmigrated.db)).toEqual(['0014_search_keys']);
    expect(await migrate(unmigrated.db)).toEqual(['0014_search_keys']);
    const found = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name = ${INDEX}`.execute(unmigrated.db);
    expect(found.rows).toEqual([{ name: INDEX }]);
    await expectLists(unmigrated.storage, events);
  });
});
