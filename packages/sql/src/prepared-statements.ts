// Named prepared statements on PostgreSQL: a statement with parameters is parsed and analysed
// once per connection, and its plan cached by the server, instead of at every execution. An
// unnamed statement (what pg sends by default) costs the server its parse, analysis and plan
// each time: measured on a create through `evcal serve`, planning alone was about a third of
// the server's CPU per write (pg_stat_statements' total_plan_time; docs/performance.md).
//
// - A statement's name is a hash of its text, so that one name always means one text, whoever
//   prepared it (several servers behind one pooler, several versions of evcal).
// - A connection prepares at most `PER_CONNECTION` statements; others run unnamed (lists whose
//   SQL varies with their filters do not fill the server's memory).
// - A pooler in transaction mode (PgBouncer before 1.21, Supavisor) hands each transaction any
//   server connection: a statement prepared on one is missing on the next (26000), or prepared
//   already (42P05). The first such error turns preparing off for the pool, for good (it fails
//   closed): a query outside a transaction is sent again unnamed at once; one inside a
//   transaction fails as a conflict, which core answers by running the write again, unnamed.
//   `?prepare=false` on the storage URL turns it off from the start.
import { createHash } from 'node:crypto';

/** The most statements one connection prepares. */
const PER_CONNECTION = 200;
/** The most names kept (text → name); the cache starts over beyond it. */
const MAX_NAMES = 4096;

/** SQLSTATEs of a prepared statement that is not where the client left it (a pooler), or no longer fits the schema. */
const MISPLACED = new Set(['26000', '42P05', '0A000']);

/** Marks an error as a prepared statement lost by a pooler inside a transaction: a conflict (sql-errors.ts). */
const LOST_STATEMENT = Symbol.for('evcal.sql.lostPreparedStatement');

/** Whether preparing is on for a pool: on unless turned off, and off for good after a statement was lost. */
export interface Preparing {
  on: boolean;
  /** Told once, when a lost statement turns preparing off, of the error that showed it. */
  readonly off?: (error: Error) => void;
}

const names = new Map<string, string>();

/** The name of a statement's text: the same for the same text in every process. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    name = `evcal_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    names.set(text, name);
  }
  return name;
}

type Query = (...args: any[]) => unknown;

/** What this module reads of a pg Client: its transaction status, as its last ReadyForQuery said (`I`: idle). */
interface ClientState {
  readonly _txStatus?: string | null;
}

/**
 * `query` (a pg Client's, bound to `client`) sending statements with parameters as named
 * prepared statements while `preparing.on`; every other call is passed on as it is.
 */
export function preparedQueries(client: object, query: Query, preparing: Preparing): Query {
  const prepared = new Set<string>();
  return function (this: unknown, ...args: unknown[]) {
    const [text, values] = args;
    if (!preparing.on || args.length !== 2 || typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
      return query.apply(this, args);
    }
    const name = statementName(text);
    if (!prepared.has(name)) {
      if (prepared.size >= PER_CONNECTION) return query.apply(this, args);
      prepared.add(name);
    }
    const answer = query.call(this, { name, text, values });
    if (!(answer instanceof Promise)) return answer;
    return answer.catch((error: unknown) => {
      if (!MISPLACED.has((error as { code?: unknown })?.code as string)) throw error;
      if (preparing.on) {
        preparing.on = false;
        preparing.off?.(error as Error);
      }
      // Outside a transaction nothing else was lost: the same statement, unnamed.
      if ((client as ClientState)._txStatus === 'I') return query.apply(this, args);
      Object.defineProperty(error, LOST_STATEMENT, { value: true });
      throw error;
    });
  };
}

/** Whether a driver error is a prepared statement a pooler lost inside a transaction (to be run again). */
export function isLostStatement(error: unknown): boolean {
  return typeof error === 'object' && error !== null && LOST_STATEMENT in error;
}
