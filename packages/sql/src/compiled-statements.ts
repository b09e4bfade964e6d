// The statements a write runs every time, compiled by Kysely once. Building and compiling a
// query through Kysely's builder costs 20–40 µs, more than SQLite takes to run most of them, and
// a create runs over a dozen: the text of a statement whose shape is fixed (the same columns,
// the same number of values in an IN list) is kept under a key naming that shape, and later
// calls run it with their own values.
import type { CompiledQuery, Compilable, QueryResult } from 'kysely';
import type { Db } from './db';

export interface CompiledStatements {
  /**
   * Runs the statement `build` makes, whose parameters are `params` in this order and whose
   * text depends only on `key`. The first call builds it; the text is kept only when its
   * parameters are exactly `params` (anything else is built every time, as before).
   */
  run<R>(db: Db, key: string, params: readonly unknown[], build: () => Compilable<R>): Promise<QueryResult<R>>;
}

/** A cache of the texts of at most `size` statement shapes (one storage's: their schema is in the text). */
export function compiledStatements(size = 512): CompiledStatements {
  const kept = new Map<string, CompiledQuery | null>();
  return {
    run<R>(db: Db, key: string, params: readonly unknown[], build: () => Compilable<R>): Promise<QueryResult<R>> {
      const known = kept.get(key);
      // An undefined value is left out of an INSERT or UPDATE by Kysely: another text.
      if (known && !params.includes(undefined)) return db.executeQuery<R>({ sql: known.sql, query: known.query, queryId: known.queryId, parameters: params });
      const compiled = build().compile();
      if (known === undefined && !params.includes(undefined)) {
        if (kept.size >= size) kept.clear();
        kept.set(key, sameValues(compiled.parameters, params) ? compiled : null);
      }
      return db.executeQuery<R>(compiled);
    },
  };
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
