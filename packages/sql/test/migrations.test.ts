// migrate(): idempotent, and safe when several processes start at once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/index';
import { POSTGRES_URL } from './databases';

const open: Kysely<any>[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy()));
});

const LATEST = Object.keys(MIGRATIONS).sort();

describe('migrate', () => {
  it('sqlite: applies every migration once; a second run applies none', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'evcal-migrate-')), 'db.sqlite');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    open.push(db);
    expect(await migrate(db)).toEqual(LATEST);
    expect(await migrate(db)).toEqual([]);
    const tables = await db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['evcal_events', 'evcal_event_links', 'evcal_terms', 'evcal_migrations']));
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
