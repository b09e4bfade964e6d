// iCalendar feeds of events: `GET /events.ics` takes the arguments of `GET /events` and sees
// what that list would show (the same query, permissions, visibility and redaction), but
// carries every matching event up to a cap instead of one page, walking the storage page by
// page so memory stays flat. A feed is prepared first (arguments checked, the storage query
// built) and opened later, so that a validator (ETag) can be computed from the query before
// anything is rendered.
import { english, msg, type Message } from '../domain/messages';
import { parseArgs, type WireArgs } from '../kernel/args';
import type { EventRecord, OrganizerRecord, TermRecord, VenueRecord } from '../model/records';
import type { EventQuery, Page } from '../query/query-types';
import { createFeedWriter, eventUid, type FeedEventContent, type FeedWriter, type SeriesSet } from './feed-writer';
import { POST_STATUSES } from '../model/records';
import { statusMatches } from '../query/event-engine';
import { expandRule } from '../recurrence/expand';
import { formatWall, parseWall } from '../time/wall-clock';
import { instantToWall, resolveZone, wallToInstant } from '../time/zone';
import { postUrl } from '../represent/links';
import type { Call } from '../kernel/call';
import { EVENT_ARGS } from '../events/event-args';
import { assertReadable, buildQuery, findEventOrFail } from '../events/event-read';
import { isUnlocked, type Unlock } from '../shared/post-access';

type Input = WireArgs;

export interface FeedOptions {
  /** Turns the feed's texts (the calendar's name) into the caller's language. @default English */
  readonly translate?: (message: Message) => string;
}

/** A feed whose arguments were checked, ready to be opened. */
export interface EventFeed {
  /** The storage query of the feed's events (as `GET /events` builds it), without paging. */
  readonly query: EventQuery;
  /**
   * Everything the feed's bytes depend on besides the stored records and the language: the
   * query, what unlocks protected events, the caller, the addresses and the feed options. A
   * validator is this with the storage's change counter (read before the feed was prepared).
   */
  readonly key: unknown;
  /** The most events the feed carries. */
  readonly maxEvents: number;
  /** Counts the matching events and starts the feed. */
  open(): Promise<OpenedFeed>;
}

export interface OpenedFeed {
  /** Events matching the query. */
  readonly total: number;
  /** Events in the feed: the total, or the cap when it was cut. */
  readonly count: number;
  /** Whether more events matched than the feed carries. */
  readonly truncated: boolean;
  /** The iCalendar text, a page of events per chunk; read it once. */
  readonly body: AsyncIterable<string>;
}

/** `GET /events.ics`: the events `GET /events` would list with the same arguments, on every page. */
export async function eventFeed(call: Call, input: Input, options: FeedOptions = {}): Promise<EventFeed> {
  const { values, sent } = await parseArgs(EVENT_ARGS.feed, input, call.args);
  const { query } = await buildQuery(call, values, sent, 1, 1);
  const { limit: _limit, offset: _offset, ...unpaged } = query;
  return feedOf(call, 'events', unpaged, { password: values.password, context: values.context }, call.config.ical.maxEvents, options);
}

/** `GET /events/{id}.ics` and `/events/by-slug/{slug}.ics`: one event, with the checks of a single read. */
export async function singleEventFeed(call: Call, input: Input, by: 'id' | 'slug', options: FeedOptions = {}): Promise<EventFeed> {
  const { values } = await parseArgs(by === 'id' ? EVENT_ARGS.get : EVENT_ARGS.getBySlug, input, call.args);
  const { id = 0, slug = '' }: { id?: number; slug?: string } = values;
  const event = by === 'id' ? await findEventOrFail(call, id) : (await call.storage.events.getBySlug(slug))!;
  const unlock = { password: values.password, context: values.context };
  assertReadable(call, event, unlock);
  const query: EventQuery = { records: event.occurrence ? 'listed' : 'stored', statuses: [event.status], excludeHidden: false, ids: [event.id], sort: [{ field: 'id', direction: 'asc' }] };
  return feedOf(call, 'event', query, unlock, 1, options);
}

// ---- helpers ----

/** Events read from storage at a time. */
const PAGE_SIZE = 250;

