// Every write runs as one storage transaction from its first read to its last write, so that
// what it read cannot change before it commits: concurrent writers, in this process or in
// others sharing the storage, give the result of some serial order (no lost update).
import type { Storage, StorageTransaction } from '../storage/storage';
import { withStorage, type Call, type WriteCall } from './call';
import { retryingConflicts } from './retry';

export { retryingConflicts, WRITE_ATTEMPTS } from './retry';

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

function isTransaction(storage: Storage): storage is StorageTransaction {
  return 'change' in storage;
}
