// SQLite's group commit: the write transactions that queue while one runs go into the next one
// together, each in a savepoint of its own, with statement journals kept in memory. The
// storage (sql-storage.ts) hands its SQLite writes here; PostgreSQL's run in parallel instead
// (parallel-writes.ts).
import type { WriteFaults } from '@evcal/core/adapter';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { EvcalDatabase, SequencesTable } from './schema';
import { translate } from './sql-errors';
import { runCommitted } from './transactions';
import type { SearchIndexer } from './search-index';
import { BULK_INSERTS, newState, type TransactionState } from './transaction-state';

/** What group commit uses of the storage. */
export interface GroupCommitOptions {
  /** The storage's database (with its schema). */
  readonly root: Kysely<EvcalDatabase>;
  /** Advances the change counter and returns its new value (each write's number). */
  readonly nextChange: CompiledQuery<Pick<SequencesTable, 'value'>>;
  /** Told of each write that failed, and of each group that committed. */
  readonly faults: WriteFaults;
  /** Told how many events a committed group wrote. */
  readonly searchIndex: SearchIndexer | undefined;
  /** Run after a group that was a bulk write has committed, before it is answered. */
  readonly freshAfterBulk: () => Promise<void>;
}

/** Group commit on `options.root`: runs `fn` in the next write transaction, with the writes that joined it. */
export function groupCommit(options: GroupCommitOptions): <T>(fn: (tx: Transaction<EvcalDatabase>, state: TransactionState) => Promise<T>) => Promise<T> {
  const { root, nextChange, faults, searchIndex, freshAfterBulk } = options;

  /**
   * SQLite, group commit: writes queue for the one connection anyway (Kysely's dialect runs one
   * transaction at a time on it), so the writes that queued while a transaction ran go into the
   * next one together, at most GROUP_LIMIT of them, one after another, each with its own change
   * number. Every one after the first runs in a savepoint: one that fails is rolled back to its
   * savepoint alone (and gets its error), one that wrote nothing too. Every write of a group is
   * answered after the group's COMMIT: when the commit fails, all of them fail, and none was
   * reported written. A commit, with the pages the writes share (indexes, counts, the change
   * log), is then written once for several writes.
   */
  let queued: Joining[] | undefined;

  function grouped<T>(fn: (tx: Transaction<EvcalDatabase>, state: TransactionState) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const joining: Joining = { fn, resolve: resolve as (value: unknown) => void, reject };
      if (queued) {
        queued.push(joining);
        return;
      }
      queued = [joining];
      void runGroup(queued);
    });
  }

  async function runGroup(queue: Joining[]): Promise<void> {
    const outcomes: { joining: Joining; ok: boolean; value: unknown }[] = [];
    let bulk = false;
    let events = 0;
    let committed = false;
    try {
      await inMemorySubjournals(root, (db) => runCommitted(db, async (tx) => {
        while (queue.length > 0 && outcomes.length < GROUP_LIMIT) {
          // The first write needs no savepoint: undone, it takes the transaction with it. A
          // savepoint costs SQLite a copy of every page the write changes (in a temporary file
          // once they pass 64 KB: about 0.1 ms of a create), so only the writes that joined pay it.
          const first = outcomes.length === 0;
          const outcome = { joining: queue.shift()!, ok: false, value: undefined as unknown };
          outcomes.push(outcome);
          if (!first) await tx.executeQuery(SAVEPOINT);
          let state: TransactionState | undefined;
          try {
            const row = (await tx.executeQuery(nextChange)).rows[0]!;
            state = newState(Number(row.value));
            outcome.value = await outcome.joining.fn(tx, state);
            outcome.ok = true;
          } catch (error) {
            outcome.value = translate(error);
            faults.failed(outcome.value);
          }
          if (outcome.ok && state!.wrote) {
            // A load, or a batch of status changes (scheduled posts published): the lists filter on status.
            bulk ||= state!.rows >= BULK_INSERTS;
            events += state!.events;
          } else if (first) {
            // Failed, or wrote nothing: undone with the transaction (its counter update
            // included); the writes queued behind it go into the next one.
            throw FIRST_UNDONE;
          } else {
            // The same, undone alone. When even that fails, the transaction is lost: the whole
            // group fails below.
            await tx.executeQuery(ROLLBACK_TO_SAVEPOINT);
          }
          if (!first) await tx.executeQuery(RELEASE_SAVEPOINT);
          // A write runs on microtasks alone: requests that arrived meanwhile reach their
          // transaction only once the event loop has turned.
          if (queue.length === 0 && outcomes.length < GROUP_LIMIT) await new Promise((resolve) => setImmediate(resolve));
        }
      }));
      committed = true;
      faults.succeeded();
    } catch (error) {
      faults.failed(error);
      // Nothing of the group committed: the writes that had succeeded fail with the commit's
      // (or the lost transaction's) error; the write that was running when it was lost too.
      // (FIRST_UNDONE: the group was its first write alone, which keeps its own outcome.)
      if (error !== FIRST_UNDONE) for (const outcome of outcomes) if (outcome.ok || outcome.value === undefined) Object.assign(outcome, { ok: false, value: error });
    } finally {
      // Writes that queued meanwhile (or beyond the limit) go into the next group.
      if (queue.length > 0) void runGroup(queue);
      else queued = undefined;
    }
    if (committed && events) searchIndex?.wrote(events);
    if (committed && bulk) await freshAfterBulk();
    for (const { joining, ok, value } of outcomes) (ok ? joining.resolve(value) : joining.reject(value));
  }

  /**
   * Runs a write transaction with SQLite's statement journals and savepoint sub-journals in
   * memory. SQLite keeps the pages a statement changes inside a transaction, so that it can
   * undo that statement alone; past 64 KB (16 pages: a create's event insert, with its
   * indexes and triggers, changes about 20) they go to a temporary file, created, written
   * page by page and deleted for each such statement: about 40 system calls and 45 µs of a
   * create. `temp_store = memory` keeps them in memory, but it would also keep in memory the
   * temporary tables and indexes of reads (a DISTINCT, a large IN list), which spill to a file
   * when large: so it is set for write transactions only, on the connection they hold, before
   * their BEGIN (SQLite decides where a transaction's journals go when it begins; the setting
   * cannot change inside one), and the connection's own setting is restored after.
   */
  let restoreTempStore: CompiledQuery | null | undefined;
  async function inMemorySubjournals<T>(db: Kysely<EvcalDatabase>, fn: (db: Kysely<EvcalDatabase>) => Promise<T>): Promise<T> {
    return db.connection().execute(async (conn) => {
      if (restoreTempStore === undefined) {
        // The connection's own setting, read once: null when it already keeps them in memory.
        const own = Number((await conn.executeQuery<{ temp_store: number }>(TEMP_STORE)).rows[0]!.temp_store);
        restoreTempStore = own === TEMP_STORE_MEMORY ? null : CompiledQuery.raw(`pragma temp_store = ${own}`);
      }
      const restore = restoreTempStore;
      if (restore === null) return fn(conn);
      await conn.executeQuery(TEMP_STORE_TO_MEMORY);
      try {
        return await fn(conn);
      } finally {
        // Outside a transaction this cannot fail; inside one (a failed ROLLBACK) it would hide the write's own error.
        await conn.executeQuery(restore).catch(() => undefined);
      }
    });
  }

  return grouped;
}

/** A write waiting to join the next SQLite transaction (group commit). */
interface Joining {
  readonly fn: (tx: Transaction<EvcalDatabase>, state: TransactionState) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** The most writes one SQLite transaction takes: reads wait for the connection meanwhile. */
const GROUP_LIMIT = 16;

const TEMP_STORE = CompiledQuery.raw('pragma temp_store');
const TEMP_STORE_MEMORY = 2;
const TEMP_STORE_TO_MEMORY = CompiledQuery.raw(`pragma temp_store = ${TEMP_STORE_MEMORY}`);
const SAVEPOINT = CompiledQuery.raw('savepoint evcal_write');
const RELEASE_SAVEPOINT = CompiledQuery.raw('release evcal_write');
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw('rollback to evcal_write');

/** Rolls back a group whose first write failed or wrote nothing (it is the only one in it). */
const FIRST_UNDONE = Symbol('first write undone');
