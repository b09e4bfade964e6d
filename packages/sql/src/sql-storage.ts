// createSqlStorage: the storage contract over the caller's Kysely instance. Every list is one
// SQL query plus one count (plus one for the links of the page's events); nothing is filtered
// afterwards in JavaScript. Term counts are read from evcal_term_counts, which triggers keep
// (migrations.ts).
//
// Writes on SQLite: every write transaction first advances the change counter (a row of
// evcal_sequences), and SQLite runs one writer at a time anyway (group commit below). On
// PostgreSQL, write transactions run in parallel: what a write reads to change is locked, and
// the counter advances at the commit, in a critical section as short as the commit
// (parallel-writes.ts). A write outside a transaction is a transaction of its own.
import type {
  EventCollection, EventQuery, EventRecord, LinkedPostCollection, LinkedPostQuery, OrganizerRecord, PostStatus,
  Storage, StorageTransaction, Taxonomy, TermCollection, TermQuery, TermRecord, VenueRecord,
} from '@evcal/core/adapter';
import { foldText, storageError, writeFaults } from '@evcal/core/adapter';
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import { effectiveSort, eventOrder, eventsOf, eventWhere, linkWalk, linkedPostWhere, termCount, termOrder, termWhere } from './compile';
import { sqlDialect, storableEventIds, storableIds, type DialectName, type SqlDialect } from './dialect';
import {
  EVENT_COLUMNS, eventRecord, eventRow, groupLinks, linkRows, ORGANIZER_COLUMNS, organizerRecord, organizerRow, termRecord, termRow,
  VENUE_COLUMNS, venueRecord, venueRow, type EventRow, type OrganizerRow, type VenueRow,
} from './rows';
import type { EvcalDatabase, VenuesTable } from './schema';
import type { Db, Write } from './db';
import { countEvents } from './list-counts';
import { guard, translate } from './sql-errors';
import { runCommitted } from './transactions';
import { sqlReadiness, tokenCollection, userCollection } from './account-collections';
import { sqlChangeLog, sqlWebhookStore } from './sql-change-store';
import { sqlIdempotencyStore } from './idempotency-store';
import { sqliteSearchIndexer, type SearchIndexerOptions } from './search-index';
import { compiledStatements, type CompiledStatements } from './compiled-statements';
import { foldCountsPostgres, startFoldingPostgres } from './migrations/0017-counts-folded-in-bulk';
import { regclass } from './migrations/0020-parallel-writers';
import { parallelWrites, pending, type Pending, type WriteNumber } from './parallel-writes';

export interface SqlStorageOptions {
  /** The Kysely instance to use (its connections, pool and logging are the caller's). */
  readonly db: Kysely<any>;
  /** Which SQL the database speaks. */
  readonly dialect: DialectName;
  /** PostgreSQL schema of the tables (as given to `migrate`). @default the connection's search path */
  readonly schema?: string;
  /** Destroy the Kysely instance when the storage is closed. @default false */
  readonly destroyOnClose?: boolean;
  /**
   * SQLite: when the events written are merged into the search index (searches find them
   * before and after). @default `{ after: 512, quietMs: 250, batch: 2000 }`
   */
  readonly searchMerge?: SearchIndexerOptions;
  /**
   * SQLite: the better-sqlite3 database `db` runs on. Given, the storage reads its change
   * counter on it without waiting whenever no transaction is open on it (`Storage.changeNow`),
   * so an unchanged list is answered 304 in the turn its request arrived in, without a
   * query through Kysely (about 5 µs of CPU a request).
   */
  readonly sqliteDatabase?: SqliteCounterSource;
  /**
   * The bytes free on the database's volume (SQLite), or undefined when unknown: after a write
   * failed for want of room, readiness counts the storage writable again once room was made,
   * without waiting for a write to try.
   * @default unknown
   */
  readonly freeBytes?: () => number | undefined;
  /**
   * PostgreSQL: told the change counter's value each time a write transaction has committed
   * (the position of its changes), in the async context of the write: a server hands it to
   * the writer, whose later reads wait for a replica that has replayed it.
   * @default none
   */
  readonly onCommit?: (position: number) => void;
}

/** What the storage uses of a better-sqlite3 database to read its change counter synchronously. */
export interface SqliteCounterSource {
  readonly inTransaction: boolean;
  prepare(sql: string): { pluck(toggle?: boolean): SqliteCounterStatement };
}

interface SqliteCounterStatement {
  bind(...parameters: unknown[]): SqliteCounterStatement;
  get(): unknown;
}

