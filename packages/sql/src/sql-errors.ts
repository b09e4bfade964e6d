// Driver errors -> core errors. No SQL text, table name or driver message reaches a client.
import { CalendarError, msg } from '@evcal/core';

interface DriverError {
  readonly code?: string;
  readonly constraint?: string;
  readonly message?: string;
}

export type Classified =
  /** A concurrent write got there first; running the transaction again may succeed. */
  | 'retryable'
  /** The write conflicts with what is stored (a duplicate id). */
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
  // PostgreSQL: serialization failure, deadlock; SQLite: locked by another connection.
  if (code === '40001' || code === '40P01' || code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return 'retryable';
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    // A slug taken meanwhile: core picks the next free one when the transaction runs again.
    const slug = /slug/.test(e.constraint ?? '') || /\.slug\b/.test(e.message ?? '');
    return slug ? 'retryable' : 'conflict';
  }
  if (code.startsWith('08') || code.startsWith('57P') || code === '53300'
    || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'SQLITE_CANTOPEN', 'SQLITE_IOERR'].includes(code)) {
    return 'unavailable';
  }
  return 'other';
}

/** The core error a driver error stands for, or the error itself when it is a bug. */
export function translate(error: unknown): unknown {
  switch (classify(error)) {
    case 'retryable':
    case 'conflict':
      return new CalendarError('conflict', msg('The write conflicts with a concurrent change; try again.'), { cause: error });
    case 'unavailable':
      return new CalendarError('unavailable', msg('The calendar storage is not available right now; try again later.'), { cause: error });
    default:
      return error;
  }
}
