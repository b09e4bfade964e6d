// How the server logs the faults of its storage (unreachable, full, read-only, a commit whose
// outcome is unknown): the line for each kind a request meets, the cause the driver or the file
// system gave, and background work's failures, which would otherwise repeat every few seconds.
import { isStorageFault } from '@evcal/core';
import { errorFields, type Logger } from './logger';

/** The log line of each fault of the storage a request meets. */
export const STORAGE_FAULT_LOG: Readonly<Record<string, string>> = {
  unavailable: 'storage unavailable',
  storage_full: 'storage full: the write was refused',
  read_only: 'storage read-only: the write was refused',
  outcome_unknown: 'storage connection lost during a commit: the write may or may not have been kept',
};

/**
 * Logs failures of background work: a fault of the storage (unreachable, full, read-only) at
 * warn, once a minute per kind, since the loops that meet it try again every few seconds;
 * anything else at error, with its stack.
 */
export function backgroundErrors(logger: Logger): (error: unknown) => void {
  const lastLogged = new Map<string, number>();
  return (error) => {
    if (!isStorageFault(error)) {
      logger.error('background work failed', errorFields(error));
      return;
    }
    const now = Date.now();
    if (now - (lastLogged.get(error.code) ?? -Infinity) < 60_000) return;
    lastLogged.set(error.code, now);
    logger.warn('background work failed: the storage refused it (logged once a minute)', { code: error.code, cause: causeOf(error) });
  };
}

/** The driver's or the file system's message behind a storage error. */
export function causeOf(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = 'code' in cause && cause.code ? String(cause.code) : undefined;
    return code && !cause.message.startsWith(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return cause === undefined ? error.message : String(cause);
}
