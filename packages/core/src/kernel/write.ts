// Every write runs as one storage transaction from its first read to its last write, so that
// what it read cannot change before it commits: concurrent writers, in this process or in
// others sharing the storage, give the result of some serial order (no lost update).
import { isStorageConflict } from '../storage/storage-errors';
import type { Storage, StorageTransaction } from '../storage/storage';
import { withStorage, type Call, type WriteCall } from './call';

/** How many times a write runs before a storage conflict becomes its answer. */
export const WRITE_ATTEMPTS = 4;

/**
 * Runs `fn` in a write transaction. `fn` parses, authorises, reads, checks preconditions and
 * writes through the call it gets. A transaction that loses a race (a storage `conflict`, e.g.
 * a serialisation failure, or a lock wait that ran out) runs again from the start after a
 * short random pause; the last conflict is thrown when every attempt lost. A call that runs
 * inside a transaction already (an idempotent write's, kernel/idempotency.ts) writes
 * through it, and that transaction's runner tries again.
 */
export async function runWrite<T>(call: Call, fn: (c: WriteCall) => Promise<T>): Promise<T> {
  const { storage } = call;
  if (isTransaction(storage)) return fn(withStorage(call, storage));
  return retryingConflicts(() => storage.transaction((tx) => fn(withStorage(call, tx))));
}

/** Runs `transaction` up to WRITE_ATTEMPTS times while it fails with a storage conflict. */
export async function retryingConflicts<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= WRITE_ATTEMPTS || !isStorageConflict(error)) throw error;
      // Full jitter over a doubling window: 5, 10, 20 ms.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** (attempt - 1)));
    }
  }
}

function isTransaction(storage: Storage): storage is StorageTransaction {
  return 'change' in storage;
}
