// One change log entry for a series write: the occurrences a write transaction created,
// changed, trashed or removed are folded into the entry of their series, which names them
// (`occurrences`), instead of getting entries of their own. Which series an occurrence belongs
// to is its parent after the change (a "this and following" split moves occurrences to the new
// series, which reports them) or, when it was removed, before it.
//
// - The series was written in the transaction (create, update, split, trash, made one event
//   again): its entry carries its occurrences.
// - It was not, but occurrences of it were created (the horizon moving forward stores the next
//   ones): one entry `updated` for the series, at its unchanged revision, carrying them.
// - Otherwise each occurrence written is an exception changed on its own: an entry of its own
//   that names its series (`series`).
import type { EventRecord } from '../model/records';
import type { ChangeAction, ChangeEntry, OccurrenceActions, PostState } from '../storage/change-store';

/** A record's change before it has its place in the log. */
export type PendingChange = Omit<ChangeEntry, 'change' | 'seq' | 'at'>;

/** What the recorder knows of a changed event beyond its entry. */
export interface EventChange {
  readonly change: PendingChange;
  /** The event after the change, or before it when it was removed. */
  readonly record: EventRecord;
  /** Whether it is a series after the change or was one before it. */
  readonly series: boolean;
}

/**
 * `changes` (in the order the transaction made them) with occurrences folded into their
 * series' entries; `seriesNow` reads series the transaction did not write.
 */
export async function foldOccurrences(
  changes: readonly (PendingChange | EventChange)[],
  seriesNow: (ids: readonly number[]) => Promise<readonly EventRecord[]>,
): Promise<PendingChange[]> {
  const events = new Map<number, EventChange>();
  for (const c of changes) if ('record' in c) events.set(c.change.id, c);
  const byParent = new Map<number, EventChange[]>();
  for (const e of events.values()) {
    if (!e.record.occurrence) continue;
    const group = byParent.get(e.record.parentId) ?? [];
    group.push(e);
    byParent.set(e.record.parentId, group);
  }
  const orphans = [...byParent].filter(([parent]) => !events.has(parent));
  const rolled = orphans.filter(([, group]) => group.some((e) => e.change.action === 'created')).map(([parent]) => parent);
  const unwritten = new Map((rolled.length ? await seriesNow(rolled) : []).map((s) => [s.id, s]));

  const out: PendingChange[] = [];
  const folded = new Set<number>();
  for (const c of changes) {
    if (!('record' in c)) {
      out.push(c);
      continue;
    }
    const { change, record } = c;
    if (record.occurrence) {
      const parent = record.parentId;
      if (events.has(parent)) continue;
      const series = unwritten.get(parent);
      if (series) {
        if (folded.has(parent)) continue;
        folded.add(parent);
        const state: PostState = { status: series.status, authorId: series.authorId };
        out.push({ kind: 'event', id: parent, action: 'updated', revision: series.revision, before: state, after: state, occurrences: actions(byParent.get(parent)!) });
      } else out.push({ ...change, series: parent });
      continue;
    }
    const occurrences = byParent.get(change.id);
    out.push(c.series || occurrences ? { ...change, occurrences: actions(occurrences ?? []) } : change);
  }
  return out;
}

function actions(group: readonly EventChange[]): OccurrenceActions {
  const ids = (action: ChangeAction) => group.filter((e) => e.change.action === action).map((e) => e.change.id).sort((a, b) => a - b);
  return { created: ids('created'), updated: ids('updated'), trashed: ids('trashed'), deleted: ids('deleted') };
}
