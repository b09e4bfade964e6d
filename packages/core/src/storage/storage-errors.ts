// The failures a storage reports, one closed set for every adapter. Adapters throw these
// (never driver errors, which may carry SQL or paths); core decides what each answers: a
// conflict is retried a few times (kernel/write.ts), then refused; `unavailable` is
// refused at once.
import { CalendarError } from '../domain/errors';
import { msg } from '../domain/messages';

export type StorageErrorCode =
  /**
   * A concurrent write got in the way: a serialisation failure or deadlock, a unique key
   * taken meanwhile, a record that vanished before it could be replaced. Running the whole
   * transaction again may succeed.
   */
  | 'conflict'
  /** The storage cannot be reached, is busy beyond its wait, or was closed. */
  | 'unavailable'
  /** The storage has no room left for the write (a full disk or quota); reads still work. */
  | 'full'
  /** The storage takes no writes (a read-only file or volume, a standby database); reads still work. */
  | 'read_only'
  /**
   * The connection failed while the write was committing: it may or may not have been kept.
   * Never retried by core; a client reads before writing again (or retries with its
   * Idempotency-Key).
   */
  | 'outcome_unknown';

/** A storage failure as adapters report it; `cause` keeps the driver's error for logs, never for clients. */
export function storageError(code: StorageErrorCode, cause?: unknown): CalendarError {
  switch (code) {
    case 'conflict':
      return new CalendarError('conflict', msg('The write conflicts with a concurrent change; try again.'), { cause });
    case 'unavailable':
      return new CalendarError('unavailable', msg('The calendar storage is not available right now; try again later.'), { cause });
    case 'full':
      return new CalendarError('storage_full', msg('The calendar storage is full: nothing was written. Reads still work; try again once space is freed.'), { cause });
    case 'read_only':
      return new CalendarError('read_only', msg('The calendar storage takes no writes right now: nothing was written. Reads still work.'), { cause });
    case 'outcome_unknown':
      return new CalendarError('outcome_unknown', msg('The storage connection failed while the write was being committed: it may or may not have been saved. Read the record before writing again.'), { cause });
  }
}

/** The storage failures that are faults of the storage, not of the request: 503 or 507 over HTTP, and logged. */
export const STORAGE_FAULTS: ReadonlySet<string> = new Set(['unavailable', 'storage_full', 'read_only', 'outcome_unknown']);

/** Whether an error is a fault of the storage (unreachable, full, read-only, a commit of unknown outcome). */
export function isStorageFault(error: unknown): error is CalendarError {
  return error instanceof CalendarError && STORAGE_FAULTS.has(error.code);
}

/** Whether an error is a storage conflict (worth running the transaction again). */
export function isStorageConflict(error: unknown): boolean {
  return error instanceof CalendarError && error.code === 'conflict';
}
