// Storage URLs of the CLI:
//   memory                       in this process only
//   json:<file>                  one JSON document (@evcal/file-json)
//   sqlite:<file>                SQLite through better-sqlite3, WAL (@evcal/sql)
//   postgres://…[?schema=name]   PostgreSQL through pg; the schema is created if missing (@evcal/sql)
// SQL databases are migrated to the latest schema when opened.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Storage } from '@evcal/core';
import { freeBytesAt, openJsonFileStorage } from '@evcal/file-json';
import { createMemoryStorage } from '@evcal/memory';
// @evcal/sql and kysely (some 260 modules) are imported when a SQL storage is opened, not
// before: a server on memory or a JSON file starts without loading them.

export class StorageUrlError extends Error {
  override readonly name = 'StorageUrlError';
}

/** The storage `npm start` and `evcal serve` use when none is given. */
export const DEFAULT_STORAGE = 'sqlite:./data/evcal.db';

export interface OpenStorageOptions {
  /**
   * Told when a pooled PostgreSQL connection fails, idle or running a query (the server
   * restarted, a backend terminated, a network cut): the query it ran fails (503), the pool
   * drops the connection and the next query opens another.
   * @default ignored
   */
  readonly onConnectionError?: (error: Error) => void;
  /**
   * PostgreSQL: told the change counter's value after each write commits, in the write's async
   * context (read-routing.ts hands it to the writer).
   * @default ignored
   */
  readonly onCommit?: (position: number) => void;
  /**
   * PostgreSQL: told once if prepared statements turn themselves off because a pooler in
   * transaction mode lost one (`?prepare=false` spares the first error).
   * @default ignored
   */
  readonly onPreparingOff?: (error: Error) => void;
}

/** Opens the storage a URL names. */
export async function openStorage(url: string, options: OpenStorageOptions = {}): Promise<Storage> {
  if (url === 'memory' || url === 'memory:') return createMemoryStorage();
  if (url.startsWith('json:')) return openJsonFileStorage({ path: fileOf(url, 'json:') });
  if (url.startsWith('sqlite:')) return openSqlite(fileOf(url, 'sqlite:'));
  if (isPostgresUrl(url)) return openPostgres(url, options);
  throw new StorageUrlError(`unknown storage "${redact(url)}": use memory, json:<file>, sqlite:<file> or postgres://…`);
}

/** Whether a storage URL names a PostgreSQL database. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

function fileOf(url: string, scheme: string): string {
  const path = url.slice(scheme.length);
  if (!path) throw new StorageUrlError(`storage "${scheme}" needs a file: ${scheme}<file>`);
  return path;
}

/**
 * The most WAL pages between automatic checkpoints for `sqlite:` storage (SQLite's default is
 * 1,000): on a volume with room to spare. A checkpoint writes each page once however often it
 * changed since the last one and then syncs the file, so writes pay for fewer of them (a
 * create's mean 1.73 → 1.30 ms on SQLite at 10k events, bench/sqlite/create-statements.mjs;
 * docs/performance.md).
 */
export const WAL_CHECKPOINT_PAGES = 10_000;
/** The fewest WAL pages between checkpoints, however little room the volume has. */
export const WAL_CHECKPOINT_MIN_PAGES = 64;
/** The share of a volume's free space the write-ahead log may take between checkpoints. */
const WAL_SHARE_OF_FREE = 1 / 16;

/**
 * WAL pages between checkpoints for a volume with `freeBytes` free: a sixteenth of the free space,
 * between WAL_CHECKPOINT_MIN_PAGES and WAL_CHECKPOINT_PAGES. A create adds about 16 pages to the
 * log, and the log is only rewritten from its start after a checkpoint: sized for 40 MB it filled
 * a small volume after a few dozen writes.
 */
export function walCheckpointPages(freeBytes: number | undefined, pageSize: number): number {
  if (freeBytes === undefined) return WAL_CHECKPOINT_PAGES;
  const pages = Math.floor((freeBytes * WAL_SHARE_OF_FREE) / pageSize);
  return Math.max(WAL_CHECKPOINT_MIN_PAGES, Math.min(WAL_CHECKPOINT_PAGES, pages));
}

