// Real databases for the SQL adapter's tests: SQLite files through better-sqlite3, and
// PostgreSQL through pg when EVCAL_TEST_POSTGRES_URL names a server (each storage in a fresh
// schema). Without that URL the PostgreSQL tests are skipped with a notice.
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Storage } from '@evcal/core/adapter';
import { createSqlStorage, loadBetterSqlite3, migrate, watchPostgresPool, withStatementCache, type WatchOptions } from '../src/index';
import { sqliteFile } from './temp-files';

const Database = await loadBetterSqlite3();

export const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) {
  console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the PostgreSQL tests of @evcal/sql are skipped.');
}

export interface OpenedDatabase {
  readonly storage: Storage;
  readonly db: Kysely<any>;
  /** SQL statements run since the last reset. */
  readonly queries: string[];
  /** The PostgreSQL schema of the tables. */
  readonly schema?: string;
  reopen(): Promise<OpenedDatabase>;
}

const log = (queries: string[]) => (event: LogEvent) => {
  if (event.level === 'query') queries.push(event.query.sql);
};

/** A SQLite storage; `statementCache`: through withStatementCache, as an application may open it. */
export async function openSqlite(file = sqliteFile(), statementCache = false): Promise<OpenedDatabase> {
  const queries: string[] = [];
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  const database = statementCache ? withStatementCache(sqlite) : sqlite;
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database }), log: log(queries) });
  await migrate(db);
  queries.length = 0;
  const storage = createSqlStorage({ db, dialect: 'sqlite', destroyOnClose: true, sqliteDatabase: sqlite });
  return { storage, db, queries, reopen: async () => openSqlite(file, statementCache) };
}

/** How `openPostgres` makes its pool and storage. */
export interface PostgresOptions {
  /** The pool watched as `evcal serve` watches it (`watchPostgresPool`): a write then sends its last statement with its COMMIT. @default true */
  readonly watched?: boolean;
  /** Told of each client the pool connects (after `watchPostgresPool`'s own listener). */
  readonly onClient?: (client: pg.PoolClient) => void;
  /** The storage's `onCommit`. */
  readonly onCommit?: (position: number) => void;
  /** Connections in the pool. @default 4 */
  readonly poolSize?: number;
  /** `watchPostgresPool`'s options (prepared statements). */
  readonly watch?: WatchOptions;
}

export async function openPostgres(schema = `evcal_test_${randomBytes(5).toString('hex')}`, options: PostgresOptions = {}): Promise<OpenedDatabase> {
  const queries: string[] = [];
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: options.poolSize ?? 4 });
  if (options.watched !== false) watchPostgresPool(pool, undefined, options.watch);
  if (options.onClient) pool.on('connect', options.onClient);
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log: log(queries) });
  await migrate(db, { schema });
  queries.length = 0;
  const storage = createSqlStorage({ db, dialect: 'postgres', schema, destroyOnClose: true, ...(options.onCommit ? { onCommit: options.onCommit } : {}) });
  return { storage, db, queries, schema, reopen: async () => openPostgres(schema, options) };
}