/** Called before reading term or day counts: a promise to wait for when they must be summed first. */
type CountsRead = () => Promise<void> | undefined;

/** The empty slug as a literal in the SQL text (see events' getBySlug). */
const NO_SLUG = sql<string>`''`;

/** A storage over tables created by `migrate`. */
export function createSqlStorage(options: SqlStorageOptions): Storage {
  const root = (options.schema ? options.db.withSchema(options.schema) : options.db) as Kysely<EvcalDatabase>;
  const d = sqlDialect(options.dialect);
  // SQLite: the search index is merged after writes, not by them (search-index.ts).
  const searchIndex = options.dialect === 'sqlite' ? sqliteSearchIndexer(root, options.searchMerge) : undefined;
  const statements = compiledStatements();
  // Writes that failed for want of room or permission: readiness says so until that changes.
  const faults = writeFaults(options.freeBytes ? { freeBytes: options.freeBytes } : {});
  /** A table of the storage, named with its schema (SQL written out, not through Kysely's builder). */
  const tableId = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
  // The statements every request and every write runs, built once: building a query through
  // Kysely costs several times what running this one does (PostgreSQL: 186 against 43 µs).
  const LAST_CHANGE = root.selectFrom('evcal_sequences').select('value').where('name', '=', 'change').compile();
  const NEXT_CHANGE = root.updateTable('evcal_sequences').set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'change').returning('value').compile();
  // PostgreSQL: transactions numbered without a lock held to their commit (parallel-writes.ts).
  const parallel = options.dialect === 'postgres' ? parallelWrites(tableId, root) : undefined;
  // PostgreSQL: ids from sequences (migration 0020), which hold no lock to the commit either.
  const idSequence = (name: string) => ({ name: regclass(options.schema, name), table: tableId(name) });
  const ids = options.dialect === 'postgres' ? { post: idSequence('evcal_post_ids'), term: idSequence('evcal_term_ids') } : undefined;

  const readChange = () => guard(async () => Number((await root.executeQuery(LAST_CHANGE)).rows[0]!.value));
  const changeNow = options.dialect === 'sqlite' && options.sqliteDatabase ? sqliteChangeNow(options.sqliteDatabase, LAST_CHANGE) : undefined;
  /**
   * The change counter for every caller that asks in the same turn of the event loop, read
   * once, after all of them asked (on PostgreSQL a read is a round trip, and concurrent
   * requests each need one). Each caller still gets a value read after it asked, so it sees
   * every write that committed before.
   */
  let batch: Promise<number> | undefined;
  const sharedRead = options.dialect === 'postgres'
    ? () => (batch ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      batch = undefined;
      return readChange();
    }))
    : readChange;

  /** The storage over `db`: the database itself (`tx` undefined) or a write transaction. */
  const over = (db: Db, tx: TransactionState | undefined): Storage => {
    /** Runs statements that belong together: in the current transaction, or as one of their own. */
    const write: Write = (fn, events, rows) => {
      if (!tx) {
        return transaction((t, state) => {
          const before = beforeWrite(t, state, events, rows);
          return before ? before.then(() => fn(t)) : fn(t);
        });
      }
      const before = beforeWrite(db, tx, events, rows);
      return before ? guard(async () => {
        await before;
        return fn(db);
      }) : guard(() => fn(db));
    };
    /** Term and day counts inside a transaction that folds them (FOLD_AFTER): summed first. */
    const countsRead = tx ? () => (tx.folding ? foldCountsPostgres(db, tableId) : undefined) : () => undefined;
    // PostgreSQL, inside a write transaction: what it reads to change is locked (parallel-writes.ts).
    const locks: RowLocks | undefined = tx && parallel
      ? { seen: (revisions, strict) => parallel.seen(db, tx, revisions, strict) }
      : undefined;
    const self: Storage = {
      capabilities: { transactions: true, durable: true },
      events: eventCollection(db, d, write, statements, countsRead, locks),
      venues: linkedCollection('venue', db, d, write, statements, locks),
      organizers: linkedCollection('organizer', db, d, write, statements, locks),
      categories: termCollection('category', db, d, options.schema, write, statements, countsRead, locks),
      tags: termCollection('tag', db, d, options.schema, write, statements, countsRead, locks),
      users: userCollection(db, write),
      tokens: tokenCollection(db, write),
      changes: sqlChangeLog(db, write, guard, statements, tx?.atCommit),
      webhooks: sqlWebhookStore(db, d, write, guard, statements, tx?.atCommit),
      idempotency: sqlIdempotencyStore(db, write),
      sequences: {
        next: (kind) => write(async (w) => {
          if (ids) return Number((await sql<{ n: string }>`select nextval(${ids[kind].name}) as n`.execute(w)).rows[0]!.n);
          const { rows } = await statements.run(w, 'sequences.next', [1, kind], () => w.updateTable('evcal_sequences')
            .set((eb) => ({ value: eb('value', '+', 1) })).where('name', '=', kind).returning('value'));
          return Number(rows[0]!.value);
        }),
        bump: (kind, id) => write(async (w) => {
          if (ids && (kind === 'post' || kind === 'term')) {
            // Never back: only a larger value is set. (A nextval between the read and the set
            // may hand out a number below the one set: its insert then finds the id taken, a
            // conflict core runs again.)
            await sql`select setval(${ids[kind].name}, ${id}) from ${ids[kind].table} s
              where ${id} > (case when s.is_called then s.last_value else s.last_value - 1 end)`.execute(w);
            return;
          }
          if (kind === 'change' && tx?.atCommit) {
            // At the commit, with the counter (parallel-writes.ts).
            tx.atCommit.bump = Math.max(tx.atCommit.bump, id);
            return;
          }
          await w.updateTable('evcal_sequences').set((eb) => ({ value: d.greatest(eb.ref('value'), id) }))
            .where('name', '=', kind).execute();
        }),
        peek: (kind) => guard(async () => {
          if (ids && kind !== 'horizon') {
            const { rows } = await sql<{ value: string }>`select case when is_called then last_value else last_value - 1 end as value from ${ids[kind].table}`.execute(db);
            return Number(rows[0]!.value);
          }
          return Number((await db.selectFrom('evcal_sequences').select('value').where('name', '=', kind).executeTakeFirstOrThrow()).value);
        }),
      },
      lastChange: tx ? () => guard(async () => Number((await db.executeQuery(LAST_CHANGE)).rows[0]!.value)) : sharedRead,
      ...(changeNow && !tx ? { changeNow } : {}),
      readiness: async () => {
        const readable = await sqlReadiness(options.db, options.schema, options.dialect === 'postgres');
        return readable.ready && readable.writable !== false ? faults.readiness() : readable;
      },
      // A transaction inside a transaction joins it.
      transaction: (fn) => (tx ? fn(self as StorageTransaction) : transaction((t, state) => fn(over(t, state) as StorageTransaction))),
      close: async () => {
        await searchIndex?.close();
        if (options.destroyOnClose) await options.db.destroy();
      },
    };
    if (!tx) return self;
    // Read when stamped: until then a PostgreSQL transaction may take a newer number (parallel-writes.ts).
    return Object.defineProperty(self, 'change', {
      enumerable: true,
      get: () => {
        tx.handedOut = true;
        return tx.change;
      },
    });
  };

  /**
   * A PostgreSQL write transaction: it claims its number, runs `fn` (whose reads of what it
   * changes lock it), and advances the change counter as its last statement before the COMMIT,
   * writing its change log entries and deliveries then (parallel-writes.ts). One that wrote
   * nothing is rolled back, its number free again. Driver errors become storage errors (a
   * lost race is a `conflict`: core runs the write again).
   */
  async function transaction<T>(fn: (tx: Transaction<EvcalDatabase>, state: TransactionState) => Promise<T>): Promise<T> {
    if (d.name === 'sqlite') return grouped(fn);
    let result: T | undefined;
    let bulk = false;
    let events = 0;
    let position = 0;
    try {
      return await runCommitted(root, async (tx) => {
        const state: TransactionState = newState(await parallel!.claim(tx), pending());
        result = await fn(tx, state);
        if (!state.wrote) throw NOTHING_WRITTEN;
        if (state.folding) await foldCountsPostgres(tx, tableId);
        position = await parallel!.position(tx, state, state.atCommit!);
        // Every insert counts in `rows` too: a load, or a batch of status changes (the lists filter on status).
        bulk = state.rows >= BULK_INSERTS;
        events = state.events;
        return result;
      }).then(async (value) => {
        faults.succeeded();
        options.onCommit?.(position);
        if (events) searchIndex?.wrote(events);
        // Best effort: the load has committed, and lists stay right (only slower) without it.
        if (bulk) await freshAfterBulk();
        return value;
      });
    } catch (error) {
      if (error === NOTHING_WRITTEN) return result as T;
      faults.failed(error);
      throw error;
    }
  }

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
            const row = (await tx.executeQuery(NEXT_CHANGE)).rows[0]!;
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

  /**
   * What a write tells its transaction before it runs: that it wrote, and how many events. On
   * PostgreSQL, a transaction that has written FOLD_AFTER events from then on folds its counts,
   * and one that inserts many analyzes as it grows (LOAD_ANALYZE_FIRST). Undefined when there
   * is nothing to wait for (most writes: no await added to them).
   */
  function beforeWrite(db: Db, state: TransactionState, events: 'inserted' | 'changed' | undefined, rows?: number): Promise<void> | undefined {
    state.wrote = true;
    if (events) state.events++;
    if (events === 'inserted') state.inserted++;
    state.rows += rows ?? (events ? 1 : 0);
    if (d.name !== 'postgres') return undefined;
    const fold = !state.folding && state.rows >= FOLD_AFTER;
    const analyzeNow = state.inserted >= state.analyzeAt;
    if (!fold && !analyzeNow) return undefined;
    return (async () => {
      if (fold) {
        await startFoldingPostgres(db);
        state.folding = true;
      }
      if (analyzeNow) {
        while (state.analyzeAt <= state.inserted) state.analyzeAt *= 2;
        await analyze(db, TRIGGER_TABLES);
      }
    })();
  }

  /**
   * After a bulk write has committed (an import, `evcal serve --seed`, scheduled posts published
   * by the thousand), before it is answered: fresh planner statistics, and the tables and search
   * index as lists read them. SQLite's pending search rows are merged now rather than in the
   * background, where each merge of 2,000 held the one connection while requests queued behind
   * it (a year's list took 0.5–0.8 s for seconds after seeding 50,000 events). PostgreSQL gets
   * `VACUUM (ANALYZE)` instead of `ANALYZE`: the row versions a batch of status changes left
   * behind are cleared, the visibility map that index-only counts rely on is set for the rows a
   * load wrote, and the trigram index's pending list (GIN's fast update), which every search
   * otherwise reads in full, is moved into the index; autovacuum would get to each only later.
   * Best effort: the write has committed, and lists and searches stay right (only slower).
   */
  async function freshAfterBulk(): Promise<void> {
    if (d.name === 'sqlite') {
      await analyze().catch(() => undefined);
      await searchIndex?.flush().catch(() => undefined);
      return;
    }
    // Outside any transaction (VACUUM cannot run in one): on a connection of the pool.
    await sql`vacuum (analyze) ${sql.join(LIST_TABLES.map(tableId))}`.execute(root).catch(() => analyze().catch(() => undefined));
  }

  /** Fresh planner statistics for the tables lists read (PostgreSQL: `tables`), on `db`. */
  async function analyze(db: Db = root, tables: readonly string[] = LIST_TABLES): Promise<void> {
    if (d.name === 'sqlite') {
      await sql`analyze`.execute(db);
      return;
    }
    await sql`analyze ${sql.join(tables.map(tableId))}`.execute(db);
  }

  return over(root, undefined);
}

