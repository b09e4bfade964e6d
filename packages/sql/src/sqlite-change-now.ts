// SQLite: the change counter read synchronously on better-sqlite3's connection, so that an
// unchanged list is answered 304 without a query through Kysely (SqlStorageOptions.sqliteDatabase).
import type { CompiledQuery } from 'kysely';

/** What the storage uses of a better-sqlite3 database to read its change counter synchronously. */
export interface SqliteCounterSource {
  readonly inTransaction: boolean;
  prepare(sql: string): { pluck(toggle?: boolean): SqliteCounterStatement };
}

interface SqliteCounterStatement {
  bind(...parameters: unknown[]): SqliteCounterStatement;
  get(): unknown;
}

/**
 * The change counter read on SQLite's one connection, synchronously, when no transaction is
 * open on it: a read then sees exactly what is committed (by any process: each read begins a
 * read transaction of its own on the latest commit). While a transaction is open (Kysely runs
 * it across turns of the event loop) a read would see its uncommitted writes: undefined then,
 * and the caller waits for `lastChange()`.
 */
export function sqliteChangeNow(database: SqliteCounterSource, query: CompiledQuery): () => number | undefined {
  let statement: SqliteCounterStatement | undefined;
  return () => {
    if (database.inTransaction) return undefined;
    try {
      // Prepared and bound once: each read only runs it.
      statement ??= database.prepare(query.sql).pluck().bind(...query.parameters);
      return Number(statement.get());
    } catch {
      // A database busy, or closed: the caller waits for lastChange(), which reports it.
      return undefined;
    }
  };
}
