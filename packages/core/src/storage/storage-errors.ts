// The failures a storage reports, one closed set for every adapter. Adapters throw these
// (never driver errors, which may carry SQL or paths); core decides what each answers: a
// conflict is retried a few times (operations/write.ts), then refused; `unavailable` is
// refused at once.
import { CalendarError } from '../errors';
import { msg } from '../messages';

export type StorageErrorCode =
  /**
   * A concurrent write got in the way: a serialisation failure or deadlock, a unique key
   * taken meanwhile, a record that vanished before it could be replaced. Running the whole
   * transaction again may succeed.
   */
  | 'conflict'
  /** The storage cannot be reached, is busy beyond its wait, or was closed. */
  | 'unavailable';

/** A storage failure as adapters report it; `cause` keeps the driver's error for logs, never for clients. */
export function storageError(code: StorageErrorCode, cause?: unknown): CalendarError {
  return code === 'conflict'
    ? new CalendarError('conflict', msg('The write conflicts with a concurrent change; try again.'), { cause })
    : new CalendarError('unavailable', msg('The calendar storage is not available right now; try again later.'), { cause });
}

/** Whether an error is a storage conflict (worth running the transaction again). */
export function isStorageConflict(error: unknown): boolean {
  return error instanceof CalendarError && error.code === 'conflict';
}
