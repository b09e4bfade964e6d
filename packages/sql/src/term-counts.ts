// `events.countByTerm`: the events counted per term from evcal_term_counts, which triggers keep
// (a few rows per term, however many events use it). The calls made together, in one turn (an
// event's categories and its tags, counted side by side to render it: core's `loadRelated`),
// are read in one statement: on PostgreSQL each statement is a round trip, and every write that
// answers with its event renders one.
import type { PostStatus, Taxonomy } from '@evcal/core/adapter';
import type { CompiledStatements } from './compiled-statements';
import type { Db } from './db';

interface Asked {
  taxonomy: Taxonomy;
  /** Storable ids, at least one. */
  ids: readonly number[];
  resolve: (rows: readonly CountRow[]) => void;
  reject: (error: unknown) => void;
}

interface CountRow {
  kind: string;
  ref_id: number | string;
  n: number | string;
}

/** Reads term counts on `db`: `read` answers the rows of its taxonomy's ids. */
export function termCounts(db: Db, statements: CompiledStatements): (taxonomy: Taxonomy, ids: readonly number[], statuses: readonly PostStatus[]) => Promise<ReadonlyMap<number, number>> {
  /** The calls of this turn, by their statuses (only calls with the same statuses share a statement). */
  const waiting = new Map<string, Asked[]>();
  const flush = (statuses: readonly PostStatus[], key: string) => {
    const asked = waiting.get(key)!;
    waiting.delete(key);
    run(asked, statuses).then((rows) => {
      for (const a of asked) a.resolve(rows);
    }, (error: unknown) => {
      for (const a of asked) a.reject(error);
    });
  };
  const run = async (asked: readonly Asked[], statuses: readonly PostStatus[]): Promise<readonly CountRow[]> => {
    const params = [...statuses, ...asked.flatMap((a) => [a.taxonomy, ...a.ids])];
    const shape = `counts:${statuses.length}:${asked.map((a) => a.ids.length).join(',')}`;
    return (await statements.run(db, shape, params, () => db.selectFrom('evcal_term_counts')
      .select(['kind', 'ref_id', (eb) => eb.fn.sum<number>('n').as('n')])
      .where('status', 'in', [...statuses])
      .where((eb) => eb.or(asked.map((a) => eb.and([eb('kind', '=', a.taxonomy), eb('ref_id', 'in', [...a.ids])]))))
      .groupBy(['kind', 'ref_id']))).rows as CountRow[];
  };
  return async (taxonomy, ids, statuses) => {
    const counts = new Map<number, number>(ids.map((id) => [id, 0]));
    if (ids.length === 0 || statuses.length === 0) return counts;
    const key = statuses.join(',');
    const rows = await new Promise<readonly CountRow[]>((resolve, reject) => {
      const asked = waiting.get(key);
      if (asked) asked.push({ taxonomy, ids, resolve, reject });
      else {
        waiting.set(key, [{ taxonomy, ids, resolve, reject }]);
        // The other calls of this turn are made before it ends.
        queueMicrotask(() => flush(statuses, key));
      }
    });
    for (const r of rows) if (r.kind === taxonomy && counts.has(Number(r.ref_id))) counts.set(Number(r.ref_id), Number(r.n));
    return counts;
  };
}
