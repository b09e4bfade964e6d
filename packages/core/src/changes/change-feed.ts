// `GET /changes`: what changed after a sync token, read from the change log. Each record
// changed in the page appears once, as it is now, in the representation its list gives the
// caller; a record the caller may no longer see (deleted, trashed, or no longer visible to it)
// appears as a tombstone, but only if the caller could have seen it at some point since the
// token: an anonymous reader never learns that a draft existed. A series comes with the
// occurrences its changes affected (as they are now, or to remove).
import { CalendarError } from '../domain/errors';
import { parseArgs, type WireArgs } from '../kernel/args';
import { msg } from '../domain/messages';
import type { OrganizerRecord, PostKind, TermRecord, VenueRecord } from '../model/records';
import { isUnlocked } from '../shared/post-access';
import { renderEvents } from '../events/event-render';
import { visibility } from '../shared/status-filter';
import type { Call } from '../kernel/call';
import { statusMatches } from '../query/event-engine';
import type { ChangedOccurrencesJson, ChangedRecordJson, ChangesJson, TombstoneJson } from '../represent/change-schemas';
import type { EventJson } from '../represent/schemas';
import { organizerJson, venueJson } from '../represent/linked-post-json';
import { redactProtected } from '../represent/redact';
import { termJson } from '../represent/term-json';
import type { ChangeEntry, ChangeKind, PostState } from '../storage/change-store';
import { decodeSyncToken, encodeSyncToken } from './sync-token';
import { CHANGES_ARGS, MAX_CHANGES_PER_PAGE } from './change-args';

export { CHANGES_ARGS as changesArgs, MAX_CHANGES_PER_PAGE };

export async function readChanges(call: Call, input: WireArgs): Promise<ChangesJson> {
  const { values } = await parseArgs(CHANGES_ARGS, input, call.args);
  const perPage = Math.min(values.per_page!, MAX_CHANGES_PER_PAGE);
  const storage = call.storage;
  const page = (token: string, extra: Partial<ChangesJson> = {}): ChangesJson => ({
    changes: [], next_token: token, has_more: false, next_rest_url: `${call.links.apiRoot}/changes?${new URLSearchParams({ since: token, per_page: String(perPage) })}`, ...extra,
  });

  if (values.since === undefined) {
    // Every change after the last committed one is numbered above it.
    const [log, last] = await Promise.all([storage.changes.state(), storage.lastChange()]);
    return page(encodeSyncToken({ logId: log.id, change: last + 1, seq: 0 }), { full_sync_required: true });
  }
  const token = decodeSyncToken(values.since);
  if (!token) throw invalidToken();
  // Every change up to this one has committed, so a page that reads to the end has read all of them.
  const committed = await storage.lastChange();
  const entries = await storage.changes.read(token, perPage + 1);
  // Read after the entries: a prune that removed some of them before they were read shows here.
  const [log, last] = await Promise.all([storage.changes.state(), storage.lastChange()]);
  // Another log's token, or one from ahead of this storage (restored from an older backup).
  if (token.logId !== log.id || token.change > last + 1) throw invalidToken();
  if (token.change <= log.prunedThrough) {
    throw new CalendarError('sync_token_expired', msg('The sync token has expired: list every collection again, then follow the changes from the new token.'));
  }
  const read = withinBudget(entries, perPage);
  const more = entries.length > read.length;
  const lastRead = read[read.length - 1];
  let next = lastRead ? { change: lastRead.change, seq: lastRead.seq + 1 } : { change: token.change, seq: token.seq };
  // At the end, the token moves past changes that logged nothing, so it stays as recent as the reader.
  if (!more && next.change <= committed) next = { change: committed + 1, seq: 0 };
  const changes = await changedRecords(call, read);
  return {
    ...page(encodeSyncToken({ logId: log.id, ...next })),
    changes,
    has_more: more,
  };
}