/** A write transaction's number, whether it has written anything yet, and how many events it inserted and wrote. */
interface TransactionState extends WriteNumber {
  /** PostgreSQL: what it writes at its commit (parallel-writes.ts). */
  readonly atCommit: Pending | undefined;
  wrote: boolean;
  inserted: number;
  events: number;
  /** Events written, a batch's counted one by one (`Write`'s `rows`). */
  rows: number;
  /** PostgreSQL: `inserted` at which the transaction analyzes the tables next (LOAD_ANALYZE_FIRST). */
  analyzeAt: number;
  /** PostgreSQL: whether the count triggers append to the transaction's tables (FOLD_AFTER). */
  folding: boolean;
}

function newState(change: number, atCommit?: Pending): TransactionState {
  return { change, handedOut: false, atCommit, wrote: false, inserted: 0, events: 0, rows: 0, analyzeAt: LOAD_ANALYZE_FIRST, folding: false };
}

/**
 * A transaction that inserts at least this many events is a bulk load (an import, a seed),
 * and on PostgreSQL one that writes this many in any way (a batch of scheduled posts
 * published): the database's planner statistics are refreshed after it commits, so the next lists are
 * planned for the tables as they now are, not as they were (PostgreSQL's autovacuum would
 * get to it only later; SQLite never on its own).
 */
