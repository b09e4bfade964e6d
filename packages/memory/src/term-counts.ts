// How many committed events of each status use each term, kept up to date on every commit so
// rendering an event page does not scan all events.
import type { EventRecord, PostStatus, Taxonomy } from '@evcal/core/adapter';

export class TermCounts {
  private readonly counts: Record<Taxonomy, Map<number, Map<PostStatus, number>>> = { category: new Map(), tag: new Map() };

  /** Moves an event's contribution from its old version to its new one. */
  update(before: EventRecord | undefined, after: EventRecord | undefined): void {
    if (before) this.add(before, -1);
    if (after) this.add(after, 1);
  }

  /**
   * The counts of committed events, or, with `changed`, of the events as a transaction sees
   * them: the committed counts with the contributions of the events it changed moved over.
   */
  get(
    taxonomy: Taxonomy, ids: readonly number[], statuses: readonly PostStatus[],
    changed: Iterable<readonly [EventRecord | undefined, EventRecord | undefined]> = [],
  ): Map<number, number> {
    const wanted = new Set(statuses);
    const out = new Map(ids.map((id) => {
      const byStatus = this.counts[taxonomy].get(id);
      return [id, statuses.reduce((n, s) => n + (byStatus?.get(s) ?? 0), 0)];
    }));
    const field = taxonomy === 'category' ? 'categoryIds' : 'tagIds';
    const move = (event: EventRecord | undefined, delta: number) => {
      if (!event || !wanted.has(event.status) || event.occurrence) return;
      for (const id of new Set(event[field])) {
        const n = out.get(id);
        if (n !== undefined) out.set(id, n + delta);
      }
    };
    for (const [before, after] of changed) {
      move(before, -1);
      move(after, 1);
    }
    return out;
  }

  private add(event: EventRecord, delta: number): void {
    // A series counts once, as core's countEventsByTerm: its occurrences do not.
    if (event.occurrence) return;
    for (const [taxonomy, ids] of [['category', event.categoryIds], ['tag', event.tagIds]] as const) {
      for (const id of new Set(ids)) {
        let byStatus = this.counts[taxonomy].get(id);
        if (!byStatus) this.counts[taxonomy].set(id, (byStatus = new Map()));
        byStatus.set(event.status, (byStatus.get(event.status) ?? 0) + delta);
      }
    }
  }
}