function feedOf(call: Call, kind: 'events' | 'event', query: EventQuery, unlock: Unlock, maxEvents: number, options: FeedOptions): EventFeed {
  return {
    query,
    key: [`${kind}.ics`, query, unlock, maxEvents, call.config.ical, call.links, call.principal?.id ?? 0, call.principal?.role ?? ''],
    maxEvents,
    async open() {
      const first = await call.storage.events.list({ ...query, limit: Math.min(PAGE_SIZE, maxEvents), offset: 0 });
      const count = Math.min(first.total, maxEvents);
      return { total: first.total, count, truncated: first.total > maxEvents, body: render(call, kind, query, unlock, first, count, options) };
    },
  };
}

async function* render(call: Call, kind: 'events' | 'event', query: EventQuery, unlock: Unlock, first: Page<EventRecord>, count: number, options: FeedOptions): AsyncGenerator<string> {
  const { config, links } = call;
  const host = hostOf(links.siteUrl);
  const name = (options.translate ?? english)(msg('Events of {calendar}', { calendar: config.ical.name ?? host }));
  // No X-WR-TIMEZONE: evcal writes no floating time for it to apply to, and recurring-ical-events
  // 2.0 moves UTC times in that zone's repeated hour by an hour through it (docs/icalendar.md).
  const writer = createFeedWriter({ name, refreshMinutes: config.ical.refreshMinutes });
  yield writer.header();
  // Pages are read by offset: an event written meanwhile may shift one into the next page twice.
  const seen = new Set<number>();
  const state: FeedState = { written: new Set(), query, alone: kind === 'event' };
  let page = first;
  let offset = 0;
  for (;;) {
    const events = page.items.slice(0, count - offset).filter((e) => !seen.has(e.id));
    for (const e of events) seen.add(e.id);
    if (events.length) yield await renderPage(call, writer, events, unlock, host, state);
    offset += page.items.length;
    if (offset >= count || page.items.length === 0) break;
    page = await call.storage.events.list({ ...query, limit: Math.min(PAGE_SIZE, count - offset), offset });
  }
  yield writer.footer();
}

/**
 * A page of VEVENTs, with what the caller may see of each (as the JSON list shows it). The
 * occurrences of a series are written with the series, once per feed (ical/series-form.ts:
 * its rule, calendar apps expand it, and its other occurrences); an occurrence read alone is
 * written alone, with its series' UID and its RECURRENCE-ID.
 */
async function renderPage(call: Call, writer: FeedWriter, events: readonly EventRecord[], unlock: Unlock, host: string, state: FeedState): Promise<string> {
  const series = await seriesOfPage(call, events, state);
  const all = [...events, ...series.flatMap((s) => [s.series, ...s.occurrences])];
  const related = await loadRelated(call, all);
  const shown = <T extends VenueRecord | OrganizerRecord>(kind: 'venue' | 'organizer', ids: readonly number[], from: ReadonlyMap<number, T>) =>
    ids.map((id) => from.get(id)).find((post): post is T => post !== undefined && call.permissions.canRead(kind, post) && isUnlocked(call, kind, post, unlock));
  const form = call.config.ical.uid;
  const content = (event: EventRecord): FeedEventContent => {
    const open = isUnlocked(call, 'event', event, unlock);
    const venue = open ? shown('venue', event.venueIds, related.venues) : undefined;
    const organizer = open ? shown('organizer', event.organizerIds, related.organizers) : undefined;
    return {
      uid: eventUid(event, host, form),
      url: postUrl(call.links, 'event', event),
      description: open,
      ...(venue ? { venue } : {}),
      ...(organizer ? { organizer } : {}),
      categories: open ? event.categoryIds.flatMap((id) => related.categories.get(id)?.name ?? []) : [],
    };
  };
  const bySeries = new Map(series.map((s) => [s.series.id, s]));
  return events.map((event) => {
    if (!event.occurrence && !event.recurrence) return writer.event(event, content(event));
    const id = event.recurrence ? event.id : event.parentId;
    const group = bySeries.get(id);
    if (!group || state.written.has(id)) return '';
    state.written.add(id);
    const set = seriesSet(group, content, state.query);
    return state.alone && event.occurrence
      ? writer.occurrence(group.series, content(group.series), set, { event, content: content(event) })
      : writer.series(group.series, content(group.series), set);
  }).join('');
}

