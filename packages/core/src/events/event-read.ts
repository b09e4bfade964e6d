// Reading events: the list (behaviour reference: "GET /events") and single reads by id or slug
// ("Events, single GET").
import { msg } from '../domain/messages';
import { CalendarError } from '../domain/errors';
import { parseArgs, type ArgValues, type WireArgs } from '../kernel/args';
import type { EventRecord } from '../model/records';
import { eventSearchWords } from '../query/text-match';
import type { EventQuery, EventSortKey } from '../query/query-types';
import type { Call } from '../kernel/call';
import type { CalendarConfig } from '../kernel/context';
import { createPlanCache, type PlanCache } from '../kernel/plan-cache';
import { EVENT_ARGS, eventListArgs } from './event-args';
import { dateWindow, DATE_PARAMS } from './event-dates';
import { readEvent, renderEventsJson } from './event-render';
import { listKeys, listLinks, listResult, listViewKey, pageOffset, parseList, planWithCache, postListJson, readList, totalPages, type ListPlan, type ListResult } from '../kernel/list-urls';
import { isUnlocked } from '../shared/post-access';
import { queryReach } from './series-horizon';
import { modifiedRange, modifiedValidity } from '../shared/shared-args';
import { narrowed } from '../time/validity';
import { visibility } from '../shared/status-filter';
import { termFilterIds } from '../terms/term-refs';
import type { Representation } from '../kernel/representation';
import type { EventJson, EventListJson } from '../represent/schemas';

type Input = WireArgs;
type ListValues = ArgValues<typeof eventListArgs>;

/** `GET /events` of one calendar: its plans kept for lists asked again (plan-cache.ts). */
export function eventListPlanner(config: CalendarConfig): (call: Call, input: Input) => Promise<ListPlan<EventListJson>> {
  const plans: PlanCache<EventListPlan, ListResult<EventListJson>> = createPlanCache(config.listCache);
  return (call, input) => planEventList(call, input, plans);
}

interface EventListPlan {
  readonly values: ListValues;
  readonly built: Awaited<ReturnType<typeof buildQuery>>;
  readonly page: number;
  readonly perPage: number;
  readonly validator: string;
  /** What the list it reads is kept by (list-urls.ts `listKeys`). */
  readonly key: string;
}

/** `GET /events`: parsed, validated and normalised; read by `run`. */
async function planEventList(
  call: Call, input: Input, plans: PlanCache<EventListPlan, ListResult<EventListJson>>,
): Promise<ListPlan<EventListJson>> {
  const plan = () => planWithCache(call, plans, input, async (lastChange) => {
    const { values, sent, page, perPage } = await parseList(call, eventListArgs, input);
    const built = await buildQuery(call, values, sent, page, perPage);
    // Everything the list depends on besides the stored data, its dates resolved to instants.
    const { validator, key } = listKeys(lastChange, ['events', built.query, built.shown, values, listViewKey(call)]);
    return { plan: { values, built, page, perPage, validator, key }, validity: built.validity };
  });
  let p = await plan();
  // A list reaching past the recurrence horizon first stores the occurrences it would show (and is planned again).
  const reach = queryReach(p.plan.built.query);
  if (reach !== undefined && await call.config.horizon.reach(call, reach)) p = await plan();
  const { plan: planned, stable } = p;
  return { validator: planned.validator, ...(stable ? { stable } : {}), run: () => readList(plans, planned.key, () => listEvents(call, planned.values, planned.built, planned.page, planned.perPage, planned.validator)) };
}

async function listEvents(
  call: Call, values: ListValues, { query, shown, visible }: Awaited<ReturnType<typeof buildQuery>>, page: number, perPage: number, validator: string,
): Promise<ListResult<EventListJson>> {
  const result = await call.storage.events.list(query);
  if (result.items.length === 0 && page > 1) {
    throw new CalendarError('event_page_not_found', msg('The requested event archive page does not exist'));
  }
  const pages = totalPages(result.total, perPage);
  const links = listLinks(`${call.links.apiRoot}/events/`, [
    ['page', page], ['per_page', perPage], ['start_date', shown.start_date], ['end_date', shown.end_date],
    ['search', values.search], ['geoloc', values.geoloc ? 1 : undefined],
    ['geoloc_lat', values.geoloc_lat], ['geoloc_lng', values.geoloc_lng],
    ['status', visible.requested.join(',')], ['post_parent', values.post_parent], ['include', values.include?.join(',')],
    ['starts_before', shown.starts_before], ['starts_after', shown.starts_after],
    ['ends_before', shown.ends_before], ['ends_after', shown.ends_after],
    ['ticketed', values.ticketed === undefined ? undefined : values.ticketed ? 1 : 0],
    // Carried over unlike the reference, so following the links keeps the filters (docs/compatibility.md).
    ['categories', values.categories?.join(',')], ['tags', values.tags?.join(',')],
    ['strict_dates', values.strict_dates ? 'true' : undefined],
    ['venue', values.venue?.join(',')], ['organizer', values.organizer?.join(',')],
    ['featured', values.featured === undefined ? undefined : values.featured ? 1 : 0],
    ['modified_after', values.modified_after], ['modified_before', values.modified_before],
  ], page, page < pages, page > 1 && page - 1 <= pages);
  const events = await renderEventsJson(call, result.items, { password: values.password, context: values.context });
  return listResult<EventListJson>({ chunks: postListJson('events', events, links, result.total, pages) }, links, result.total, pages, validator);
}

