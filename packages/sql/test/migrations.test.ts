// migrate(): idempotent, and safe when several processes start at once.
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { eventRecord } from '@evcal/storage-test-suite';
import { createSqlStorage, loadBetterSqlite3, MIGRATIONS, migrate, pendingMigrations } from '../src/index';
import type { EvcalMigration } from '../src/migrations/types';
import { eventRow, linkRows, NO_OFFSET, startOffset } from '../src/rows';
import { POSTGRES_URL } from './databases';
import { sqliteFile } from './temp-files';

const Database = await loadBetterSqlite3();

const open: Kysely<any>[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy()));
});

const LATEST = Object.keys(MIGRATIONS).sort();

describe('migrate', () => {
  it('sqlite: applies every migration once; a second run applies none', async () => {
    const file = sqliteFile();
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    open.push(db);
    expect(await migrate(db)).toEqual(LATEST);
    expect(await migrate(db)).toEqual([]);
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['evcal_events', 'evcal_event_links', 'evcal_terms', 'evcal_migrations']));
  });

  // Branches number their migrations apart (0007 on one, 0008 on another) and merge in either
  // order: a database that has 0008 must still take a 0007 that arrives later.
  it('sqlite: runs a migration numbered below one already applied, and readiness reports it pending until then', async () => {
    const file = sqliteFile();
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    open.push(db);
    await migrate(db);
    const storage = createSqlStorage({ db, dialect: 'sqlite' });
    expect(await storage.readiness()).toEqual({ ready: true });
    const table = MIGRATIONS as Record<string, EvcalMigration>;
    const earlier = '0007_merged_later';
    expect(LATEST.at(-1)! > earlier).toBe(true);
    table[earlier] = { up: async (d) => { await d.schema.createTable('evcal_merged_later').addColumn('id', 'integer').execute(); } };
    try {
      expect(await pendingMigrations(db)).toEqual([earlier]);
      expect(await storage.readiness()).toEqual({ ready: false, reason: 'schema', detail: `migrations not applied: ${earlier}` });
      expect(await migrate(db)).toEqual([earlier]);
      expect(await storage.readiness()).toEqual({ ready: true });
    } finally {
      delete table[earlier];
    }
  });

  it('sqlite: readiness tells a database never migrated from one that cannot be read', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const storage = createSqlStorage({ db, dialect: 'sqlite' });
    expect(await storage.readiness()).toMatchObject({ ready: false, reason: 'schema' });
    await db.destroy();
    expect(await storage.readiness()).toMatchObject({ ready: false, reason: 'unreachable' });
  });

  it.skipIf(!POSTGRES_URL)('postgres: concurrent starts on a new schema apply each migration once', async () => {
    const schema = `evcal_migrate_${randomBytes(4).toString('hex')}`;
    const dbs = Array.from({ length: 4 }, () => new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: POSTGRES_URL, max: 2 }) }) }));
    open.push(...dbs);
    const ran = await Promise.all(dbs.map((db) => migrate(db, { schema })));
    expect(ran.flat().sort()).toEqual(LATEST);
    const rows = await dbs[0]!.withSchema(schema).selectFrom('evcal_migrations').select('name').execute();
    expect(rows.map((r) => r.name)).toEqual(LATEST);
  });
});

// 0002 and 0003 on a calendar written under 0001: the new columns and term counts are filled
// from the rows already there, and the counts' triggers keep them afterwards; records start at
// revision 0 and the change counter at 0.
const upgrades: Array<[string, () => Promise<{ db: Kysely<any>; schema?: string }>, boolean]> = [
  ['sqlite', async () => {
    const file = sqliteFile();
    return { db: new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) }) };
  }, true],
  ['postgres', async () => ({
    db: new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: POSTGRES_URL, max: 2 }) }) }),
    schema: `evcal_migrate_${randomBytes(4).toString('hex')}`,
  }), Boolean(POSTGRES_URL)],
];

