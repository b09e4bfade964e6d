// Merging the pending search rows into the FTS5 index (SQLite, migration 0012), in batches and
// in transactions of their own: when enough events were written, shortly after writes go
// quiet, once soon after opening (what a crash left pending) and on close.
//
// Any number of connections and processes sharing one file may merge: a merge runs under
// SQLite's write lock (BEGIN IMMEDIATE) and takes what is pending when it starts, so merges
// queue behind each other and each finds what the one before left; a merge that fails (the
// lock not free within the busy timeout) changes nothing, and the rows stay pending, where
// searches find them (dialect.ts), until a later merge.
import { sql, type Kysely, type RawBuilder } from 'kysely';

export interface SearchIndexer {
  /** A transaction that changed `events` events' search text has committed. */
  wrote(events: number): void;
  /** Merges everything pending now; resolves to the number of events merged. */
  flush(): Promise<number>;
  /** Stops the timer and merges what is pending (errors ignored: the rows stay pending). */
  close(): Promise<void>;
}

export interface SearchIndexerOptions {
  /** Merge as soon as this many events were written since the last merge. @default 512 */
  readonly after?: number;
  /** Merge this long after the last write (ms). @default 250 */
  readonly quietMs?: number;
  /** The most events one merge transaction takes (larger merges take several). @default 2000 */
  readonly batch?: number;
}

export function sqliteSearchIndexer(db: Kysely<any>, options: SearchIndexerOptions = {}): SearchIndexer {
  const { after = 512, quietMs = 250, batch = 2000 } = options;
  let written = 0;
  let lastWrite = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<number> | undefined;
  let closed = false;

  const flush = (): Promise<number> => {
    // One merge at a time per storage; a request during one runs after it.
    const next: Promise<number> = (running ?? Promise.resolve(0)).catch(() => 0).then(() => mergeAll(db, batch));
    running = next;
    written = 0;
    return next.finally(() => {
      if (running === next) running = undefined;
    });
  };
  const background = () => {
    // A failed merge leaves the rows pending, where searches find them; the next write (or
    // close) tries again. Not the timer: a storage whose database was closed under it would
    // retry for ever.
    flush().catch(() => undefined);
  };
  const arm = (ms: number) => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      const quietFor = Date.now() - lastWrite;
      if (quietFor < quietMs) arm(quietMs - quietFor);
      else background();
    }, ms);
    timer.unref?.();
  };
  // What an earlier process left pending (a crash) is merged soon after opening.
  arm(quietMs);

  return {
    wrote(events) {
      written += events;
      lastWrite = Date.now();
      if (written >= after) background();
      else arm(quietMs);
    },
    flush,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await flush().catch(() => undefined);
    },
  };
}

/** Merges batches until nothing is pending; the number of events merged. */
async function mergeAll(db: Kysely<any>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    // A read first: nothing pending (the common case when idle) takes no write lock.
    const any = await sql<{ n: number }>`select count(*) as n from (select 1 from evcal_search_pending limit 1)`.execute(db);
    if (Number(any.rows[0]?.n ?? 0) === 0) return total;
    const merged = await mergeBatch(db, batch);
    total += merged;
    if (merged < batch) return total;
    // Let the connection's other queries run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * One transaction: the index loses what it holds for the first `batch` pending events (their
 * indexed text) and gains the current text of those that exist; they leave the pending table.
 */
async function mergeBatch(db: Kysely<any>, batch: number): Promise<number> {
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const range = await sql<{ last: number | null; n: number }>`select max(event_id) as last, count(*) as n
        from (select event_id from evcal_search_pending order by event_id limit ${batch})`.execute(conn);
      const { last, n } = range.rows[0]!;
      if (last !== null) {
        await sql`insert into evcal_events_search (evcal_events_search, rowid, search_text)
          select 'delete', event_id, indexed_text from evcal_search_pending where event_id <= ${last} and indexed_text is not null`.execute(conn);
        await sql`insert into evcal_events_search (rowid, search_text) ${pendingTexts(last)}`.execute(conn);
        await sql`delete from evcal_search_pending where event_id <= ${last}`.execute(conn);
      }
      await sql`commit`.execute(conn);
      return Number(n);
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * The current text of the pending events up to `last`, read from the pending table out (a
 * CROSS JOIN keeps SQLite's join order as written). With a plain join SQLite carried
 * `p.event_id <= last` over to the events and walked them all, by a skip-scan of an index,
 * for the few pending rows: `last` is the newest event written, so every merge read every
 * event (about 0.5 s at a million events, holding the write lock; during a run of creates one
 * merge followed each of them).
 */
export function pendingTexts(last: number): RawBuilder<unknown> {
  return sql`select e.id, e.search_text from evcal_search_pending p cross join evcal_events e on e.id = p.event_id where p.event_id <= ${last}`;
}
