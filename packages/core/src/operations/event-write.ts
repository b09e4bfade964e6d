// Writing events (behaviour reference: "Event create" through "Event delete", "Linking venues and
// organizers from an event", "Organizers on a POST/PUT update" through "End before start",
// "Explicitly empty links"). POST and PUT on an existing event replace it as the reference does
// (omitted fields take their defaults); PATCH changes only the fields sent.
import { msg } from '../messages';
import { CalendarError, invalidParam } from '../errors';
import { parseArgs, type ArgValues } from '../input/args';
import { parseCostInput } from '../domain/cost';
import type { EventRecord, PostKind, PostRecord } from '../model/records';
import type { LinkedPostKind } from '../query/linked-post-engine';
import { eventWallClock, utcWallClock } from '../time/interpret';
import { endOfDay, formatWall, parseWall, startOfDay } from '../time/wall-clock';
import { resolveZone, wallToInstant, zoneAbbreviation } from '../time/zone';
import { requirePermission, type Call, type WriteCall } from './call';
import { EVENT_ARGS, eventWriteArgs } from './event-args';
import { deleteAnyEvent, insertEvent, updateAnyEvent } from './series-write';
import type { LinkedValue } from './event-links';
import { findEventOrFail } from './event-read';
import { loadRelated, renderEvent } from './event-render';
import { linkedPostWriteArgs } from './linked-post-args';
import { createOrReuse } from './linked-posts';
import { explicitDates } from './post-access';
import { publishDates, resolveSlug, scaleBackStatus, scheduleStatus, stamps } from './post-write';
import { resolveImage } from './shared-args';
import { resolveTermsForWrite } from './term-refs';
import { checkPreconditions, eventValidator, needsValidator, type Validated } from './validators';
import { runWrite } from './write';
import type { EventJson } from '../represent/schemas';

type Input = Readonly<Record<string, unknown>>;
/** The parsed values of an event write. */
export type EventWriteValues = ArgValues<ReturnType<typeof eventWriteArgs>>;
/** The parsed path parameter that names the event of an update or delete. */
type EventKey = { readonly id?: number; readonly slug?: string };
export type EventWriteMode = 'create' | 'replace' | 'patch';

export async function createEvent(call: Call, input: Input): Promise<Validated<EventJson>> {
  const { event, related } = await runWrite(call, async (c) => {
    const { values } = await parseArgs(EVENT_ARGS.create, input, c.args);
    requirePermission(c, c.permissions.can('edit_events'));
    const id = await c.storage.sequences.next('post');
    const created = await applyEventWrite(c, blankEvent(id, call.principal?.id ?? 0), values, 'create');
    return written(c, await insertEvent(c, created, values));
  });
  return renderEvent(call, event, {}, related);
}

/**
 * An event as written, with what its answer embeds, read in the write's transaction: the
 * venues, organizers and terms the write named were read by its validation already, so only
 * the term counts (which the write changed) are read here.
 */
async function written(c: WriteCall, event: EventRecord) {
  return { event, related: await loadRelated(c, [event]) };
}

/** POST/PUT (`replace`) or PATCH (`patch`) on `/events/{id}` or `/events/by-slug/{slug}`. */
export async function updateEvent(call: Call, input: Input, mode: 'replace' | 'patch', by: 'id' | 'slug'): Promise<Validated<EventJson>> {
  const { event, related } = await runWrite(call, async (c) => {
    const { values } = await parseArgs(EVENT_ARGS[mode === 'replace' ? (by === 'id' ? 'update' : 'updateBySlug') : (by === 'id' ? 'patch' : 'patchBySlug')], input, c.args);
    const current = await authorizeOnEvent(c, values, 'edit', by);
    await checkEventPreconditions(c, current);
    return written(c, await updateAnyEvent(c, current, values, mode));
  });
  return renderEvent(call, event, {}, related);
}

/** DELETE: moves the event to the trash; 410 when it already is there. */
export async function deleteEvent(call: Call, input: Input, by: 'id' | 'slug'): Promise<Validated<EventJson>> {
  const key: typeof EVENT_ARGS.delete | typeof EVENT_ARGS.deleteBySlug = by === 'id' ? EVENT_ARGS.delete : EVENT_ARGS.deleteBySlug;
  const trashed = await runWrite(call, async (c) => {
    const { values } = await parseArgs(key, input, c.args);
    const event = await authorizeOnEvent(c, values, 'delete', by);
    if (event.status === 'trash' && !(event.occurrence && values.scope !== undefined && values.scope !== 'this')) {
      throw new CalendarError('event_in_trash', msg('The event is already trashed'));
    }
    await checkEventPreconditions(c, event);
    return deleteAnyEvent(c, event, values);
  });
  return renderEvent(call, trashed);
}

