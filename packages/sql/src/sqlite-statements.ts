// Prepared statements kept for reuse on SQLite. Kysely's SqliteDialect prepares every query
// it runs again (`database.prepare(sql)`): for the short queries of a calendar that costs as
// much as running them (15–60 µs a statement with better-sqlite3), on every list and write.
// Giving the dialect this wrapper instead of the database reuses each statement text's
// prepared statement:
//
//   new SqliteDialect({ database: withStatementCache(new Database(file)) })

/** What Kysely's SqliteDialect uses of a database (better-sqlite3's Database has it). */
export interface SqliteStatementSource<S> {
  prepare(sql: string): S;
  close(): void;
}

/**
 * The database with `prepare` answering from a cache of the `size` statement texts used most
 * recently. Statements are only run one at a time (the dialect serialises queries on its one
 * connection), so sharing one between calls is safe; SQLite prepares one again by itself when
 * the schema changes.
 */
export function withStatementCache<S>(database: { prepare(sql: string): S; close(): unknown }, size = 256): SqliteStatementSource<S> {
  const cache = new Map<string, S>();
  return {
    prepare(sql: string): S {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      } else {
        cache.delete(sql);
      }
      // Most recently used last: the first key is the one to evict.
      cache.set(sql, statement);
      return statement;
    },
    close: () => {
      cache.clear();
      database.close();
    },
  };
}
