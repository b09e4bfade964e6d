// A pg Pool made safe for a server: a connection that fails (the server restarted, a backend
// terminated, a network cut, a pooler that dropped it) fails the query it was running and is
// discarded, instead of ending the process.
//
// pg emits 'error' on a Client whose connection fails, whether it is idle in the pool or
// checked out by a query. The pool listens to its idle clients (and re-emits on itself); a
// checked-out client has no listener while Kysely holds it, and an 'error' event without a
// listener ends the process (`Unhandled 'error' event`). Listening on every client as it
// connects covers both: the query in flight still rejects with the error, the pool drops the
// client when it is released (it is no longer queryable), and the next query connects anew.
//
// It also makes a query of several statements answer with one statement's result, as Kysely
// reads one (see `firstResultOfMany`): a PostgreSQL write sends its BEGIN with its first
// statement, and its last statement with the COMMIT, as one message each, and needs those
// statements' rows (transactions.ts). And it sends statements with parameters as named
// prepared statements, parsed and planned once per connection (prepared-statements.ts).
import { preparedQueries, type Preparing } from './prepared-statements';

export type { Preparing };

/** What `watchPostgresPool` uses of a pg `Pool`. */
export interface WatchablePool {
  on(event: 'connect', listener: (client: WatchableClient) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What `watchPostgresPool` uses of a pg `Client`. */
export interface WatchableClient {
  on(event: 'error', listener: (error: Error) => void): unknown;
  query?: (...args: any[]) => unknown;
}

/** Marks an error as a lost connection (see `isConnectionLoss`). */
const CONNECTION_LOST = Symbol.for('evcal.sql.connectionLost');

export interface WatchOptions {
  /**
   * Send statements with parameters as named prepared statements (prepared-statements.ts). Off
   * by itself for good at the first sign of a pooler that loses them (PgBouncer in transaction
   * mode before 1.21); turn it off from the start for such a pooler (`?prepare=false`).
   * @default true
   */
  readonly prepare?: boolean;
  /** Told once if preparing turns itself off (a pooler lost a prepared statement), with the error that showed it. */
  readonly onPreparingOff?: (error: Error) => void;
}

/**
 * Listens for connection failures on every client of `pool`, idle or checked out, so that none
 * ends the process; `onError` is told of each (once per failed connection). Call it once, right
 * after making the pool (`openPostgresStorage` does). Answers whether statements are prepared:
 * its `on` may be set, e.g. off while migrating (a migration is not run again if a pooler loses
 * one of its statements) and on after.
 */
export function watchPostgresPool(pool: WatchablePool, onError: (error: Error) => void = () => undefined, options: WatchOptions = {}): Preparing {
  const preparing: Preparing = { on: options.prepare !== false, ...(options.onPreparingOff ? { off: options.onPreparingOff } : {}) };
  const seen = new WeakSet<Error>();
  const report = (error: Error) => {
    markConnectionLoss(error);
    if (seen.has(error)) return;
    seen.add(error);
    onError(error);
  };
  // An idle client's error reaches the pool's listener too (pg-pool re-emits it): told once.
  pool.on('error', report);
  pool.on('connect', (client) => {
    client.on('error', report);
    if (client.query) client.query = preparedQueries(client, client.query, preparing);
    firstResultOfMany(client);
  });
  return preparing;
}

/**
 * Makes a simple query of several statements (`begin; select …`, `select …; commit`) answer
 * with the result of its first statement that returns rows (has columns; the last one's when
 * none has). pg answers such a query with an array of results, in which Kysely's driver finds
 * no `rows` and reads none; every other query is answered as before.
 */
function firstResultOfMany(client: WatchableClient): void {
  const query = client.query;
  if (!query) return;
  client.query = function (this: unknown, ...args: unknown[]) {
    const answer = query.apply(this, args);
    // A promise when called without a callback (as Kysely calls it); a callback's call or a submitted cursor is left alone.
    return answer instanceof Promise ? answer.then((result: unknown) => (Array.isArray(result) ? withRows(result) : result)) : answer;
  };
}

function withRows(results: readonly { fields?: readonly unknown[] }[]): unknown {
  return results.find((r) => (r.fields?.length ?? 0) > 0) ?? results[results.length - 1];
}

/** Notes that `error` came from a failed connection (the queries it failed are to be answered 503). */
export function markConnectionLoss(error: unknown): void {
  if (typeof error === 'object' && error !== null && !(CONNECTION_LOST in error)) {
    Object.defineProperty(error, CONNECTION_LOST, { value: true });
  }
}

/**
 * Whether a driver error is the loss of its connection: one `watchPostgresPool` saw, or one of
 * the errors pg makes itself when a connection ends or cannot be had (they carry no code).
 */
export function isConnectionLoss(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (CONNECTION_LOST in error) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((m) => message.startsWith(m));
}

/** The messages of the errors pg (8.x) and pg-pool raise, without a code, for a connection that ended or could not be made. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Cannot use a pool after calling end on the pool',
];
