// A write transaction whose failures say what happened: a failed COMMIT is reported as itself,
// and a connection lost during the COMMIT as a write of unknown outcome.
//
// Kysely's `transaction().execute` rolls back after any failure, the commit's included, and
// throws the rollback's error when that fails too: SQLite ends a transaction itself when its
// COMMIT fails for a full disk, so the ROLLBACK after it failed ("cannot rollback - no
// transaction is active") and hid SQLITE_FULL; on PostgreSQL a COMMIT whose connection died
// was answered like any failed write, though it may have been kept.
import { SqliteAdapter, type ControlledTransaction, type Kysely, type Transaction } from 'kysely';
import { storageError } from '@evcal/core/adapter';
import { classify, translate } from './sql-errors';

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

/**
 * Whether a COMMIT cut short may still have been kept: on a server (PostgreSQL) it may have been
 * applied before the connection failed. SQLite's commit is atomic in this process: a COMMIT
 * that failed left nothing (the next reader rolls back what it had written).
 */
function losesCommits(db: Pick<Kysely<never>, 'getExecutor'>): boolean {
  return !(db.getExecutor().adapter instanceof SqliteAdapter);
}
