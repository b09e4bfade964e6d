// Scheduled posts: a post stored as `future` becomes `publish` once its publish date has
// passed. Like WordPress's cron, which page loads drive, the sweep runs before operations,
// at most once per interval.
import type { EventRecord, PostRecord } from '../model/records';
import type { Storage } from '../storage/storage';

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

/** Publishes every event, venue and organizer scheduled at or before `now`. */
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
  await storage.transaction(async (tx) => {
    await promote(tx.events, events, tx.change);
    await promoteOccurrences(tx, events, tx.change);
    await promote(tx.venues, venues, tx.change);
    await promote(tx.organizers, organizers, tx.change);
  });
}

interface Promotable<R> {
  get(id: number): Promise<R | undefined>;
  replace(record: R): Promise<void>;
}

async function promote<R extends PostRecord>(collection: Promotable<R>, posts: readonly R[], revision: number): Promise<void> {
  for (const post of posts) {
    // Re-read inside the transaction: a concurrent write may have changed it.
    const current = await collection.get(post.id);
    if (current?.status === 'future') await collection.replace({ ...current, status: 'publish', revision });
  }
}

/** The occurrences of published series that took their `future` status from them. */
async function promoteOccurrences(tx: Storage, series: readonly EventRecord[], revision: number): Promise<void> {
  for (const s of series) {
    if (!s.recurrence) continue;
    const { items } = await tx.events.list({ records: 'listed', statuses: ['future'], excludeHidden: false, parentId: s.id, sort: [{ field: 'id', direction: 'asc' }] });
    for (const e of items) {
      if (e.occurrence && e.occurrence.overrides?.status === undefined) await tx.events.replace({ ...e, status: 'publish', revision });
    }
  }
}
