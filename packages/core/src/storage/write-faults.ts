// What a storage remembers of a write that failed for want of room or of permission, so its
// readiness can say "reads work, writes do not" until that changes. Adapters tell it how each
// write ended; a full storage counts as writable again once a write succeeds or room was made.
import { CalendarError } from '../domain/errors';
import type { StorageReadiness } from './storage';

export interface WriteFaults {
  /** A write failed: remembered when it was for want of room (`storage_full`) or a read-only storage. */
  failed(error: unknown): void;
  /** A write committed: the storage takes writes. */
  succeeded(): void;
  /** What readiness adds for a storage that reads fine: `{ ready: true }`, or not writable and why. */
  readiness(): StorageReadiness;
}

export interface WriteFaultsOptions {
  /**
   * The bytes free where the storage writes (its volume), or undefined when unknown. Given, a
   * full storage is writable again as soon as FREED bytes more are free than when it filled,
   * without waiting for a write to try.
   * @default unknown
   */
  readonly freeBytes?: () => number | undefined;
}

/** Room made on the volume after a write found none that counts as the storage writable again. */
export const FREED = 1024 * 1024;

export function writeFaults(options: WriteFaultsOptions = {}): WriteFaults {
  let fault: { reason: 'full' | 'read_only'; detail: string; freeAtFault: number | undefined } | undefined;
  return {
    failed(error) {
      if (!(error instanceof CalendarError)) return;
      const reason = error.code === 'storage_full' ? 'full' : error.code === 'read_only' ? 'read_only' : undefined;
      if (!reason) return;
      const cause = error.cause instanceof Error ? error.cause.message : error.message;
      fault = { reason, detail: `the last write failed: ${cause}`, freeAtFault: reason === 'full' ? options.freeBytes?.() : undefined };
    },
    succeeded() {
      fault = undefined;
    },
    readiness() {
      if (fault?.reason === 'full' && fault.freeAtFault !== undefined) {
        const free = options.freeBytes?.();
        if (free !== undefined && free >= fault.freeAtFault + FREED) fault = undefined;
      }
      return fault ? { ready: true, writable: false, reason: fault.reason, detail: fault.detail } : { ready: true };
    },
  };
}
