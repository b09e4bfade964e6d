// Renders events with their venues, organizers and terms, loading what a page embeds in a
// constant number of storage calls (no per-event queries).
import type { EventRecord } from '../model/records';
import type { CountedTerm } from '../query/query-types';
import { eventJson, relatedIds, type EventJson, type Related } from '../represent/event-json';
import type { ArgMemo, MemoRecords } from '../kernel/args';
import type { Call } from '../kernel/call';
import { isUnlocked, type Unlock } from '../shared/post-access';
import { eventValidator } from '../kernel/validators';
import { parsedLazily, represented, type Representation } from '../kernel/representation';

export async function loadRelated(call: Call, events: readonly EventRecord[]): Promise<Related> {
  const ids = relatedIds(events);
  const { storage } = call;
  const memo = call.args.memo;
  const [venues, organizers, categories, tags, categoryCounts, tagCounts] = await Promise.all([
    recalled(memo, 'venue', ids.venues, (missing) => storage.venues.getMany(missing)),
    recalled(memo, 'organizer', ids.organizers, (missing) => storage.organizers.getMany(missing)),
    recalled(memo, 'category', ids.categories, (missing) => storage.categories.getMany(missing)),
    recalled(memo, 'tag', ids.tags, (missing) => storage.tags.getMany(missing)),
    ids.categories.length ? storage.events.countByTerm('category', ids.categories, ['publish']) : new Map<number, number>(),
    ids.tags.length ? storage.events.countByTerm('tag', ids.tags, ['publish']) : new Map<number, number>(),
  ]);
  const counted = (terms: typeof categories, counts: ReadonlyMap<number, number>) =>
    new Map(terms.map((term): [number, CountedTerm<typeof term>] => [term.id, { term, count: counts.get(term.id) ?? 0 }]));
  return {
    venues: new Map(venues.map((v) => [v.id, v])),
    organizers: new Map(organizers.map((o) => [o.id, o])),
    categories: counted(categories, categoryCounts),
    tags: counted(tags, tagCounts),
  };
}

async function recalled<K extends keyof MemoRecords, R extends MemoRecords[K]>(
  memo: ArgMemo, kind: K, ids: readonly number[], read: (ids: number[]) => Promise<readonly R[]>,
): Promise<readonly MemoRecords[K][]> {
  const kept: Map<number, MemoRecords[K]> = memo.records[kind];
  if (ids.length === 0) return [];
  const found: MemoRecords[K][] = [];
  const missing: number[] = [];
  for (const id of ids) {
    const r = kept.get(id);
    if (r) found.push(r);
    else missing.push(id);
  }
  return missing.length ? [...found, ...(await read(missing))] : found;
}

export interface RenderOptions extends Unlock {
  /** Single GET: add `json_ld`. */
  readonly jsonLd?: boolean;
  /** Single GET: embedded venues and organizers carry their `json_ld`. */
  readonly single?: boolean;
}

/** Renders a page of events (lists). */
export async function renderEvents(call: Call, events: readonly EventRecord[], options: RenderOptions = {}): Promise<EventJson[]> {
  const related = await loadRelated(call, events);
  return events.map((event) => renderWith(call, event, related, options));
}

/**
 * A page of events as JSON texts (UTF-8), each rendered once per state and view (render-cache.ts):
 * the key is the event's validator, the addresses, and what this caller may see of it and of
 * what it embeds, which is everything its bytes depend on besides the calendar's settings.
 */
export async function renderEventsJson(call: Call, events: readonly EventRecord[], options: RenderOptions = {}): Promise<Uint8Array[]> {
  const related = await loadRelated(call, events);
  return events.map((event) => cachedJson(call, event, related, options, eventValidator(event, related)));
}

/** An event's JSON text from the render cache, rendered when it holds none for this state and view. */
function cachedJson(call: Call, event: EventRecord, related: Related, options: RenderOptions, validator: string): Uint8Array {
  const view = `${options.single ? 's' : 'l'}${options.jsonLd ? 'j' : ''} ${call.links.siteUrl} ${call.links.apiRoot}`;
  return call.config.renderCache.json(`${view} ${validator} ${seenBy(call, event, related, options)}`, () => renderWith(call, event, related, options));
}

/**
 * A single read of an event: its text rendered once per state and view (render-cache.ts), as
 * the representation's `bytes`, which a binding sends as they are; the value is parsed from
 * them only when asked for, which costs a fraction of rendering the event again.
 */
export async function readEvent(call: Call, event: EventRecord, options: RenderOptions): Promise<Representation<EventJson>> {
  if (!call.config.renderCache.keeps) return renderEvent(call, event, options);
  const related = await loadRelated(call, [event]);
  const validator = eventValidator(event, related);
  return parsedLazily(cachedJson(call, event, related, options, validator), validator);
}

/** Renders one event (single reads, and the answers of writes), with its validator. */
export async function renderEvent(call: Call, event: EventRecord, options: RenderOptions = {}, loaded?: Related): Promise<Representation<EventJson>> {
  const related = loaded ?? await loadRelated(call, [event]);
  return represented(renderWith(call, event, related, options), eventValidator(event, related));
}

/** What this caller sees of an event and its venues and organizers: shown in full, redacted, or left out. */
function seenBy(call: Call, event: EventRecord, related: Related, options: RenderOptions): string {
  let facts = event.password === '' || isUnlocked(call, 'event', event, options) ? 'u' : 'r';
  for (const [kind, ids, posts] of [['venue', event.venueIds, related.venues], ['organizer', event.organizerIds, related.organizers]] as const) {
    for (const id of ids) {
      const post = posts.get(id);
      facts += !post || !call.permissions.canRead(kind, post) ? '-' : post.password === '' || isUnlocked(call, kind, post, options) ? 'u' : 'r';
    }
  }
  return facts;
}

function renderWith(call: Call, event: EventRecord, related: Related, options: RenderOptions): EventJson {
  const tickets = call.config.tickets;
  return eventJson(event, {
    links: call.links,
    related,
    currency: call.config.currency,
    unlocked: (kind, post) => isUnlocked(call, kind, post, options),
    visible: (kind, post) => call.permissions.canRead(kind, post),
    ...(tickets ? { ticketed: (e: EventRecord) => e.ticketed ?? false } : {}),
    ...(options.jsonLd ? { jsonLd: true } : {}),
    ...(options.single ? { embeddedJsonLd: true } : {}),
  });
}
