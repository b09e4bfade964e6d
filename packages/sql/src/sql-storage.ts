// createSqlStorage: the storage contract over the caller's Kysely instance. Every list is one
// SQL query plus one count (plus one for the links of the page's events); nothing is filtered
// afterwards in JavaScript. Term counts are read from evcal_term_counts, which triggers keep
// (migrations.ts).
//
// Writes on SQLite: every write transaction first advances the change counter (a row of
// evcal_sequences), and SQLite runs one writer at a time anyway (group-commit.ts). On
// PostgreSQL, write transactions run in parallel: what a write reads to change is locked, and
// the counter advances at the commit, in a critical section as short as the commit
// (parallel-writes.ts). A write outside a transaction is a transaction of its own.
import type { Storage, StorageTransaction } from '@evcal/core/adapter';
import { writeFaults } from '@evcal/core/adapter';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { sqlDialect, type DialectName } from './dialect';
import type { EvcalDatabase } from './schema';
import type { Db, Write } from './db';
import { guard } from './sql-errors';
import { runPostgresTransaction } from './transactions';
import { sqlReadiness, tokenCollection, userCollection } from './account-collections';
import { sqlChangeLog, sqlWebhookStore } from './sql-change-store';
import { sqlIdempotencyStore } from './idempotency-store';
import { sqliteSearchIndexer, type SearchIndexerOptions } from './search-index';
import { compiledStatements } from './compiled-statements';
import { foldCountsPostgres, startFoldingPostgres } from './migrations/0017-counts-folded-in-bulk';
import { regclass } from './migrations/0020-parallel-writers';
import { parallelWrites, pending } from './parallel-writes';
import { eventCollection } from './event-collection';
import { linkedCollection } from './linked-collection';
import { termCollection } from './term-collection';
import type { RowLocks } from './row-locks';
import { BULK_INSERTS, FOLD_AFTER, LIST_TABLES, newState, TRIGGER_TABLES, type TransactionState } from './transaction-state';
import { groupCommit } from './group-commit';
import { sqliteChangeNow, type SqliteCounterSource } from './sqlite-change-now';

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
  async function transaction<T>(fn: (tx: Db, state: TransactionState) => Promise<T>): Promise<T> {
    if (d.name === 'sqlite') return grouped(fn);
    let bulk = false;
    let events = 0;
    try {
      const { value, rows } = await runPostgresTransaction(root, await together(), parallel!.claiming, async (tx, claimed) => {
        const { number, endpoints } = parallel!.claimed(claimed);
        const state: TransactionState = newState(number, pending(endpoints));
        const value = await fn(tx, state);
        if (!state.wrote) return { value, last: undefined };
        if (state.folding) await foldCountsPostgres(tx, tableId);
        // Every insert counts in `rows` too: a load, or a batch of status changes (the lists filter on status).
        bulk = state.rows >= BULK_INSERTS;
        events = state.events;
        return { value, last: parallel!.position(state, state.atCommit!) };
      });
      const position = rows[0] as { value: string } | undefined;
      // Nothing written: rolled back, no position.
      if (!position) return value;
      faults.succeeded();
      options.onCommit?.(Number(position.value));
      if (events) searchIndex?.wrote(events);
      // Best effort: the load has committed, and lists stay right (only slower) without it.
      if (bulk) await freshAfterBulk();
      return value;
    } catch (error) {
      faults.failed(error);
      throw error;
    }
  }

  /**
   * PostgreSQL: whether the pool answers a query of several statements with its first one's
   * rows (`watchPostgresPool` made it), asked once: then a write's BEGIN goes with its first
   * statement and its last statement with its COMMIT (transactions.ts); on a pool made
   * otherwise, each is a round trip of its own.
   */
  let multiStatements: Promise<boolean> | undefined;
  function together(): Promise<boolean> {
    multiStatements ??= guard(async () => (await root.executeQuery<{ n: number }>(CompiledQuery.raw('select 1 as n; select 2 as n'))).rows[0]?.n === 1);
    multiStatements.catch(() => { multiStatements = undefined; });
    return multiStatements;
  }

  // SQLite: write transactions committed in groups (group-commit.ts).
  const grouped = groupCommit({ root, nextChange: NEXT_CHANGE, faults, searchIndex, freshAfterBulk });

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
