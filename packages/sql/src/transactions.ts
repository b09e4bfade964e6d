// A write transaction whose failures say what happened: a failed COMMIT is reported as itself,
// and a connection lost during the COMMIT as a write of unknown outcome.
//
// Kysely's `transaction().execute` rolls back after any failure, the commit's included, and
// throws the rollback's error when that fails too: SQLite ends a transaction itself when its
// COMMIT fails for a full disk, so the ROLLBACK after it failed ("cannot rollback - no
// transaction is active") and hid SQLITE_FULL; on PostgreSQL a COMMIT whose connection died
// was answered like any failed write, though it may have been kept.
import { CompiledQuery, SqliteAdapter, type ControlledTransaction, type Kysely, type Transaction } from 'kysely';
import { storageError } from '@evcal/core/adapter';
import { classify, guard, translate } from './sql-errors';

/**
 * Runs `fn` in a transaction on `db` and commits it; rolls it back when `fn` fails. Errors are
 * storage errors: a COMMIT that failed is the COMMIT's own error (the rollback after it never
 * hides it), and a connection lost during the COMMIT is `outcome_unknown` (never retried).
 */
export async function runCommitted<DB, T>(db: Kysely<DB>, fn: (tx: Transaction<DB>) => Promise<T>): Promise<T> {
  let tx: ControlledTransaction<DB>;
  try {
    tx = await db.startTransaction().execute();
  } catch (error) {
    throw translate(error);
  }
  let result: T;
  try {
    result = await fn(tx);
  } catch (error) {
    await tx.rollback().execute().catch(() => undefined);
    throw translate(error);
  }
  try {
    await tx.commit().execute();
  } catch (error) {
    // Releases the connection (a failed commit keeps it); on a lost connection, it is dropped.
    await tx.rollback().execute().catch(() => undefined);
    throw classify(error) === 'unavailable' && losesCommits(db) ? storageError('outcome_unknown', error) : translate(error);
  }
  return result;
}

/** What a PostgreSQL transaction's body answers: its value, and its last statement (none: roll back). */
export interface Finished<T> {
  value: T;
  /** SQL without parameters (values written in), run just before the COMMIT; undefined when the transaction wrote nothing. */
  last: string | undefined;
}

const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * PostgreSQL: runs `first` (SQL without parameters) as a transaction's first statement on one
 * connection of `db`, then `fn` given its rows, then `fn`'s last statement and the COMMIT;
 * answers `fn`'s value and the last statement's rows. `together` (the pool answers a query of
 * several statements with the one that returns rows: `watchPostgresPool`): the BEGIN goes with
 * the first statement and the last with the COMMIT, one message each (`begin; first`,
 * `last; commit`), so that what the last statement locks is held only while the server commits,
 * never across a turn of the client (parallel-writes.ts), and a write costs two round trips
 * fewer. Errors are storage errors: a failure of `fn` or of the last statement rolls back; a
 * connection lost once the COMMIT was sent is `outcome_unknown`.
 */
export async function runPostgresTransaction<DB, T>(
  db: Kysely<DB>, together: boolean, first: string, fn: (tx: Kysely<DB>, rows: unknown[]) => Promise<Finished<T>>,
): Promise<{ value: T; rows: unknown[] }> {
  // guard: a connection that cannot be had, or a BEGIN that fails, is a storage error too.
  return guard(() => db.connection().execute(async (tx) => {
    let finished: Finished<T>;
    let rows: unknown[] = [];
    try {
      if (!together) await tx.executeQuery(BEGIN);
      const begun = await tx.executeQuery(CompiledQuery.raw(together ? `begin;\n${first}` : first));
      finished = await fn(tx, begun.rows);
      if (finished.last === undefined) throw NOTHING_WRITTEN;
      if (!together) rows = (await tx.executeQuery(CompiledQuery.raw(finished.last))).rows;
    } catch (error) {
      await tx.executeQuery(ROLLBACK).catch(() => undefined);
      if (error === NOTHING_WRITTEN) return { value: finished!.value, rows };
      throw translate(error);
    }
    try {
      const answer = await tx.executeQuery(together ? CompiledQuery.raw(`${finished.last};\ncommit`) : COMMIT);
      if (together) rows = answer.rows;
    } catch (error) {
      // Together, the error may be the last statement's (the COMMIT was skipped, the transaction
      // is aborted) or the COMMIT's: rolled back either way, unless the connection was lost. The
      // ROLLBACK also finds a connection the server ended (its FATAL error arrives before the
      // socket closes): failing, it leaves the client unusable, and the pool drops it.
      await tx.executeQuery(ROLLBACK).catch(() => undefined);
      throw classify(error) === 'unavailable' ? storageError('outcome_unknown', error) : translate(error);
    }
    return { value: finished.value, rows };
  }));
}

/** `fn` wrote nothing: rolled back. */
const NOTHING_WRITTEN = Symbol('nothing written');

/**
 * Whether a COMMIT cut short may still have been kept: on a server (PostgreSQL) it may have been
 * applied before the connection failed. SQLite's commit is atomic in this process: a COMMIT
 * that failed left nothing (the next reader rolls back what it had written).
 */
function losesCommits(db: Pick<Kysely<never>, 'getExecutor'>): boolean {
  return !(db.getExecutor().adapter instanceof SqliteAdapter);
}
