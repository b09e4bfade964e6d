// A transaction that loses a race with another writer (a storage `conflict`: a serialisation
// failure, a deadlock PostgreSQL broke, a lock wait that ran out) runs again: every write
// (write.ts), and the housekeeping transactions that run beside them (scheduler.ts).
import { isStorageConflict } from '../storage/storage-errors';

/** How many times a write runs before a storage conflict becomes its answer. */
export const WRITE_ATTEMPTS = 4;

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