for (const [name, connect, available] of upgrades) {
  it.skipIf(!available)(`${name}: 0002 fills start copies, offsets and term counts from 0001 rows; 0003 adds revisions`, async () => {
    const { db, schema } = await connect();
    open.push(db);
    const target = schema ? db.withSchema(schema) : db;
    if (schema) await db.schema.createSchema(schema).execute();
    await target.schema.createTable('evcal_migrations').addColumn('name', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('timestamp', 'varchar(255)', (c) => c.notNull()).execute();
    await MIGRATIONS['0001_initial']!.up(target);
    await target.insertInto('evcal_migrations').values({ name: '0001_initial', timestamp: 'then' }).execute();
    const events = [
      eventRecord(1, { categoryIds: [10, 11], tagIds: [20] }),
      eventRecord(2, { categoryIds: [10], status: 'draft', timezone: 'Asia/Tokyo', startLocal: '2026-06-02 05:00:00' }),
      eventRecord(3, { categoryIds: [11], startLocal: 'not a wall clock' }),
    ];
    for (const e of events) {
      // The columns of 0001 only: start_offset comes with 0002, revision with 0003, ical_uid with 0004, lineage with 0005, search_text with 0006,
      // recurrence and occurrence with 0009.
      const { start_offset: _, revision: _r, ical_uid: _uid, lineage: _lineage, search_text: _s, recurrence: _rec, occurrence: _occ, ...row } = eventRow(e);
      await target.insertInto('evcal_events').values(row).execute();
      // The links of 0001: start_utc comes with 0002, start_local with 0010.
      const links = linkRows(e).map(({ start_utc: __, start_local: ___, ...link }) => link);
      if (links.length) await target.insertInto('evcal_event_links').values(links).execute();
    }

    expect(await migrate(db, schema ? { schema } : {})).toEqual(LATEST.filter((m) => m !== '0001_initial'));
    const offsets = await target.selectFrom('evcal_events').select(['id', 'start_offset']).orderBy('id').execute();
    expect(offsets.map((r) => Number(r.start_offset))).toEqual(events.map((e) => startOffset(e.startLocal, e.startUtc)));
    expect(Number(offsets[1]!.start_offset)).toBe(9 * 3_600_000);
    expect(Number(offsets[2]!.start_offset)).toBe(NO_OFFSET);
    const links = await target.selectFrom('evcal_event_links').select(['event_id', 'start_utc', 'start_local']).execute();
    for (const l of links) {
      const event = events.find((e) => e.id === Number(l.event_id))!;
      expect([Number(l.start_utc), l.start_local]).toEqual([event.startUtc, event.startLocal]);
    }

    const storage = createSqlStorage({ db, dialect: name as 'sqlite' | 'postgres', ...(schema ? { schema } : {}) });
    expect((await storage.events.getMany([1, 2, 3])).map((e) => e.revision)).toEqual([0, 0, 0]);
    expect(await storage.lastChange()).toBe(0);
    const counts = async () => [...(await storage.events.countByTerm('category', [10, 11], ['publish'])).entries()];
    expect(await counts()).toEqual([[10, 1], [11, 2]]);
    await storage.events.replace({ ...events[1]!, status: 'publish' });
    expect(await counts()).toEqual([[10, 2], [11, 2]]);
    await storage.events.replace({ ...events[0]!, categoryIds: [11] });
    expect(await counts()).toEqual([[10, 1], [11, 2]]);
    await storage.events.delete(3);
    expect(await counts()).toEqual([[10, 1], [11, 1]]);
    expect([...(await storage.events.countByTerm('tag', [20], ['publish'])).entries()]).toEqual([[20, 1]]);
    // Each write above was a transaction of its own.
    expect(await storage.lastChange()).toBe(3);
    // 0005: rows written before it have no lineage; new ones keep theirs.
    expect((await storage.events.get(1))?.lineage).toBeUndefined();
    await storage.events.replace({ ...events[0]!, lineage: ['old.example?id=1'] });
    expect((await storage.events.get(1))?.lineage).toEqual(['old.example?id=1']);
    if (schema) await db.schema.dropSchema(schema).cascade().execute();
  });
}
