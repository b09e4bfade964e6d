// Versioned migrations, written as code, and `migrate` to bring a database to the latest one.
import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { initial } from './0001-initial';
import { listPaths } from './0002-list-paths';
import { revisions } from './0003-revisions';
import { icalUid } from './0004-ical-uid';
import { lineage } from './0005-lineage';
import { searchAndDayCounts } from './0006-search-and-day-counts';
import { changes } from './0007-changes';
import { accounts } from './0008-accounts';
import { recurrence } from './0009-recurrence';
import { searchPositionsAndLinkOrder } from './0010-search-positions-and-link-order';
import { seriesChanges } from './0011-series-changes';
import { searchPending } from './0012-search-pending';
import { uncountedEventsPlanned } from './0013-uncounted-events-planned';
import { searchKeys } from './0014-search-keys';
import { dayCountsByKey } from './0015-day-counts-by-key';
import { dayCountsByKeySqlite } from './0016-day-counts-by-key-sqlite';
import { countsFoldedInBulk } from './0017-counts-folded-in-bulk';
import { idempotency } from './0018-idempotency';
import { webhookStatus } from './0019-webhook-status';
import { parallelWriters } from './0020-parallel-writers';
import type { EvcalMigration, MigrateOptions } from './types';

export type { EvcalMigration, MigrateOptions } from './types';

/**
 * The schema versions this build writes, by name (applied in name order). Each is recorded by
 * name once applied, and every one not recorded yet runs: a database that has a later
 * migration may still take an earlier one added since (branches numbered apart), so each
 * must not depend on a later one.
 */
export const MIGRATIONS: Readonly<Record<string, EvcalMigration>> = {
  '0001_initial': initial,
  '0002_list_paths': listPaths,
  '0003_revisions': revisions,
  '0004_ical_uid': icalUid,
  '0005_migrate': lineage,
  '0006_search_and_day_counts': searchAndDayCounts,
  '0007_changes': changes,
  '0008_accounts': accounts,
  '0009_recurrence': recurrence,
  '0010_search_positions_and_link_order': searchPositionsAndLinkOrder,
  '0011_series_changes': seriesChanges,
  '0012_search_pending': searchPending,
  '0013_uncounted_events_planned': uncountedEventsPlanned,
  '0014_search_keys': searchKeys,
  '0015_day_counts_by_key': dayCountsByKey,
  '0016_day_counts_by_key_sqlite': dayCountsByKeySqlite,
  '0017_counts_folded_in_bulk': countsFoldedInBulk,
  '0018_idempotency': idempotency,
  '0019_webhook_status': webhookStatus,
  '0020_parallel_writers': parallelWriters,
};

/**
 * Brings the database to the latest schema and returns the names of the migrations it ran
 * (none when already there; safe to call on every start). On PostgreSQL with `schema`, that
 * schema is created if missing and holds every table.
 *
 * A database already at the latest schema is only read: no lock, no write (so servers start
 * at once, and a read-only standby too). Otherwise the migrations run in one transaction; on
 * PostgreSQL that transaction first takes a transaction-level advisory lock for the schema
 * (`pg_advisory_xact_lock`), so concurrent starts apply each migration once and a failed one
 * leaves nothing. The lock ends with the transaction: nothing depends on a session outliving
 * it, which PgBouncer in transaction pooling mode (and every pooler like it) does not promise.
 * Waiting for the lock is bounded (`lockTimeoutMs`), then fails with a message saying so.
 * Kysely's Migrator is not used: it introspects every table of the database to find its own,
 * which grows slow on a shared database, and its PostgreSQL lock is a session lock.
 */
export async function migrate(db: Kysely<any>, options: MigrateOptions = {}): Promise<string[]> {
  let pending: string[] | undefined;
  try {
    pending = await pendingMigrations(db, options);
    if (pending.length === 0) return [];
  } catch {
    // Never migrated (no evcal_migrations), or not readable: the migration says which.
  }
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    return db.transaction().execute((trx) => applyMigrations(trx, options.schema));
  }
  if (await isHotStandby(db)) {
    // A standby is checked, never migrated: it gets its schema from its primary.
    const where = options.schema ? `schema "${options.schema}"` : 'the database';
    throw new Error(pending
      ? `the database is a hot standby (read-only) and ${where} is behind this evcal: ${pending.length} migration${pending.length === 1 ? '' : 's'} not applied (${pending.join(', ')}); migrate the primary (any evcal started on it does), then start this one again once the standby has replayed it`
      : `the database is a hot standby (read-only) and ${where} holds no evcal tables; migrate the primary first`);
  }
  const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${String(lockTimeoutMs)}, true)`.execute(trx);
      await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK}, hashtext(${options.schema ?? 'search_path'}))`.execute(trx);
      // Others wait for locks as long as they always have: only the migration lock is bounded.
      await sql`select set_config('lock_timeout', '0', true)`.execute(trx);
      return applyMigrations(trx, options.schema);
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === '55P03') {
      throw new Error(
        `another evcal has been migrating ${options.schema ? `schema "${options.schema}"` : 'this database'} for more than ${lockTimeoutMs / 1000} s `
        + `(it holds the migration lock: pg_locks where locktype = 'advisory' and classid = ${MIGRATION_LOCK}); try again once it is done`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Whether a PostgreSQL database is a hot standby (in recovery): it answers reads and refuses every write. */
export async function isHotStandby(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ standby: boolean }>`select pg_is_in_recovery() as standby`.execute(db);
  return rows[0]?.standby === true;
}

/** How long a start waits for another one's migration. */
export const DEFAULT_LOCK_TIMEOUT_MS = 60_000;

/** The first key of evcal's advisory lock (`pg_advisory_xact_lock(key, hashtext(schema))`): "evca". */
const MIGRATION_LOCK = 0x65766361;

/**
 * The names of the migrations this build has that `db` has not recorded, read with one query.
 * Fails like any query when the database cannot be reached, or was never migrated (no
 * `evcal_migrations` table).
 */
export async function pendingMigrations(db: Kysely<any>, options: MigrateOptions = {}): Promise<string[]> {
  const target = options.schema ? db.withSchema(options.schema) : db;
  const applied = new Set((await target.selectFrom('evcal_migrations').select('name').execute()).map((r) => String(r.name)));
  return Object.keys(MIGRATIONS).sort().filter((name) => !applied.has(name));
}

/** The migrations not yet recorded in `evcal_migrations`, in name order. */
async function applyMigrations(trx: Kysely<any>, schema: string | undefined): Promise<string[]> {
  let target: Kysely<any> = trx;
  if (schema) {
    // Created only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even
    // when the schema exists, which a role given its schema (docs/operations.md) does not have.
    const exists = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(trx);
    if (exists.rows.length === 0) await trx.schema.createSchema(schema).execute();
    target = trx.withSchema(schema);
  }
  await target.schema.createTable('evcal_migrations').ifNotExists()
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
    .execute();
  const applied = new Set((await target.selectFrom('evcal_migrations').select('name').execute()).map((r) => String(r.name)));
  const ran: string[] = [];
  for (const name of Object.keys(MIGRATIONS).sort()) {
    if (applied.has(name)) continue;
    await MIGRATIONS[name]!.up(target, { schema });
    await target.insertInto('evcal_migrations').values({ name, timestamp: new Date().toISOString() }).execute();
    ran.push(name);
  }
  return ran;
}

