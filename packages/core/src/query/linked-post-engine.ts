// The reference semantics of venue and organizer lists, as pure functions.
import type { EventRecord, LinkedPostRecord, OrganizerRecord, VenueRecord } from '../model/records';
import { modifiedIn, paginate, statusMatches } from './event-engine';
import type { LinkedEventCondition, LinkedPostQuery, LinkedPostSortKey, Page } from './query-types';
import { foldText, someTextHasEvery } from './text-match';

export type LinkedPostKind = 'venue' | 'organizer';

/** The fields a venue or organizer search looks in (behaviour reference: "Venue/organizer search"), folded. */
export function linkedPostSearchTexts(kind: LinkedPostKind, post: LinkedPostRecord): string[] {
  const common = [post.title, post.description, post.excerpt];
  const extra = kind === 'venue'
    ? venueFields(post as VenueRecord)
    : [(post as OrganizerRecord).phone, (post as OrganizerRecord).email, (post as OrganizerRecord).website];
  return [...common, ...extra].map(foldText);
}

/** The events linking a venue or organizer id. */
export type LinkedEventsOf = (kind: LinkedPostKind, id: number) => Iterable<EventRecord>;

export function matchesLinkedPostQuery(
  kind: LinkedPostKind, post: LinkedPostRecord, query: LinkedPostQuery, eventsOf: LinkedEventsOf,
): boolean {
  if (!statusMatches(post, query)) return false;
  if (query.ids && !query.ids.includes(post.id)) return false;
  if (query.search && !someTextHasEvery(query.search, linkedPostSearchTexts(kind, post))) return false;
  if (query.titleEquals !== undefined && foldText(post.title.trim()) !== query.titleEquals) return false;
  if (query.descriptionEquals !== undefined && foldText(post.description.trim()) !== query.descriptionEquals) return false;
  if (query.eventId !== undefined && !some(eventsOf(kind, post.id), (e) => e.id === query.eventId)) return false;
  if (query.hasEvents && hasMatchingEvent(eventsOf(kind, post.id), query.hasEvents) !== query.hasEvents.value) return false;
  if (query.withEvents && !hasMatchingEvent(eventsOf(kind, post.id), query.withEvents)) return false;
  if (query.modified && !modifiedIn(post.modifiedUtc, query.modified)) return false;
  return true;
}

export function compareLinkedPosts(a: LinkedPostRecord, b: LinkedPostRecord, sort: readonly LinkedPostSortKey[]): number {
  for (const key of sort) {
    const c = key.field === 'id' ? a.id - b.id : a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
    if (c !== 0) return key.direction === 'asc' ? c : -c;
  }
  return 0;
}

export function runLinkedPostQuery<R extends LinkedPostRecord>(
  kind: LinkedPostKind, posts: Iterable<R>, query: LinkedPostQuery, eventsOf: LinkedEventsOf,
): Page<R> {
  const matching: R[] = [];
  for (const p of posts) if (matchesLinkedPostQuery(kind, p, query, eventsOf)) matching.push(p);
  matching.sort((a, b) => compareLinkedPosts(a, b, query.sort));
  return { items: paginate(matching, query), total: matching.length };
}

/** Events grouped by the venue or organizer they link, for `eventsOf`. */
export function indexEventsByLink(events: Iterable<EventRecord>): LinkedEventsOf {
  const byVenue = new Map<number, EventRecord[]>();
  const byOrganizer = new Map<number, EventRecord[]>();
  const push = (map: Map<number, EventRecord[]>, id: number, e: EventRecord) => {
    const list = map.get(id);
    if (list) list.push(e);
    else map.set(id, [e]);
  };
  for (const e of events) {
    for (const id of e.venueIds) push(byVenue, id, e);
    for (const id of e.organizerIds) push(byOrganizer, id, e);
  }
  return (kind, id) => (kind === 'venue' ? byVenue : byOrganizer).get(id) ?? [];
}

// ---- helpers ----

function venueFields(v: VenueRecord): string[] {
  return [v.address, v.city, v.province, v.state, v.stateprovince, v.zip, v.phone];
}

function hasMatchingEvent(events: Iterable<EventRecord>, cond: LinkedEventCondition): boolean {
  return some(events, (e) => cond.eventStatuses.includes(e.status)
    && (cond.startingFrom === undefined || e.startUtc >= cond.startingFrom));
}

function some<T>(items: Iterable<T>, test: (item: T) => boolean): boolean {
  for (const item of items) if (test(item)) return true;
  return false;
}