const BULK_INSERTS = 1000;

/**
 * PostgreSQL, inside a transaction that inserts many events (an import): the tables the
 * triggers read are analyzed when it has inserted this many, then each time that number
 * doubles. Each session keeps the plans of the triggers' statements; planned while the tables
 * held a few rows, they read the events by a sequential scan ever after, so an import grew with
 * the square of its events (4,000 in 37 s). New statistics make the session plan them again.
 */
const LOAD_ANALYZE_FIRST = 500;

/**
 * PostgreSQL: a transaction that has written this many events folds its term and day counts
 * (migration 0017): the count triggers append to temporary tables, summed into the counts before
 * it commits, so that each count is updated once, not once per event. PostgreSQL keeps every
 * version of a row its transaction updated until it commits, and each update of the row reads
 * through them: publishing 17,000 scheduled events in one transaction took 19 s, its chunks of
 * 1,000 growing from 0.4 to 1.7 s. A write of one event never folds (its own statements are
 * fewer than the folding's).
 */
const FOLD_AFTER = 100;

/** What lists read (analyzed after a bulk load), and what the count triggers read (during one). */
const LIST_TABLES = ['evcal_events', 'evcal_event_links', 'evcal_event_days', 'evcal_venues', 'evcal_organizers', 'evcal_terms', 'evcal_term_counts'];
const TRIGGER_TABLES = ['evcal_events', 'evcal_event_links', 'evcal_event_days', 'evcal_term_counts'];

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

