// Opens each storage the benchmarks measure, holding the benchmark dataset of N events:
// memory, file-json, SQLite and PostgreSQL, configured as `evcal serve` configures them
// (packages/cli/src/storage-url.ts).
//
// SQL databases are filled with the rows the adapter itself would write: records built by
// core's import (lib/records.mjs), mapped by the adapter's own functions (packages/sql/src/
// rows.ts, loaded from source with tsx since the package does not export them), inserted in
// large transactions. A seeded SQLite file is cached in bench/.cache (keyed by the generator
// version and a hash of the adapter's schema and row mapping) and copied for each run.
import { encodeDataset } from '@evcal/core';
import { openJsonFileStorage } from '@evcal/file-json';
import { createMemoryStorage } from '@evcal/memory';
import { createSqlStorage, loadBetterSqlite3, migrate, watchPostgresPool, withStatementCache } from '@evcal/sql';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { CACHE, GENERATOR_VERSION, chunkCount, datasetKey, ensureRecords, loadEventChunk, loadReferences, loadSnapshot } from './records.mjs';

const Database = await loadBetterSqlite3();

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SQL_SRC = join(ROOT, 'packages', 'sql', 'src');
export const PG_URL = process.env.EVCAL_BENCH_POSTGRES_URL ?? 'postgres://evcal:evcal@127.0.0.1:5432/evcal';

let rowsModule;
/** The SQL adapter's record → row mapping (packages/sql/src/rows.ts). */
async function rows() {
  rowsModule ??= await tsImport(pathToFileURL(join(SQL_SRC, 'rows.ts')).href, import.meta.url);
  return rowsModule;
}

/** Changes whenever the adapter's schema or row mapping does: seeded databases are rebuilt. */
function sqlSchemaKey() {
  const h = createHash('sha256');
  const migrations = readdirSync(join(SQL_SRC, 'migrations')).sort().map((f) => join('migrations', f));
  for (const f of [...migrations, 'rows.ts', 'schema.ts']) h.update(readFileSync(join(SQL_SRC, f)));
  return `v${GENERATOR_VERSION}-${h.digest('hex').slice(0, 10)}`;
}