/** `GET /events/{id}`. */
export async function getEvent(call: Call, input: Input): Promise<Representation<EventJson>> {
  const { values } = await parseArgs(EVENT_ARGS.get, input, call.args);
  const event = await findEventOrFail(call, values.id!);
  return readable(call, event, values);
}

/** `GET /events/by-slug/{slug}`. */
export async function getEventBySlug(call: Call, input: Input): Promise<Representation<EventJson>> {
  const { values } = await parseArgs(EVENT_ARGS.getBySlug, input, call.args);
  const event = (await call.storage.events.getBySlug(values.slug!))!;
  return readable(call, event, values);
}

/**
 * The event with this id: 404 when no post has it, 400 when it is a venue or organizer
 * (posts share one id sequence).
 */
export async function findEventOrFail(call: Call, id: number): Promise<EventRecord> {
  const event = id > 0 ? await call.storage.events.get(id) : undefined;
  if (event) return event;
  if (id > 0 && ((await call.storage.venues.get(id)) || (await call.storage.organizers.get(id)))) {
    throw new CalendarError('not_an_event', msg('The specified ID is not a valid event.'));
  }
  throw new CalendarError('event_not_found', msg('Event with ID {id} does not exist.', { id }), { details: { id } });
}

// ---- helpers ----

/** The checks of a single read, in the reference's order (trash, access, password). */
export function assertReadable(call: Call, event: EventRecord, unlock: { password?: string; context?: string }): void {
  if (event.status === 'trash') throw new CalendarError('event_trashed', msg('This event is no longer available'));
  if (!call.permissions.canRead('event', event)) throw new CalendarError('event_not_accessible', msg('The requested event is not accessible'));
  if (!isUnlocked(call, 'event', event, unlock)) {
    throw new CalendarError('event_password_protected', msg('The requested event is not accessible without a password'));
  }
}

async function readable(call: Call, event: EventRecord, unlock: { password?: string; context?: string }) {
  assertReadable(call, event, unlock);
  // JSON-LD is left out for protected events, and for unpublished ones read anonymously ("json_ld (single GET only)").
  const jsonLd = event.password === '' && (event.status === 'publish' || call.principal !== undefined);
  return readEvent(call, event, { ...unlock, jsonLd, single: true });
}

/** The storage query of a list request (also the events of its iCalendar feed). */
export async function buildQuery(call: Call, values: ListValues, sent: ReadonlySet<string>, page: number, perPage: number) {
  const site = call.config.zone;
  const include = values.include !== undefined;
  const window = dateWindow({
    values: Object.fromEntries(DATE_PARAMS.filter((p) => sent.has(p)).map((p) => [p, values[p]])),
    strict: values.strict_dates === true,
    include,
    site,
    now: call.now,
  });
  const near = values.geoloc_lat !== undefined && values.geoloc_lng !== undefined;
  const sort: EventSortKey[] = include
    ? [{ field: 'date', direction: 'asc' }, { field: 'id', direction: 'asc' }]
    : near
      ? [{ field: 'distance', direction: 'asc' }, { field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }]
      : [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }];
  const visible = visibility(call.permissions, 'event', values.status);
  const query: EventQuery = {
    records: 'listed',
    statuses: visible.statuses,
    ...(visible.ownedBy ? { ownedBy: visible.ownedBy } : {}),
    excludeHidden: true,
    ...(include ? { ids: values.include! } : {}),
    ...(window.start ? { start: window.start } : {}),
    ...(window.end ? { end: window.end } : {}),
    ...(values.search !== undefined ? { search: eventSearchWords(values.search) } : {}),
    ...(values.categories ? { categoryIds: termFilterIds(call.args, 'category') } : {}),
    ...(values.tags ? { tagIds: termFilterIds(call.args, 'tag') } : {}),
    ...(values.venue ? { venueIds: values.venue } : {}),
    ...(values.organizer ? { organizerIds: values.organizer } : {}),
    ...(values.featured !== undefined ? { featured: values.featured } : {}),
    ...(values.post_parent !== undefined ? { parentId: values.post_parent } : {}),
    ...(values.ticketed !== undefined && call.config.tickets ? { ticketed: values.ticketed } : {}),
    ...(near
      ? { geo: { kind: 'near' as const, lat: values.geoloc_lat!, lng: values.geoloc_lng!, radiusKm: call.config.geoRadiusKm } }
      : values.geoloc ? { geo: { kind: 'has-coordinates' as const } } : {}),
    ...modifiedRange(call, values),
    sort,
    limit: perPage,
    offset: pageOffset(page, perPage),
  };
  // How long the query reads the same as the clock moves: its dates' and `modified_*`'s.
  return { query, shown: window.shown, visible, validity: narrowed(window.validity, modifiedValidity(call, values)) };
}