async function openSqlite(file: string): Promise<Storage> {
  const [{ createSqlStorage, loadBetterSqlite3, migrate, withStatementCache }, { Kysely, SqliteDialect }] = await Promise.all([import('@evcal/sql'), import('kysely')]);
  const Database = await loadBetterSqlite3();
  const path = file === ':memory:' ? file : resolve(file);
  let sqlite: InstanceType<typeof Database>;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    sqlite = new Database(path);
  } catch (error) {
    throw new StorageUrlError(`storage sqlite:${path}: cannot open the database (${(error as Error).message})`);
  }
  // WAL: readers never block the writer; NORMAL sync keeps every committed write across a
  // process crash (an OS crash may lose the last transactions).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  // Checkpoints sized for the volume, and the log cut back to that size after each one (SQLite
  // otherwise keeps the file at the largest it ever grew).
  const freeBytes = path === ':memory:' ? () => undefined : () => freeBytesAt(dirname(path));
  const pages = walCheckpointPages(freeBytes(), Number(sqlite.pragma('page_size', { simple: true })));
  sqlite.pragma(`wal_autocheckpoint = ${pages}`);
  sqlite.pragma(`journal_size_limit = ${pages * Number(sqlite.pragma('page_size', { simple: true }))}`);
  // Prepared statements reused rather than prepared again for every query.
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db);
  // The change counter read on the database directly between transactions: a 304 without a query through Kysely.
  return createSqlStorage({ db, dialect: 'sqlite', destroyOnClose: true, sqliteDatabase: sqlite, freeBytes });
}

async function openPostgres(url: string, options: OpenStorageOptions): Promise<Storage> {
  const { db, schema, createSqlStorage, migrate, migrated } = await postgresDatabase(url, options);
  try {
    await migrate(db, schema ? { schema } : {});
  } catch (error) {
    await db.destroy();
    throw new StorageUrlError(`storage ${redact(url)}: cannot use this PostgreSQL database (${(error as Error).message})`);
  }
  migrated();
  return createSqlStorage({
    db, dialect: 'postgres', ...(schema ? { schema } : {}), destroyOnClose: true, ...(options.onCommit ? { onCommit: options.onCommit } : {}),
  });
}

/**
 * A read replica (a hot standby of the storage): opened without a query, so that a server starts
 * while one is down; whoever reads it checks that it answers at the schema this version writes
 * (`readiness`). Its schema is `schema` (the primary's) unless its URL names one.
 */
export async function openReplica(url: string, schema: string | undefined, options: OpenStorageOptions = {}): Promise<Storage> {
  if (!isPostgresUrl(url)) throw new StorageUrlError(`read replica "${redact(url)}": a postgres:// URL`);
  const opened = await postgresDatabase(url, options, schema, REPLICA_CONNECT_TIMEOUT_MS);
  // A replica runs no migration.
  opened.migrated();
  return opened.createSqlStorage({ db: opened.db, dialect: 'postgres', ...(opened.schema ? { schema: opened.schema } : {}), destroyOnClose: true });
}

/** How long a replica may take to accept a connection before it counts as down. */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

/** The schema a PostgreSQL URL names (`?schema=`), checked. */
export function schemaOf(url: string): string | undefined {
  const schema = new URL(url).searchParams.get('schema') ?? undefined;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new StorageUrlError(`storage ${redact(url)}: schema "${schema}" is not a plain SQL identifier`);
  }
  return schema;
}

/** Whether a PostgreSQL URL lets statements be prepared (`?prepare=false`: a pooler that loses them). */
function prepareOf(url: string): boolean {
  const prepare = new URL(url).searchParams.get('prepare');
  if (prepare === null || prepare === 'true') return true;
  if (prepare === 'false') return false;
  throw new StorageUrlError(`storage ${redact(url)}: prepare is "true" or "false", not "${prepare}"`);
}

/** A pool on the database a URL names, watched so that no failed connection ends the process. */
async function postgresDatabase(url: string, options: OpenStorageOptions, defaultSchema?: string, connectionTimeoutMillis?: number) {
  const [{ default: pg }, { createSqlStorage, migrate, watchPostgresPool }, { Kysely, PostgresDialect }] = await Promise.all([import('pg'), import('@evcal/sql'), import('kysely')]);
  const schema = schemaOf(url) ?? defaultSchema;
  const prepare = prepareOf(url);
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('prepare');
  const pool = new pg.Pool({ connectionString: parsed.toString(), ...(connectionTimeoutMillis ? { connectionTimeoutMillis } : {}) });
  // Without listeners, a connection's failure would end the process.
  // Nothing prepared until the schema is checked or migrated (`migrated`): a migration is not
  // run again when a pooler loses one of its statements.
  const preparing = watchPostgresPool(pool, (error) => options.onConnectionError?.(error), {
    prepare: false, ...(options.onPreparingOff ? { onPreparingOff: options.onPreparingOff } : {}),
  });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const migrated = () => {
    preparing.on = prepare;
  };
  return { db, schema, createSqlStorage, migrate, migrated };
}