/** Refuses the write unless the caller's preconditions hold for the event as it is now. */
async function checkEventPreconditions(c: WriteCall, event: EventRecord): Promise<void> {
  const related = needsValidator(c.preconditions) ? await loadRelated(c, [event]) : undefined;
  checkPreconditions(c.preconditions, () => eventValidator(event, related!));
}

/**
 * The permission check of an update or delete, then the event. The caller must be able to
 * edit (delete) the addressed post when it exists — by id or by slug alike (the reference
 * checks only the general capability on slug routes; docs/compatibility.md) — else hold the
 * general capability, so that a missing event can be answered with 404. On by-slug routes
 * `slug` names the event (a body `slug` wins over the path, as parameters do everywhere).
 */
async function authorizeOnEvent(call: Call, values: EventKey, verb: 'edit' | 'delete', by: 'id' | 'slug'): Promise<EventRecord> {
  const { storage, permissions } = call;
  let post: { kind: 'event'; record: EventRecord } | { kind: Exclude<PostKind, 'event'>; record: PostRecord } | undefined;
  const { id = 0, slug = '' } = values;
  if (by === 'slug') {
    post = { kind: 'event', record: (await storage.events.getBySlug(slug))! };
  } else if (id > 0) {
    const found = (await storage.events.get(id)) ?? undefined;
    const venue = found ? undefined : await storage.venues.get(id);
    const organizer = found || venue ? undefined : await storage.organizers.get(id);
    if (found) post = { kind: 'event', record: found };
    else if (venue) post = { kind: 'venue', record: venue };
    else if (organizer) post = { kind: 'organizer', record: organizer };
  }
  const allowed = post
    ? verb === 'edit' ? permissions.canEdit(post.kind, post.record) : permissions.canDelete(post.kind, post.record)
    : permissions.can(verb === 'edit' ? 'edit_events' : 'delete_events');
  requirePermission(call, allowed);
  if (post?.kind === 'event') return post.record;
  return findEventOrFail(call, id);
}

/** A new event before the create values are applied. */
export function blankEvent(id: number, authorId: number): EventRecord {
  return {
    id, authorId, status: 'draft', slug: '', password: '', title: '', description: '', excerpt: '',
    date: '', dateUtc: null, modified: '', modifiedUtc: '', image: null, revision: 0, parentId: 0,
    timezone: '', timezoneAbbr: '', allDay: false, startLocal: '', endLocal: '', startUtc: 0, endUtc: 0,
    cost: [], currencySymbol: '', currencyPosition: '', currencyCode: '', website: null,
    showMap: false, showMapLink: false, hideFromListings: false, sticky: false, featured: false, ticketed: null,
    categoryIds: [], tagIds: [], venueIds: [], organizerIds: [],
  };
}

