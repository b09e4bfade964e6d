// Scheduled posts: a post stored as `future` becomes `publish` once its publish date has
// passed. Like WordPress's cron, which page loads drive, the sweep runs before operations,
// at most once per interval.
import type { EventRecord, PostRecord } from '../model/records';
import type { Storage } from '../storage/storage';
import { retryingConflicts } from './retry';

/** A function to await before an operation; it publishes what is due. */
/** Publishes what is due: a promise while a sweep runs, undefined when nothing is to wait for. */
export type PublishDue = () => Promise<void> | undefined;

export function createScheduler(config: { readonly storage: Storage; now(): number }, intervalMs = 30_000): PublishDue {
  let nextSweep = Number.NEGATIVE_INFINITY;
  /** The sweep under way, until it ends. */
  let running: Promise<void> | undefined;
  return () => {
    const now = config.now();
    if (now < nextSweep) return running;
    nextSweep = now + intervalMs;
    const sweep: Promise<void> = publishDue(config.storage, now).then(
      () => {
        if (running === sweep) running = undefined;
      },
      (error: unknown) => {
        // Sweep again on the next operation rather than failing every one until the interval ends.
        nextSweep = Number.NEGATIVE_INFINITY;
        if (running === sweep) running = undefined;
        throw error;
      },
    );
    running = sweep;
    return running;
  };
}

/**
 * Publishes every event, venue and organizer scheduled at or before `now`, in one transaction
 * of a few statements however many are due (a calendar imported with thousands of them is
 * published at its first operation, which every operation waits for).
 */
export async function publishDue(storage: Storage, now: number): Promise<void> {
  const byId = [{ field: 'id' as const, direction: 'asc' as const }];
  const due = <T extends PostRecord>(page: { items: readonly T[] }) =>
    page.items.filter((p) => p.dateUtc !== null && Date.parse(`${p.dateUtc.replace(' ', 'T')}Z`) <= now);
  const [events, venues, organizers] = await Promise.all([
    storage.events.list({ records: 'stored', statuses: ['future'], excludeHidden: false, sort: byId }).then(due),
    storage.venues.list({ statuses: ['future'], sort: byId }).then(due),
    storage.organizers.list({ statuses: ['future'], sort: byId }).then(due),
  ]);
  if (events.length + venues.length + organizers.length === 0) return;
  const ids = (posts: readonly PostRecord[]) => posts.map((p) => p.id);
  // A deadlock with a concurrent writer (an import's chunk counting the same terms) is a
  // conflict: the sweep runs again, as a write does, rather than failing the operation behind it.
  await retryingConflicts(() => storage.transaction(async (tx) => {
    // Only those still scheduled: a concurrent write may have changed one since the lists above.
    const published = new Set(await tx.events.setStatus(ids(events), 'future', 'publish', tx.change));
    await publishOccurrences(tx, events.filter((e) => e.recurrence && published.has(e.id)), tx.change);
    await tx.venues.setStatus(ids(venues), 'future', 'publish', tx.change);
    await tx.organizers.setStatus(ids(organizers), 'future', 'publish', tx.change);
  }));
}

/** The occurrences of published series that took their `future` status from them. */
async function publishOccurrences(tx: Storage, series: readonly EventRecord[], revision: number): Promise<void> {
  for (const s of series) {
    const { items } = await tx.events.list({ records: 'listed', statuses: ['future'], excludeHidden: false, parentId: s.id, sort: [{ field: 'id', direction: 'asc' }] });
    const inherited = items.filter((e) => e.occurrence && e.occurrence.overrides?.status === undefined);
    if (inherited.length) await tx.events.setStatus(inherited.map((e) => e.id), 'future', 'publish', revision);
  }
}
