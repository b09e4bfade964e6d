// Driver errors -> storage errors (core's closed set). No SQL text, table name or driver
// message reaches a client; core decides what each answers.
import { CalendarError, storageError } from '@evcal/core/adapter';
import { isConnectionLoss } from './postgres-pool';
import { isLostStatement } from './prepared-statements';

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
  /** The database has no room left (a full disk or quota). */
  | 'full'
  /** The database takes no writes (a read-only file, a hot standby). */
  | 'read_only'
  | 'other';

export function classify(error: unknown): Classified {
  if (typeof error !== 'object' || error === null) return 'other';
  // Already translated further down: judge by the driver error it carries.
  if (error instanceof CalendarError) return error.cause === undefined ? 'other' : classify(error.cause);
  if (isConnectionLoss(error)) return 'unavailable';
  // A prepared statement a pooler lost inside a transaction: preparing is off now, run it again.
  if (isLostStatement(error)) return 'conflict';
  const code = (error as DriverError).code ?? '';
  // PostgreSQL: serialization failure, deadlock, lock wait timeout; SQLite: locked by another
  // process beyond the busy timeout; a unique key (id, slug) taken by a writer outside evcal.
  if (['40001', '40P01', '55P03', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_BUSY_SNAPSHOT'].includes(code)) return 'conflict';
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'conflict';
  // PostgreSQL disk_full; SQLite's database or disk is full; a file system's ENOSPC or quota.
  if (code === '53100' || code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'full';
  // PostgreSQL read_only_sql_transaction (a hot standby); SQLite's SQLITE_READONLY and its
  // extended codes (a read-only file or directory, a database moved); a read-only volume.
  if (code === '25006' || code.startsWith('SQLITE_READONLY') || code === 'EROFS') return 'read_only';
  // PostgreSQL: connection exceptions (08), the server shutting down or restarting (57P01-57P04),
  // out of memory or connections (53), an I/O error (58030); SQLite: the file cannot be
  // opened or read (SQLITE_IOERR and its extended codes, SQLITE_CANTOPEN, SQLITE_CORRUPT is not here).
  if (code.startsWith('08') || code.startsWith('57P') || code.startsWith('53') || code === '58030'
    || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN')
    || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', 'EIO'].includes(code)) {
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
