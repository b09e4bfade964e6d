// Retention: entries of the change log (tombstones included) and failed webhook deliveries
// older than the calendar's retention are removed, at most once an hour, before an operation
// (as scheduled posts are published). A sync token older than what is kept answers 410.
import type { CalendarConfig } from '../kernel/context';

export function createPruner(
  config: Pick<CalendarConfig, 'storage' | 'now' | 'changeRetentionMs' | 'onError'>, intervalMs = 3_600_000,
): () => Promise<void> | undefined {
  let nextSweep = Number.NEGATIVE_INFINITY;
  const prune = async (cutoff: number) => {
    try {
      await config.storage.changes.prune(cutoff);
      await config.storage.webhooks.prune(cutoff);
    } catch (error) {
      // The operation itself does not depend on it: report, and try again at the next interval.
      config.onError(error);
    }
  };
  // Undefined when nothing is due: the operation need not wait.
  return () => {
    const now = config.now();
    if (now < nextSweep) return undefined;
    nextSweep = now + intervalMs;
    return prune(now - config.changeRetentionMs);
  };
}