const scratch = () => {
  const dir = join(tmpdir(), `evcal-bench-${process.pid}-${randomBytes(3).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** Rows of every table for the records of a calendar of N events, chunk by chunk. */
async function* tableRows(n) {
  const r = await rows();
  const refs = loadReferences(n);
  yield {
    evcal_terms: [...refs.categories.map((t) => r.termRow(t, 'category')), ...refs.tags.map((t) => r.termRow(t, 'tag'))],
    evcal_venues: refs.venues.map(r.venueRow),
    evcal_organizers: refs.organizers.map(r.organizerRow),
  };
  for (let i = 0; i < chunkCount(n); i++) {
    const events = loadEventChunk(n, i);
    yield { evcal_events: events.map(r.eventRow), evcal_event_links: events.flatMap(r.linkRows) };
  }
}

/**
 * The rows of a seeded SQLite database, table by table in batches: the rows the adapter wrote
 * there (rows.ts), for PostgreSQL, whose columns are the same.
 */
function* rowsFromSqlite(file) {
  const sqlite = new Database(file, { readonly: true });
  try {
    for (const table of ['evcal_terms', 'evcal_venues', 'evcal_organizers', 'evcal_events', 'evcal_event_links']) {
      let batch = [];
      for (const row of sqlite.prepare(`SELECT * FROM ${table}`).iterate()) {
        batch.push(row);
        if (batch.length === 20_000) {
          yield { [table]: batch };
          batch = [];
        }
      }
      if (batch.length) yield { [table]: batch };
    }
  } finally {
    sqlite.close();
  }
}

/** The id sequences of a seeded SQLite file. */
function sequenceRows(file) {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.prepare('SELECT name, value FROM evcal_sequences').all();
  } finally {
    sqlite.close();
  }
}

function sequencesOf(n) {
  const refs = loadReferences(n);
  const maxTerm = Math.max(...refs.categories.map((t) => t.id), ...refs.tags.map((t) => t.id));
  const maxPost = refs.organizers.at(-1).id + n; // events follow venues and organizers
  return { post: maxPost, term: maxTerm };
}

// ---- memory and file-json ----

export async function openMemory(n, log) {
  const snapshot = await loadSnapshot(n, log);
  const storage = createMemoryStorage();
  storage.load(snapshot);
  return { storage, url: 'memory', close: () => storage.close() };
}

export async function openFileJson(n, log) {
  const dir = scratch();
  const file = join(dir, 'evcal.json');
  writeFileSync(file, JSON.stringify(encodeDataset(await loadSnapshot(n, log))));
  const storage = await openJsonFileStorage({ path: file });
  return {
    storage, url: `json:${file}`, file,
    close: async () => {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---- SQLite ----

/** The cached seeded SQLite file for N events, built on first use. Never written afterwards. */
async function cachedSqlite(n, log) {
  const cached = join(CACHE, `sqlite-${sqlSchemaKey()}-${datasetKey(n)}.db`);
  if (!existsSync(cached)) {
    await ensureRecords(n, log);
    const t0 = performance.now();
    log(`seeding SQLite with ${n} events (cached in ${cached})`);
    const tmp = `${cached}.tmp`;
    rmSync(tmp, { force: true });
    const sqlite = new Database(tmp);
    // A scratch file renamed into place once complete: no journal or sync needed while it is
    // filled, and a page cache large enough to hold the indexes being built.
    sqlite.pragma('journal_mode = OFF');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('cache_size = -1048576');
    const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrate(db);
    const statements = new Map();
    const insert = (table, row) => {
      let st = statements.get(table);
      if (!st) {
        const cols = Object.keys(row);
        st = sqlite.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
        statements.set(table, st);
      }
      st.run(row);
    };
    for await (const tables of tableRows(n)) {
      sqlite.transaction(() => {
        for (const [table, list] of Object.entries(tables)) for (const row of list) insert(table, row);
      })();
      log(`  … ${tables.evcal_events ? `${tables.evcal_events.length} events` : 'references'} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
    const seq = sequencesOf(n);
    sqlite.prepare('UPDATE evcal_sequences SET value = ? WHERE name = ?').run(seq.post, 'post');
    sqlite.prepare('UPDATE evcal_sequences SET value = ? WHERE name = ?').run(seq.term, 'term');
    // The rows are in; their search text goes into the FTS5 index at once (the adapter merges
    // pending events in batches after writes: migration 0012, search-index.ts).
    sqlite.exec("INSERT INTO evcal_events_search(evcal_events_search) VALUES ('rebuild'); DELETE FROM evcal_search_pending");
    sqlite.exec('ANALYZE');
    sqlite.pragma('journal_mode = WAL');
    await db.destroy();
    renameSync(tmp, cached);
    rmSync(`${tmp}-wal`, { force: true });
    rmSync(`${tmp}-shm`, { force: true });
    log(`  SQLite seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return cached;
}

/**
 * EVCAL_BENCH_PAGE_SIZE=<bytes>: the cached file rebuilt with that page size (VACUUM, which
 * also repacks every page as a fresh seed is), cached beside it.
 */
async function withPageSize(file, log) {
  const size = process.env.EVCAL_BENCH_PAGE_SIZE;
  if (!size) return file;
  const sized = file.replace(/\.db$/, `-p${size}.db`);
  if (!existsSync(sized)) {
    log(`rebuilding with ${size}-byte pages`);
    const tmp = `${sized}.tmp`;
    copyFileSync(file, tmp);
    const sqlite = new Database(tmp);
    sqlite.pragma('journal_mode = DELETE');
    sqlite.pragma(`page_size = ${Number(size)}`);
    sqlite.exec('VACUUM');
    sqlite.pragma('journal_mode = WAL');
    sqlite.close();
    renameSync(tmp, sized);
  }
  return sized;
}

/** A seeded SQLite file for N events (a copy of the cached one) in a scratch directory. */
export async function sqliteFile(n, log) {
  const cached = await withPageSize(await cachedSqlite(n, log), log);
  const dir = scratch();
  const file = join(dir, 'evcal.db');
  copyFileSync(cached, file);
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function openSqlite(n, log) {
  const { file, dispose } = await sqliteFile(n, log);
  // As `evcal serve --storage sqlite:<file>` opens it (EVCAL_BENCH_CHECKPOINT: other WAL checkpoint intervals).
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`wal_autocheckpoint = ${process.env.EVCAL_BENCH_CHECKPOINT ?? 10_000}`);
  const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db);
  const storage = createSqlStorage({ db, dialect: 'sqlite', destroyOnClose: true, sqliteDatabase: sqlite });
  return {
    storage, url: `sqlite:${file}`, file,
    close: async () => {
      await storage.close();
      dispose();
    },
  };
}

/**
 * A copy of a given seeded SQLite file, opened as `evcal serve` opens one (WAL, synchronous
 * NORMAL, migrated to this build), with the search index never merged on its own: for the
 * scripts that study one file (bench/sqlite). `configure(sqlite)` runs after the migrations and
 * before the storage exists (more pragmas, wrapped statements, schema dropped); `close()` closes
 * the storage and removes the copy.
 */
export async function openSqliteCopy(source, tag, configure = () => {}) {
  const file = join(tmpdir(), `evcal-${tag}-${process.pid}.db`);
  copyFileSync(source, file);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrate(db);
  configure(sqlite);
  const storage = createSqlStorage({ db, dialect: 'sqlite', sqliteDatabase: sqlite, searchMerge: { after: 1e9, quietMs: 1e9 } });
  return {
    file, sqlite, storage,
    close: async () => {
      await storage.close();
      for (const x of [file, `${file}-wal`, `${file}-shm`]) rmSync(x, { force: true });
    },
  };
}

// ---- PostgreSQL ----

/** A fresh schema `bench_<random>` holding N events; `drop()` removes it. */
export async function postgresSchema(n, log) {
  const seeded = await cachedSqlite(n, log);
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  const drop = async () => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  };
  try {
    const tm = performance.now();
    await migrate(db, { schema });
    if (process.env.EVCAL_BENCH_VERBOSE) log(`  migrate ${((performance.now() - tm) / 1000).toFixed(1)} s`);
    const t0 = performance.now();
    log(`seeding PostgreSQL schema ${schema} with ${n} events`);
    const client = await pool.connect();
    try {
      await client.query(`SET search_path TO ${schema}`);
      await client.query('SET synchronous_commit = off');
      // Load without the secondary indexes, then build them again from their own definitions
      // (primary keys stay): much faster than maintaining them row by row.
      const { rows: indexes } = await client.query(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i
         WHERE i.schemaname = $1 AND i.tablename LIKE 'evcal\\_%'
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.connamespace = $1::regnamespace)`,
        [schema]);
      for (const ix of indexes) await client.query(`DROP INDEX ${schema}.${ix.indexname}`);
      let dbMs = 0;
      for await (const tables of rowsFromSqlite(seeded)) {
        const td = performance.now();
        await client.query('BEGIN');
        for (const [table, list] of Object.entries(tables)) {
          // json_populate_recordset maps each row object's keys to the table's columns.
          for (let i = 0; i < list.length; i += 5000) {
            await client.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1)`, [JSON.stringify(list.slice(i, i + 5000))]);
          }
        }
        await client.query('COMMIT');
        dbMs += performance.now() - td;
        if (process.env.EVCAL_BENCH_VERBOSE) log(`  … ${Object.entries(tables).map(([t, l]) => `${l.length} ${t}`).join(', ')} (${((performance.now() - t0) / 1000).toFixed(1)} s, ${(dbMs / 1000).toFixed(1)} s in PostgreSQL)`);
      }
      const ti = performance.now();
      await client.query('SET maintenance_work_mem = \'256MB\'');
      for (const ix of indexes) await client.query(ix.indexdef);
      if (process.env.EVCAL_BENCH_VERBOSE) log(`  ${indexes.length} indexes built in ${((performance.now() - ti) / 1000).toFixed(1)} s`);
      await client.query('UPDATE evcal_sequences SET value = s.value FROM json_to_recordset($1) AS s(name text, value bigint) WHERE evcal_sequences.name = s.name',
        [JSON.stringify(sequenceRows(seeded))]);
      // On PostgreSQL, ids come from sequences (migration 0020), not those rows: start them
      // after the seeded ids, as that migration does for a database it upgrades.
      for (const [sequence, row] of [['evcal_post_ids', 'post'], ['evcal_term_ids', 'term']]) {
        await client.query(`SELECT setval('${schema}.${sequence}', s.value) FROM evcal_sequences s WHERE s.name = $1 AND s.value > 0`, [row]);
      }
      const t1 = performance.now();
      // This schema's tables only: a bare ANALYZE would visit every schema of the database.
      for (const table of ['evcal_events', 'evcal_event_links', 'evcal_terms', 'evcal_venues', 'evcal_organizers', 'evcal_sequences']) {
        await client.query(`VACUUM ANALYZE ${table}`);
      }
      if (process.env.EVCAL_BENCH_VERBOSE) log(`  vacuum/analyze ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    } finally {
      client.release();
    }
    log(`  PostgreSQL seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  } catch (error) {
    await db.destroy().catch(() => {});
    await drop().catch(() => {});
    throw error;
  }
  await db.destroy();
  return { schema, url: `${PG_URL}?schema=${schema}`, drop };
}

export async function openPostgres(n, log) {
  const { schema, url, drop } = await postgresSchema(n, log);
  // As `evcal serve --storage postgres://…?schema=<name>` opens it.
  const pool = new pg.Pool({ connectionString: PG_URL });
  watchPostgresPool(pool);
  const db = new Kysely({ dialect: new PostgresDialect({ pool }), ...(process.env.EVCAL_BENCH_LOG_SQL ? { log: logSql } : {}) });
  await migrate(db, { schema });
  const storage = createSqlStorage({ db, dialect: 'postgres', schema, destroyOnClose: true });
  return {
    storage, url, schema,
    close: async () => {
      await storage.close();
      await drop();
    },
  };
}

/** EVCAL_BENCH_LOG_SQL=1: every statement run on PostgreSQL, on stderr (what a write costs in statements). */
function logSql(event) {
  if (event.level === 'query') process.stderr.write(`[sql] ${event.query.sql.replace(/\s+/g, ' ').slice(0, 220)}\n`);
}

export const OPENERS = { memory: openMemory, 'file-json': openFileJson, sqlite: openSqlite, postgres: openPostgres };