/** Rolls back a transaction that wrote nothing (its counter update included). */
const NOTHING_WRITTEN = Symbol('nothing written');

/**
 * PostgreSQL, inside a write transaction: reads lock the rows they return, a record read by id
 * or slug against other writers, records read in batches against deletion; `seen` then checks
 * their revisions against the transaction's number (parallel-writes.ts).
 */
interface RowLocks {
  seen(revisions: Iterable<number | string | bigint>, strict: boolean): Promise<void>;
}

/** How a read locks what it returns: `own`, as a record this transaction may change; `shared`, as one it refers to. */
type LockMode = 'own' | 'shared' | undefined;

/**
 * `query` locking the rows it reads, and telling which of them this transaction wrote itself
 * (`evcal_mine`: the version read is its own), whose revision may be any it gave. (Not
 * `age(xmin) = 0`: before the transaction has an id, age() counts from the next one to be
 * given, which may be the very writer whose row it reads.)
 */
function locked<Q>(query: Q, lock: LockMode): Q {
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
async function checked<R extends { revision: number | string | bigint }>(rows: R[], locks: RowLocks | undefined, lock: LockMode): Promise<R[]> {
  if (locks && rows.length) await locks.seen(rows.flatMap((r) => ((r as { evcal_mine?: boolean }).evcal_mine ? [] : [r.revision])), lock === 'own');
  return rows;
}

function eventCollection(db: Db, d: SqlDialect, write: Write, statements: CompiledStatements, countsRead: CountsRead, locks?: RowLocks): EventCollection {
  const own: LockMode = locks && 'own';
  const shared: LockMode = locks && 'shared';
  /** Events with their links: one query for the rows, one for all their links. */
  const withLinks = async (rows: readonly EventRow[]): Promise<EventRecord[]> => {
    if (rows.length === 0) return [];
    const links = groupLinks(await inChunks(rows.map((r) => r.id), async (ids) => (await statements.run(db, `links.of:${ids.length}`, ids, () => db
      .selectFrom('evcal_event_links').select(['event_id', 'kind', 'ref_id', 'position']).where('event_id', 'in', ids))).rows));
    return rows.map((r) => eventRecord(r, links.get(Number(r.id))));
  };
  const writeLinks = async (tx: Db, event: EventRecord) => {
    // In key order: concurrent writers then lock the term counts the triggers update in the same order.
    const rows = linkRows(event).sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.ref_id - b.ref_id));
    if (rows.length) await statements.run(tx, `links.insert:${rows.length}`, rows.flatMap(Object.values), () => tx.insertInto('evcal_event_links').values(rows));
  };
  return {
    get: (id) => guard(async () => (await withLinks(await checked(await selectEvents(db, [id], statements, own), locks, own)))[0]),
    getMany: (ids) => guard(async () => withLinks(await checked(await selectEvents(db, ids, statements, shared), locks, shared))),
    getBySlug: (slug) => guard(async () => {
      if (slug === '') return undefined;
      // slug <> '' (implied): the slug index leaves empty slugs out. The '' is a literal (as in
      // every getBySlug): a partial index chosen for a bound value makes SQLite prepare the
      // statement again each time that parameter is bound (20 µs a lookup).
      if (d.name === 'sqlite') {
        // On SQLite the id first, from the slug index alone: a create asks for a slug nobody
        // has, and better-sqlite3 spends about 0.5 µs a selected column even when no row comes
        // back (26 against 7 µs). On PostgreSQL a second statement is a second round trip.
        const { rows } = await statements.run(db, 'events.idBySlug', [slug, 1], () => db.selectFrom('evcal_events').select('id')
          .where('slug', '=', slug).where('slug', '<>', NO_SLUG).orderBy('id').limit(1));
        return rows.length ? (await withLinks(await selectEvents(db, [Number(rows[0]!.id)], statements)))[0] : undefined;
      }
      const { rows } = await statements.run(db, `events.bySlug${own ?? ''}`, [slug, 1], () => locked(db.selectFrom('evcal_events').select(EVENT_COLUMNS)
        .where('slug', '=', slug).where('slug', '<>', NO_SLUG).orderBy('id').limit(1), own));
      return (await withLinks(await checked(rows, locks, own)))[0];
    }),
    insert: (event) => write(async (tx) => {
      const row = eventRow(event);
      await statements.run(tx, 'events.insert', Object.values(row), () => tx.insertInto('evcal_events').values(row));
      await writeLinks(tx, event);
    }, 'inserted'),
    replace: (event) => write(async (tx) => {
      const row = eventRow(event);
      const result = await statements.run(tx, 'events.replace', [...Object.values(row), event.id], () => tx.updateTable('evcal_events').set(row).where('id', '=', event.id));
      if (Number(result.numAffectedRows) === 0) throw storageError('conflict', new Error(`evcal/sql: no event ${event.id}`));
      await tx.deleteFrom('evcal_event_links').where('event_id', '=', event.id).execute();
      await writeLinks(tx, event);
    }, 'changed'),
    delete: (id) => write(async (tx) => {
      await tx.deleteFrom('evcal_event_links').where('event_id', '=', id).execute();
      await tx.deleteFrom('evcal_events').where('id', '=', id).execute();
    }, 'changed'),
    list: (query) => guard(async () => {
      const summing = countsRead();
      if (summing) await summing;
      if (query.search && !unpaged(query)) {
        // A search's matches are found once, for the page and its total together (a window
        // count): the index is read once. A page past the end has no row to carry the total.
        // Only the page's ids are sorted with the matches, then its rows are read.
        const page = await pageOfEvents(db, d, query, true);
        if (page.length > 0 || !query.offset) {
          const rows = new Map((await selectEvents(db, page.map((r) => Number(r.id)), statements)).map((r) => [Number(r.id), r]));
          return { items: await withLinks(page.map((r) => rows.get(Number(r.id))!)), total: page.length ? Number(page[0]!.matches) : 0 };
        }
        return { items: [], total: await countEvents(db, d, query) };
      }
      const [rows, total] = await Promise.all([pageOfEvents(db, d, query), unpaged(query) ? undefined : countEvents(db, d, query)]);
      return { items: await withLinks(rows), total: total ?? rows.length };
    }),
    // However many events it changes, the same counts each time (one venue's or term's): folded (FOLD_AFTER).
    unlink: (kind, id, revision) => write(async (tx) => {
      if (locks) {
        // PostgreSQL: the record taken off, locked against the writers that refer to it (they
        // hold it FOR KEY SHARE): those in flight commit first, and their links are read below.
        const table = kind === 'venue' ? 'evcal_venues' : kind === 'organizer' ? 'evcal_organizers' : 'evcal_terms';
        await tx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
      }
      const linked = await tx.selectFrom('evcal_event_links').select('event_id').distinct().where('kind', '=', kind).where('ref_id', '=', id).execute();
      const ids = linked.map((r) => Number(r.event_id)).sort((a, b) => a - b);
      if (ids.length === 0) return ids;
      // WRITE_CHUNK events a statement: SQLite keeps the pages each changes until it ends.
      await inChunks(ids, async (chunk) => {
        await lockToChange(tx, 'evcal_events', chunk, locks);
        await tx.updateTable('evcal_events').set({ revision }).where('id', 'in', chunk).execute();
        await tx.deleteFrom('evcal_event_links').where('kind', '=', kind).where('ref_id', '=', id).where('event_id', 'in', chunk).execute();
        return [];
      }, WRITE_CHUNK);
      return ids;
    }, undefined, FOLD_AFTER),
    setStatus: (ids, from, to, revision) => write((tx) => setStatus(tx, 'evcal_events', ids, from, to, revision, locks), 'changed', ids.length),
    countByTerm: (taxonomy: Taxonomy, ids: readonly number[], statuses: readonly PostStatus[]) => guard(async () => {
      await countsRead();
      const valid = storableIds(ids);
      const counts = new Map<number, number>(ids.map((id) => [id, 0]));
      if (valid.length === 0 || statuses.length === 0) return counts;
      // Kept by triggers (migrations.ts): a few rows per term, however many events use it.
      const { rows } = await statements.run(db, `counts:${valid.length}:${statuses.length}`, [taxonomy, ...valid, ...statuses], () => db.selectFrom('evcal_term_counts')
        .select(['ref_id', (eb) => eb.fn.sum<number>('n').as('n')])
        .where('kind', '=', taxonomy).where('ref_id', 'in', valid).where('status', 'in', [...statuses])
        .groupBy('ref_id'));
      for (const r of rows) counts.set(Number(r.ref_id), Number(r.n));
      return counts;
    }),
  };
}