/** The records the entries name, once each, in the order of their last entry: as they are now, or as tombstones. */
async function changedRecords(call: Call, entries: readonly ChangeEntry[]): Promise<Array<ChangedRecordJson | TombstoneJson>> {
  const groups = new Map<string, { kind: ChangeKind; id: number; last: number; seenByCaller: boolean; occurrences?: Set<number> }>();
  const sees = visibleTo(call);
  entries.forEach((e, i) => {
    const key = `${e.kind}:${e.id}`;
    const group = groups.get(key) ?? { kind: e.kind, id: e.id, last: i, seenByCaller: false };
    group.last = i;
    // Visible before or after any of its changes since the token: the caller may hold it.
    group.seenByCaller ||= sees(e.kind, e.before) || sees(e.kind, e.after);
    if (e.occurrences) {
      group.occurrences ??= new Set();
      for (const id of occurrenceIds(e)) group.occurrences.add(id);
    }
    groups.set(key, group);
  });
  const ordered = [...groups.values()].sort((a, b) => a.last - b.last);
  const idsOf = (kind: ChangeKind) => ordered.filter((g) => g.kind === kind).map((g) => g.id);
  const occurrenceIdsRead = ordered.flatMap((g) => [...(g.occurrences ?? [])]);
  const s = call.storage;
  const [events, venues, organizers, categories, tags] = await Promise.all([
    s.events.getMany([...new Set([...idsOf('event'), ...occurrenceIdsRead])]), s.venues.getMany(idsOf('venue')), s.organizers.getMany(idsOf('organizer')),
    s.categories.getMany(idsOf('category')), s.tags.getMany(idsOf('tag')),
  ]);
  const shown = <R extends { id: number; status?: string; authorId?: number }>(kind: ChangeKind, records: readonly R[]) =>
    records.filter((r) => sees(kind, r.status === undefined ? null : { status: r.status as PostState['status'], authorId: r.authorId ?? 0 }));
  const rendered = new Map<string, { revision: number; record: ChangedRecordJson['record'] }>();
  const visibleEvents = shown('event', events);
  (await renderEvents(call, visibleEvents)).forEach((json, i) => {
    rendered.set(`event:${visibleEvents[i]!.id}`, { revision: visibleEvents[i]!.revision, record: json });
  });
  for (const venue of shown('venue', venues)) rendered.set(`venue:${venue.id}`, { revision: venue.revision, record: linkedPost(call, 'venue', venue) });
  for (const organizer of shown('organizer', organizers)) rendered.set(`organizer:${organizer.id}`, { revision: organizer.revision, record: linkedPost(call, 'organizer', organizer) });
  for (const [taxonomy, terms] of [['category', categories], ['tag', tags]] as const) {
    const counts = terms.length ? await s.events.countByTerm(taxonomy, terms.map((t) => t.id), ['publish']) : new Map<number, number>();
    for (const term of terms) {
      rendered.set(`${taxonomy}:${term.id}`, { revision: term.revision, record: termJson(call.links, taxonomy, term as TermRecord, counts.get(term.id) ?? 0) });
    }
  }
  const out: Array<ChangedRecordJson | TombstoneJson> = [];
  for (const g of ordered) {
    const now = rendered.get(`${g.kind}:${g.id}`);
    const occurrences = g.occurrences && changedOccurrences(g.occurrences, rendered, g.seenByCaller);
    const extra = occurrences ? { occurrences } : {};
    if (now) out.push({ type: g.kind, id: g.id, deleted: false, revision: now.revision, record: now.record, ...extra });
    else if (g.seenByCaller) out.push({ type: g.kind, id: g.id, deleted: true, ...extra });
  }
  return out;
}

/**
 * The occurrences a series' changes affected, for the caller: those it sees as they are now,
 * and the others to remove (only when it could see the series: it never learns of a draft's).
 * The log folds only occurrences seen as their series is (occurrence-folding.ts), so the
 * series' visibility decides for them too.
 */
function changedOccurrences(ids: ReadonlySet<number>, rendered: ReadonlyMap<string, { record: ChangedRecordJson['record'] }>, seenByCaller: boolean): ChangedOccurrencesJson {
  const sorted = [...ids].sort((a, b) => a - b);
  return {
    records: sorted.flatMap((id) => {
      const now = rendered.get(`event:${id}`);
      return now ? [now.record as EventJson] : [];
    }),
    deleted: seenByCaller ? sorted.filter((id) => !rendered.has(`event:${id}`)) : [],
  };
}

/**
 * The first entries whose changes, with the occurrences of series, add up to at most
 * `perPage` (each entry counts one, and one more for each occurrence it names); at least one.
 */
function withinBudget(entries: readonly ChangeEntry[], perPage: number): ChangeEntry[] {
  const out: ChangeEntry[] = [];
  let used = 0;
  for (const e of entries) {
    used += 1 + occurrenceIds(e).length;
    if (out.length > 0 && used > perPage) break;
    out.push(e);
    if (used >= perPage) break;
  }
  return out;
}

function occurrenceIds(e: ChangeEntry): readonly number[] {
  const o = e.occurrences;
  return o ? [...o.created, ...o.updated, ...o.trashed, ...o.deleted] : [];
}

/**
 * Whether the caller sees a record in a given state in its lists (the default statuses a list
 * gives it, its own posts included): every category and tag; posts by status and author, never
 * in the trash.
 */
function visibleTo(call: Call): (kind: ChangeKind, state: PostState | null) => boolean {
  const policies = new Map<PostKind, ReturnType<typeof visibility>>();
  return (kind, state) => {
    if (kind === 'category' || kind === 'tag') return true;
    if (!state || state.status === 'trash') return false;
    let policy = policies.get(kind);
    if (!policy) policies.set(kind, (policy = visibility(call.permissions, kind, undefined)));
    return statusMatches(state, policy);
  };
}

function linkedPost(call: Call, kind: 'venue' | 'organizer', post: VenueRecord | OrganizerRecord) {
  const body = kind === 'venue' ? venueJson(call.links, post as VenueRecord) : organizerJson(call.links, post as OrganizerRecord);
  return isUnlocked(call, kind, post, {}) ? body : redactProtected(body);
}

function invalidToken(): CalendarError {
  return new CalendarError('sync_token_invalid', msg('The sync token was not issued by this calendar: list every collection again, then follow the changes from a new token.'));
}