/** The event after applying validated write values to `base` (a blank event when creating). */
export async function applyEventWrite(call: WriteCall, base: EventRecord, values: EventWriteValues, mode: EventWriteMode): Promise<EventRecord> {
  const has = (k: keyof EventWriteValues) => values[k] !== undefined;
  const keep = mode === 'patch';
  const site = call.config.zone;
  const now = stamps(call.now, site);

  // Zone: omitted or empty means the site zone, except on PATCH where omitted keeps it.
  const zoneName = has('timezone') && String(values.timezone).trim() !== ''
    ? String(values.timezone).trim()
    : keep && !has('timezone') ? base.timezone : call.config.timezone;
  const zone = resolveZone(zoneName)!;

  // Dates: a date not sent keeps the stored one (local wall clock, re-read in the new zone).
  const allDay = values.all_day ?? (keep ? base.allDay : false);
  let start = has('start_date') ? eventWallClock(values.start_date, zone, call.now) : parseWall(base.startLocal)!;
  let end = has('end_date') ? eventWallClock(values.end_date, zone, call.now) : parseWall(base.endLocal)!;
  if (allDay) {
    start = startOfDay(start);
    end = endOfDay(end);
  }
  // A time not sent keeps its instant where nothing it depends on changed: an occurrence's end
  // in the second pass of a repeated hour (recurrence/occurrences.ts) is not read back as the first.
  const kept = (param: 'start_date' | 'end_date') => mode !== 'create' && !has(param) && base.startLocal !== ''
    && zoneName === base.timezone && allDay === base.allDay;
  const startUtc = kept('start_date') ? base.startUtc : wallToInstant(start, zone);
  const endUtc = kept('end_date') ? base.endUtc : wallToInstant(end, zone);
  if (endUtc < startUtc) throw invalidParam('end_date', msg('The end date must not be before the start date.'));

  const requested = values.status;
  let status = keep && requested === undefined ? base.status : scaleBackStatus(call, requested);
  const explicit = explicitDates(
    has('date') ? formatWall(eventWallClock(values.date, zone, call.now)) : undefined,
    has('date_utc') ? utcWallClock(values.date_utc, resolveZone('UTC')!, call.now) : undefined,
    zone, site,
  );
  const dates = publishDates(mode === 'create' ? undefined : base, explicit, status, now);
  status = scheduleStatus(status, dates.dateUtc, call.now);

  const title = has('title') ? String(values.title).trim() : base.title;
  const slug = await resolveSlug({
    requested: values.slug, current: base.slug, title, id: base.id, status,
    taken: async (s) => {
      const other = await call.storage.events.getBySlug(s);
      return other !== undefined && other.id !== base.id;
    },
  });
  const flag = (value: boolean | undefined, current: boolean) => value ?? (keep ? current : false);
  const cost = has('cost')
    ? parseCostInput(Array.isArray(values.cost) ? values.cost.map(String) : String(values.cost))
    : keep ? { cost: base.cost, symbol: base.currencySymbol, position: base.currencyPosition } : { cost: [], symbol: '', position: '' as const };
  const image = values.image !== undefined
    ? (values.image === '' ? null : (await resolveImage(values.image, call.args)) ?? null)
    : keep ? base.image : null;

  const event: EventRecord = {
    ...base,
    authorId: values.author ?? base.authorId,
    status,
    slug,
    title,
    description: has('description') ? String(values.description) : base.description,
    excerpt: has('excerpt') ? String(values.excerpt) : base.excerpt,
    date: dates.date,
    dateUtc: dates.dateUtc,
    modified: now.local,
    modifiedUtc: now.utc,
    image,
    revision: call.storage.change,
    timezone: zoneName,
    timezoneAbbr: zoneAbbreviation(zone, startUtc),
    allDay,
    startLocal: formatWall(start),
    endLocal: formatWall(end),
    startUtc,
    endUtc,
    cost: cost.cost,
    currencySymbol: cost.symbol,
    currencyPosition: cost.position,
    website: has('website') ? String(values.website).trim() : keep || mode === 'create' ? base.website : '',
    showMap: flag(values.show_map, base.showMap),
    showMapLink: flag(values.show_map_link, base.showMapLink),
    hideFromListings: flag(values.hide_from_listings, base.hideFromListings),
    sticky: flag(values.sticky, base.sticky),
    featured: flag(values.featured, base.featured),
    categoryIds: values.categories ? await resolveTermsForWrite(call, 'category', values.categories) : base.categoryIds,
    tagIds: values.tags ? await resolveTermsForWrite(call, 'tag', values.tags) : base.tagIds,
    venueIds: values.venue ? await linkRefs(call, 'venue', values.venue) : base.venueIds,
    // An update through POST or PUT that omits organizers unlinks them (behaviour reference:
    // "Organizers on a POST/PUT update").
    organizerIds: values.organizer ? await linkRefs(call, 'organizer', values.organizer) : mode === 'replace' ? [] : base.organizerIds,
  };
  const tickets = call.config.tickets;
  return typeof tickets === 'function' ? { ...event, ticketed: tickets(event) } : event;
}

/** The ids a `venue`/`organizer` value links, creating inline records (duplicates reused). */
async function linkRefs(call: WriteCall, kind: LinkedPostKind, value: LinkedValue): Promise<number[]> {
  if (value.kind === 'empty') return [];
  const ids: number[] = [];
  for (const ref of value.refs) {
    let id: number;
    if ('id' in ref) id = ref.id;
    else {
      requirePermission(call, call.permissions.can(`edit_${kind}s`));
      const { values } = await parseArgs(linkedPostWriteArgs(kind, 'create'), ref.data, call.args);
      id = await createOrReuse(call, kind, values);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