function selectEvents(db: Db, ids: readonly number[], statements: CompiledStatements, lock?: LockMode): Promise<EventRow[]> {
  const valid = storableEventIds(ids);
  if (valid.length === 0) return Promise.resolve([]);
  return inChunks(valid, async (chunk) => (await statements.run(db, `events.get:${chunk.length}${lock ?? ''}`, chunk, () => locked(db
    .selectFrom('evcal_events').select(EVENT_COLUMNS).where('id', 'in', chunk), lock))).rows);
}

/**
 * The most values one `IN (…)` list binds. SQLite refuses a statement with more than 32,766
 * variables and PostgreSQL one with more than 65,535 parameters, and an unpaged list (every
 * scheduled post that is due, every series) can hold more rows than that.
 */
export const IN_LIST_LIMIT = 10_000;

/**
 * The most rows one statement of a bulk write (setStatus, unlink) changes. Inside a transaction
 * SQLite keeps a copy of every page a statement changes until it ends, in memory during write
 * transactions (`inMemorySubjournals`): in statements of 10,000 events, setting every published
 * event to draft raised the peak RSS by 20 MB more than with the copies in a temporary file on
 * the 10k benchmark file (8,600 events), 58 MB more on the 100k one; in statements of 1,000, 6 MB.
 */
