// Categories and tags: reads by id, slug and name, locked inside a PostgreSQL write transaction
// (row-locks.ts), writes, and the list with each term's count of events (evcal_term_counts,
// kept by triggers), summed first when the transaction folds them (CountsRead).
import type { Taxonomy, TermCollection, TermQuery, TermRecord } from '@evcal/core/adapter';
import { foldText, storageError } from '@evcal/core/adapter';
import { termCount, termOrder, termWhere } from './compile';
import { storableIds, type SqlDialect } from './dialect';
import { termRecord, termRow } from './rows';
import type { CountsRead, Db, Write } from './db';
import { guard } from './sql-errors';
import type { CompiledStatements } from './compiled-statements';
import { inChunks } from './chunks';
import { NO_SLUG, paged, unpaged } from './collection-queries';
import { checked, locked, type LockMode, type RowLocks } from './row-locks';

export function termCollection(
  taxonomy: Taxonomy, db: Db, d: SqlDialect, schema: string | undefined, write: Write, statements: CompiledStatements, countsRead: CountsRead, locks?: RowLocks,
): TermCollection {
  const own: LockMode = locks && 'own';
  const shared: LockMode = locks && 'shared';
  const select = () => db.selectFrom('evcal_terms').selectAll().where('taxonomy', '=', taxonomy);
  return {
    get: (id) => guard(async () => {
      const [valid] = storableIds([id]);
      if (valid === undefined) return undefined;
      const [row] = await checked(await locked(select().where('id', '=', valid), own).execute(), locks, own);
      return row && termRecord(row);
    }),
    getMany: (ids) => guard(async () => {
      const valid = storableIds(ids);
      return valid.length
        ? (await checked(await inChunks(valid, async (chunk) => (await statements.run(db, `${taxonomy}.get:${chunk.length}${shared ?? ''}`, [taxonomy, ...chunk],
          () => locked(select().where('id', 'in', chunk), shared))).rows), locks, shared)).map(termRecord)
        : [];
    }),
    getBySlug: (slug) => guard(async () => {
      if (slug === '') return undefined;
      const [row] = await checked(await locked(select().where('slug', '=', slug).where('slug', '<>', NO_SLUG).orderBy('id').limit(1), own).execute(), locks, own);
      return row && termRecord(row);
    }),
    findByName: (name) => guard(async () => (await select().where('name_key', '=', foldText(name.trim())).orderBy('id').execute()).map(termRecord)),
    insert: (term: TermRecord) => write(async (tx) => {
      await tx.insertInto('evcal_terms').values(termRow(term, taxonomy)).execute();
    }),
    replace: (term: TermRecord) => write(async (tx) => {
      const result = await tx.updateTable('evcal_terms').set(termRow(term, taxonomy)).where('id', '=', term.id).where('taxonomy', '=', taxonomy).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw storageError('conflict', new Error(`evcal/sql: no ${taxonomy} ${term.id}`));
    }),
    delete: (id) => write(async (tx) => {
      await tx.deleteFrom('evcal_terms').where('id', '=', id).where('taxonomy', '=', taxonomy).execute();
    }),
    list: (query: TermQuery) => guard(async () => {
      if (query.countStatuses.length > 0) await countsRead();
      const from = () => db.selectFrom('evcal_terms as t').where(termWhere(taxonomy, query, d, schema));
      let page = from().selectAll('t').select((eb) => termCount(eb, taxonomy, query).as('count'));
      for (const key of query.sort) {
        // A key may need several ORDER BY terms (folded text, then the text itself).
        const terms = key.field === 'name' || key.field === 'slug' || key.field === 'description' ? 2 : 1;
        for (let i = 0; i < terms; i++) page = page.orderBy((eb) => termOrder(eb, key, taxonomy, query, d)[i]!, key.direction);
      }
      const [rows, count] = await Promise.all([
        paged(page, query, d).execute(),
        unpaged(query) ? undefined : from().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map((r) => ({ term: termRecord(r), count: Number(r.count) })), total: count ? Number(count.n) : rows.length };
    }),
  };
}
