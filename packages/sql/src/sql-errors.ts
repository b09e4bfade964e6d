// Driver errors -> storage errors (core's closed set). No SQL text, table name or driver
// message reaches a client; core decides what each answers.
import { CalendarError, storageError } from '@evcal/core/adapter';

interface DriverError {
  readonly code?: string;
  readonly constraint?: string;
  readonly message?: string;
}

export type Classified =
  /** A concurrent write got in the way (or a key taken meanwhile); running the transaction again may succeed. */
  | 'conflict'
  /** The database cannot be reached or is busy. */
  | 'unavailable'
  | 'other';

export function classify(error: unknown): Classified {
  if (typeof error !== 'object' || error === null) return 'other';
  // Already translated further down: judge by the driver error it carries.
  if (error instanceof CalendarError) return error.cause === undefined ? 'other' : classify(error.cause);
  const e = error as DriverError;
  const code = e.code ?? '';
  // PostgreSQL: serialization failure, deadlock, lock wait timeout; SQLite: locked by another
  // process beyond the busy timeout; a unique key (id, slug) taken by a writer outside evcal.
  if (['40001', '40P01', '55P03', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT'].includes(code)) return 'conflict';
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'conflict';
  if (code.startsWith('08') || code.startsWith('57P') || code === '53300'
    || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'SQLITE_CANTOPEN', 'SQLITE_IOERR'].includes(code)) {
    return 'unavailable';
  }
  return 'other';
}

/** The storage error a driver error stands for, or the error itself when it is a bug. */
export function translate(error: unknown): unknown {
  if (error instanceof CalendarError) return error;
  const kind = classify(error);
  return kind === 'other' ? error : storageError(kind, error);
}

/** Runs a storage call, reporting driver errors as storage errors. */
export async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw translate(error);
  }
}