/** What a feed remembers across its pages: the series written, and the query (what the caller sees). */
interface FeedState {
  readonly written: Set<number>;
  readonly query: EventQuery;
  /** The feed of one event (`/events/{id}.ics`): an occurrence is written alone. */
  readonly alone: boolean;
}

interface SeriesGroup {
  readonly series: EventRecord;
  readonly occurrences: readonly EventRecord[];
}

/** The series (with every occurrence) of the occurrences on a page that the feed has not written yet. */
async function seriesOfPage(call: Call, events: readonly EventRecord[], state: FeedState): Promise<SeriesGroup[]> {
  const ids = [...new Set(events.flatMap((e) => (e.recurrence ? [e.id] : e.occurrence ? [e.parentId] : [])))].filter((id) => !state.written.has(id));
  if (ids.length === 0) return [];
  const series = [...events.filter((e) => e.recurrence && ids.includes(e.id)), ...(await call.storage.events.getMany(ids.filter((id) => !events.some((e) => e.id === id)))).filter((s) => s.recurrence)];
  return Promise.all(series.map(async (s) => ({ series: s, occurrences: (await call.storage.events.list({
    records: 'listed', statuses: POST_STATUSES, excludeHidden: false, parentId: s.id, sort: [{ field: 'id', direction: 'asc' }],
  })).items.filter((o) => o.occurrence) })));
}

/**
 * What the feed writer needs of a series: its rule's starts (stored ones, and on to its last
 * EXDATE), which of them apps must not show (the caller does not see them: trashed, of a status
 * the caller may not read, hidden, excluded), and the occurrences the caller sees.
 */
function seriesSet(group: SeriesGroup, content: (e: EventRecord) => FeedEventContent, query: EventQuery): SeriesSet {
  const { series, occurrences } = group;
  const rec = series.recurrence!;
  const zone = resolveZone(series.timezone)!;
  const seen = (o: EventRecord) => statusMatches(o, query) && !(query.excludeHidden && o.hideFromListings);
  const shown = occurrences.filter(seen).map((event) => ({ event, content: content(event) }));
  if (rec.rrule === '') return { rule: [], excluded: new Set(), shown };
  const instant = (wall: string) => wallToInstant(parseWall(wall.length === 10 ? `${wall} 23:59:59` : wall)!, zone);
  const stored = Math.max(...occurrences.map((o) => instant(o.occurrence!.originalStart)));
  const rule = expandRule(parseWall(series.startLocal)!, zone, rec.rrule, Math.max(stored, ...rec.exdate.map(instant)));
  const seenDates = new Set(shown.map((o) => o.event.occurrence!.date));
  const exdates = new Set(rec.exdate);
  // Past the last stored occurrence, the rule's starts are the series' but for its EXDATEs.
  const excluded = new Set(rule.filter((s) => (s.startUtc <= stored
    ? !seenDates.has(s.date)
    : exdates.has(s.date) || exdates.has(s.wall) || exdates.has(formatWall(instantToWall(s.startUtc, zone))))).map((s) => s.date));
  return { rule, excluded, shown };
}

/** The venues, organizers and categories a page of events names, in three storage calls. */
async function loadRelated(call: Call, events: readonly EventRecord[]) {
  const ids = (pick: (e: EventRecord) => readonly number[]) => [...new Set(events.flatMap(pick))];
  const [venues, organizers, categories] = await Promise.all([
    load(ids((e) => e.venueIds), (list) => call.storage.venues.getMany(list)),
    load(ids((e) => e.organizerIds), (list) => call.storage.organizers.getMany(list)),
    load(ids((e) => e.categoryIds), (list) => call.storage.categories.getMany(list)),
  ]);
  return { venues, organizers, categories };
}

async function load<T extends VenueRecord | OrganizerRecord | TermRecord>(ids: number[], get: (ids: number[]) => Promise<readonly T[]>): Promise<Map<number, T>> {
  return new Map(ids.length ? (await get(ids)).map((r) => [r.id, r]) : []);
}

/** The host of the site's home URL, for UIDs. */
function hostOf(siteUrl: string): string {
  try {
    return new URL(siteUrl).hostname || siteUrl;
  } catch {
    return siteUrl;
  }
}
