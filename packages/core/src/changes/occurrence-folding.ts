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
//
// Readers of the log decide who may see a record from its entry's states, and a folded
// occurrence is judged by its series': so an occurrence with a status of its own (an exception
// published in an unpublished series, or the reverse; the trash aside, which nobody sees)
// keeps an entry of its own, naming its series.
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
  const extended = orphans.filter(([, group]) => group.some((e) => e.change.action === 'created')).map(([parent]) => parent);
  const unwritten = new Map((extended.length ? await seriesNow(extended) : []).map((s) => [s.id, s]));

  /** The states of a series over the transaction: its entry's, or unchanged when it was not written. */
  const rolled = (series: EventRecord): PendingChange => {
    const state: PostState = { status: series.status, authorId: series.authorId };
    return { kind: 'event', id: series.id, action: 'updated', revision: series.revision, before: state, after: state };
  };
  const seriesStates = (parent: number): PendingChange | undefined => {
    const written = events.get(parent)?.change;
    const unchanged = unwritten.get(parent);
    return written ?? (unchanged && rolled(unchanged));
  };
  /** Whether an occurrence's change goes into its series' entry: the series has one, and it is seen as the series is. */
  const isFolded = (e: EventChange, parent: number): boolean => {
    const series = seriesStates(parent);
    if (!series) return false;
    const sameAs = (own: PostState | null, other: PostState | null) =>
      !own || own.status === 'trash' || (own.status === other?.status && own.authorId === other.authorId);
    // An occurrence moved to a series created by a split was seen as the series now is, or not alike.
    return sameAs(e.change.before, series.before ?? series.after) && sameAs(e.change.after, series.after);
  };
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
      const series = unwritten.get(parent);
      if (isFolded(c, parent)) {
        if (!series || folded.has(parent)) continue;
        folded.add(parent);
        out.push({ ...rolled(series), occurrences: actions(byParent.get(parent)!.filter((e) => isFolded(e, parent))) });
      } else out.push({ ...change, series: parent });
      continue;
    }
    const occurrences = byParent.get(change.id)?.filter((e) => isFolded(e, change.id));
    out.push(c.series || occurrences ? { ...change, occurrences: actions(occurrences ?? []) } : change);
  }
  return out;
}

function actions(group: readonly EventChange[]): OccurrenceActions {
  const ids = (action: ChangeAction) => group.filter((e) => e.change.action === action).map((e) => e.change.id).sort((a, b) => a - b);
  return { created: ids('created'), updated: ids('updated'), trashed: ids('trashed'), deleted: ids('deleted') };
}
