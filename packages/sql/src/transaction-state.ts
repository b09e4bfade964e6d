// A write transaction's state (its change number, what it has written) and the thresholds at
// which a transaction is a bulk write: planner statistics refreshed after it, counts folded and
// tables analyzed during it on PostgreSQL (sql-storage.ts).
import type { Pending, WriteNumber } from './parallel-writes';

/** A write transaction's number, whether it has written anything yet, and how many events it inserted and wrote. */
export interface TransactionState extends WriteNumber {
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

export function newState(change: number, atCommit?: Pending): TransactionState {
  return { change, handedOut: false, atCommit, wrote: false, inserted: 0, events: 0, rows: 0, analyzeAt: LOAD_ANALYZE_FIRST, folding: false };
}

/**
 * A transaction that inserts at least this many events is a bulk load (an import, a seed),
 * and on PostgreSQL one that writes this many in any way (a batch of scheduled posts
 * published): the database's planner statistics are refreshed after it commits, so the next lists are
 * planned for the tables as they now are, not as they were (PostgreSQL's autovacuum would
 * get to it only later; SQLite never on its own).
 */
export const BULK_INSERTS = 1000;

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
export const FOLD_AFTER = 100;

/** What lists read (analyzed after a bulk load), and what the count triggers read (during one). */
export const LIST_TABLES = ['evcal_events', 'evcal_event_links', 'evcal_event_days', 'evcal_venues', 'evcal_organizers', 'evcal_terms', 'evcal_term_counts'];
export const TRIGGER_TABLES = ['evcal_events', 'evcal_event_links', 'evcal_event_days', 'evcal_term_counts'];
