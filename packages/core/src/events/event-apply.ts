// Applying the values of an event write to a record (behaviour reference: "Event create",
// "Linking venues and organizers from an event", "End before start", "Explicitly empty
// links"): dates, cost, links and terms resolved, statuses scheduled. The writes of single
// events (event-write.ts), of series and occurrences (series-write.ts), and the imports of
// datasets and ICS files all apply their values here.
import { msg } from '../domain/messages';
import { invalidParam } from '../domain/errors';
import { parseArgs, type ArgValues } from '../kernel/args';
import { parseCostInput } from '../domain/cost';
import type { EventRecord } from '../model/records';
import type { LinkedPostKind } from '../query/linked-post-engine';
import { eventWallClock, utcWallClock } from '../time/interpret';
import { endOfDay, formatWall, parseWall, startOfDay } from '../time/wall-clock';
import { resolveZone, wallToInstant, zoneAbbreviation } from '../time/zone';
import { requirePermission, type WriteCall } from '../kernel/call';
import { eventWriteArgs } from './event-args';
import type { LinkedValue } from './event-links';
import { linkedPostWriteArgs } from '../linked-posts/linked-post-args';
import { createOrReuse } from '../linked-posts/linked-posts';
import { explicitDates } from '../shared/post-access';
import { publishDates, resolveSlug, scaleBackStatus, scheduleStatus, stamps } from '../shared/post-write';
import { resolveImage } from '../shared/shared-args';
import { resolveTermsForWrite } from '../terms/term-refs';

/** The parsed values of an event write. */
export type EventWriteValues = ArgValues<ReturnType<typeof eventWriteArgs>>;
export type EventWriteMode = 'create' | 'replace' | 'patch';

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
  // in the second pass of a repeated hour (series-occurrences.ts) is not read back as the first.
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
