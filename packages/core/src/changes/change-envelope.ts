// The envelope of a change, as in-process listeners and webhook receivers get it, and the
// event types endpoints filter on.
import type { ChangeEnvelope } from '../represent/change-schemas';
import { CHANGE_KINDS, type ChangeAction, type ChangeEntry } from '../storage/change-store';

/** Every event type: posts are created, updated, trashed and deleted; terms created, updated and deleted. */
export const EVENT_TYPES: readonly string[] = CHANGE_KINDS.flatMap((kind) => {
  const actions: readonly ChangeAction[] = kind === 'category' || kind === 'tag' ? ['created', 'updated', 'deleted'] : ['created', 'updated', 'trashed', 'deleted'];
  return actions.map((action) => `${kind}.${action}`);
});

export function eventType(entry: Pick<ChangeEntry, 'kind' | 'action'>): string {
  return `${entry.kind}.${entry.action}`;
}

export function changeEnvelope(entry: ChangeEntry): ChangeEnvelope {
  const o = entry.occurrences;
  return {
    type: eventType(entry), id: entry.id, revision: entry.revision, timestamp: new Date(entry.at).toISOString(),
    ...(entry.series !== undefined ? { series: entry.series } : {}),
    ...(o ? { occurrences: { created: [...o.created], updated: [...o.updated], trashed: [...o.trashed], deleted: [...o.deleted] } } : {}),
  };
}