export const WRITE_CHUNK = 1_000;

/** `query` over `values` in lists of at most `size` (IN_LIST_LIMIT), the rows of all of them together. */
export async function inChunks<V, R>(values: readonly V[], query: (chunk: readonly V[]) => Promise<R[]>, size = IN_LIST_LIMIT): Promise<R[]> {
  if (values.length <= size) return query(values);
  const out: R[] = [];
  for (let i = 0; i < values.length; i += size) out.push(...(await query(values.slice(i, i + size))));
  return out;
}

/**
 * PostCollection.setStatus: one UPDATE per IN list's worth of ids, however many posts; the
 * triggers move the counts of events that change status.
 */
async function setStatus(
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
async function lockToChange(tx: Db, table: PostTable, ids: readonly number[], locks: RowLocks | undefined): Promise<void> {
  if (!locks) return;
  await checked(await locked((tx as Kysely<EvcalDatabase>).selectFrom(table as 'evcal_events').select(['id', 'revision']).where('id', 'in', ids), 'own').execute(), locks, 'own');
}

/** The columns records are read from, on the aliased table of a list. */
const aliased = <C extends string, A extends string>(alias: A, columns: readonly C[]) => columns.map((c) => `${alias}.${c}` as `${A}.${C}`);
const PAGE_EVENT_COLUMNS = aliased('e', EVENT_COLUMNS);

function pageOfEvents(db: Db, d: SqlDialect, q: EventQuery): Promise<EventRow[]>;
function pageOfEvents(db: Db, d: SqlDialect, q: EventQuery, counted: true): Promise<{ id: number | string; matches: number | string }[]>;
/** A page of events; `counted`: the page's ids only, each with how many events match in all (`matches`). */
function pageOfEvents(db: Db, d: SqlDialect, q: EventQuery, counted = false): Promise<unknown[]> {
  const walk = counted ? undefined : linkWalk(q);
  if (walk) {
    // In the links' order: (start_local, event_id) is the list's (start_local, id).
    const query = db.selectFrom('evcal_event_links as ol').innerJoin('evcal_events as e', 'e.id', 'ol.event_id')
      .select(PAGE_EVENT_COLUMNS)
      .where('ol.kind', '=', walk.kind).where('ol.ref_id', '=', walk.id)
      .where(eventWhere(q, d, true, walk) as never)
      .orderBy((eb) => d.binary(eb.ref('ol.start_local')))
      .orderBy('ol.event_id');
    return paged(query, q, d).execute();
  }
  let query = eventsOf(db, q, d).where(eventWhere(q, d, true));
  for (const key of effectiveSort(q)) query = query.orderBy((eb) => eventOrder(eb, key, d, q.geo), key.direction);
  if (counted) return paged(query.select(['e.id', sql<number>`count(*) over ()`.as('matches')]), q, d).execute();
  return paged(query.select(PAGE_EVENT_COLUMNS), q, d).execute();
}


function linkedCollection<R extends VenueRecord | OrganizerRecord>(
  kind: 'venue' | 'organizer', db: Db, d: SqlDialect, write: Write, statements: CompiledStatements, locks?: RowLocks,
): LinkedPostCollection<R> {
  const own: LockMode = locks && 'own';
  const shared: LockMode = locks && 'shared';
  const table = kind === 'venue' ? 'evcal_venues' : 'evcal_organizers';
  const toRecord = (row: VenueRow | OrganizerRow) => (kind === 'venue' ? venueRecord(row as VenueRow) : organizerRecord(row as OrganizerRow)) as R;
  const columns = kind === 'venue' ? VENUE_COLUMNS : ORGANIZER_COLUMNS;
  const toRow = (r: R) => (kind === 'venue' ? venueRow(r as VenueRecord) : organizerRow(r as OrganizerRecord));
  const select = () => (db as Kysely<EvcalDatabase>).selectFrom(table as 'evcal_venues').select(columns as typeof VENUE_COLUMNS);
  return {
    get: (id) => guard(async () => {
      const [valid] = storableIds([id]);
      if (valid === undefined) return undefined;
      const [row] = await checked(await locked(select().where('id', '=', valid), own).execute(), locks, own);
      return row && toRecord(row);
    }),
    getMany: (ids) => guard(async () => {
      const valid = storableIds(ids);
      return valid.length
        ? (await checked(await inChunks(valid, async (chunk) => (await statements.run(db, `${kind}.get:${chunk.length}${shared ?? ''}`, chunk,
          () => locked(select().where('id', 'in', chunk), shared))).rows), locks, shared)).map(toRecord)
        : [];
    }),
    getBySlug: (slug) => guard(async () => {
      if (slug === '') return undefined;
      const [row] = await checked(await locked(select().where('slug', '=', slug).where('slug', '<>', NO_SLUG).orderBy('id').limit(1), own).execute(), locks, own);
      return row && toRecord(row);
    }),
    insert: (record) => write(async (tx) => {
      await tx.insertInto(table as 'evcal_venues').values(toRow(record) as VenuesTable).execute();
    }),
    replace: (record) => write(async (tx) => {
      const result = await tx.updateTable(table as 'evcal_venues').set(toRow(record) as VenuesTable).where('id', '=', record.id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw storageError('conflict', new Error(`evcal/sql: no ${kind} ${record.id}`));
    }),
    delete: (id) => write(async (tx) => {
      await tx.deleteFrom(table).where('id', '=', id).execute();
    }),
    setStatus: (ids, from, to, revision) => write((tx) => setStatus(tx, table, ids, from, to, revision, locks)),
    list: (query: LinkedPostQuery) => guard(async () => {
      const from = () => (db as Kysely<EvcalDatabase>).selectFrom(`${table} as p` as 'evcal_venues as p').where(linkedPostWhere(kind, query, d) as never);
      let page = from().select(aliased('p', columns as typeof VENUE_COLUMNS));
      for (const key of query.sort) page = page.orderBy(key.field === 'id' ? 'p.id' : d.binary(sql.ref('p.date')), key.direction);
      const [rows, count] = await Promise.all([
        paged(page, query, d).execute(),
        unpaged(query) ? undefined : from().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toRecord), total: count ? Number(count.n) : rows.length };
    }),
  };
}

function termCollection(
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

/** A query without paging returns every match: its total is the number of rows, no count needed. */
function unpaged(p: { limit?: number; offset?: number }): boolean {
  return p.limit === undefined && !p.offset;
}

/** LIMIT and OFFSET (SQLite needs a LIMIT for an OFFSET). */
function paged<Q extends { limit(n: number): Q; offset(n: number): Q }>(query: Q, p: { limit?: number; offset?: number }, d: SqlDialect): Q {
  let q = query;
  if (p.limit !== undefined) q = q.limit(p.limit);
  else if (p.offset && d.name === 'sqlite') q = q.limit(-1);
  if (p.offset) q = q.offset(p.offset);
  return q;
}

/**
 * The change counter read on SQLite's one connection, synchronously, when no transaction is
 * open on it: a read then sees exactly what is committed (by any process: each read begins a
 * read transaction of its own on the latest commit). While a transaction is open (Kysely runs
 * it across turns of the event loop) a read would see its uncommitted writes: undefined then,
 * and the caller waits for `lastChange()`.
 */
function sqliteChangeNow(database: SqliteCounterSource, query: CompiledQuery): () => number | undefined {
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
