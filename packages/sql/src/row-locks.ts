// PostgreSQL's row locks inside a write transaction: what a write reads to change is locked and
// its revision checked against the transaction's number (parallel-writes.ts); a bulk status
// change locks its posts the same way. Outside a PostgreSQL write transaction (`locks`
// undefined, as on SQLite, where one writer runs at a time) reads lock nothing.
import type { PostStatus } from '@evcal/core/adapter';
import { sql, type Kysely } from 'kysely';
import { storableEventIds, storableIds } from './dialect';
import type { EvcalDatabase } from './schema';
import type { Db } from './db';
import { inChunks, WRITE_CHUNK } from './chunks';

/**
 * PostgreSQL, inside a write transaction: reads lock the rows they return, a record read by id
 * or slug against other writers, records read in batches against deletion; `seen` then checks
 * their revisions against the transaction's number (parallel-writes.ts).
 */
export interface RowLocks {
  seen(revisions: Iterable<number | string | bigint>, strict: boolean): Promise<void>;
}

/** How a read locks what it returns: `own`, as a record this transaction may change; `shared`, as one it refers to. */
export type LockMode = 'own' | 'shared' | undefined;

/**
 * `query` locking the rows it reads, and telling which of them this transaction wrote itself
 * (`evcal_mine`: the version read is its own), whose revision may be any it gave. (Not
 * `age(xmin) = 0`: before the transaction has an id, age() counts from the next one to be
 * given, which may be the very writer whose row it reads.)
 */
export function locked<Q>(query: Q, lock: LockMode): Q {
  if (!lock) return query;
  const q = (query as unknown as LockableQuery).select(sql<boolean>`xmin = pg_current_xact_id()::xid`.as('evcal_mine'));
  return (lock === 'own' ? q.forNoKeyUpdate() : q.forKeyShare()) as unknown as Q;
}

interface LockableQuery {
  select(selection: unknown): LockableQuery;
  forNoKeyUpdate(): LockableQuery;
  forKeyShare(): LockableQuery;
}

/** The rows' revisions (but of those this transaction wrote), told to `locks` when reading inside a PostgreSQL write transaction; the rows. */
export async function checked<R extends { revision: number | string | bigint }>(rows: R[], locks: RowLocks | undefined, lock: LockMode): Promise<R[]> {
  if (locks && rows.length) await locks.seen(rows.flatMap((r) => ((r as { evcal_mine?: boolean }).evcal_mine ? [] : [r.revision])), lock === 'own');
  return rows;
}

/**
 * PostCollection.setStatus: one UPDATE per IN list's worth of ids, however many posts; the
 * triggers move the counts of events that change status.
 */
export async function setStatus(
  tx: Db, table: PostTable, ids: readonly number[], from: PostStatus, to: PostStatus, revision: number, locks: RowLocks | undefined,
): Promise<number[]> {
  // Events' ids include occurrences' (above 2^31).
  const valid = table === 'evcal_events' ? storableEventIds(ids) : storableIds(ids);
  if (valid.length === 0) return [];
  const changed = await inChunks(valid, async (chunk) => {
    await lockToChange(tx, table, chunk, locks);
    return (tx as Kysely<EvcalDatabase>).updateTable(table as 'evcal_events')
      .set({ status: to, revision }).where('id', 'in', chunk).where('status', '=', from).returning('id').execute();
  }, WRITE_CHUNK);
  return changed.map((r) => Number(r.id)).sort((a, b) => a - b);
}

type PostTable = 'evcal_events' | 'evcal_venues' | 'evcal_organizers';

/**
 * PostgreSQL, before a write changes many posts at once (a batch published, a venue taken off
 * its events): they are locked as a read by id locks them, and one committed with a newer
 * revision than the one about to be stamped is a conflict (parallel-writes.ts). A write alone
 * (SQLite) needs none of it.
 */
export async function lockToChange(tx: Db, table: PostTable, ids: readonly number[], locks: RowLocks | undefined): Promise<void> {
  if (!locks) return;
  await checked(await locked((tx as Kysely<EvcalDatabase>).selectFrom(table as 'evcal_events').select(['id', 'revision']).where('id', 'in', ids), 'own').execute(), locks, 'own');
}
