// Arguments of the event routes (interface.md; behaviour reference: "GET /events", "Events, single
// GET", "Event create", "Event update").
import { msg, type Message } from '../domain/messages';
import { INVALID_PARAMETER } from '../domain/errors';
import * as v from 'valibot';
import { arg, type ArgContext, type ArgSpecs } from '../kernel/args';
import {
  anyString, degrees, idList, isNumericText, nonEmptyString, NOT_OF_TYPE, oneOf, strictDates, toPositiveInt, termRefList, timeValue, urlOrEmpty, withRule,
  wpBoolean, zoneOrEmpty,
} from '../kernel/wire-schemas';
import { eventIdArg } from '../shared/event-ref-args';
import { recurrenceArg } from './recurrence-args';
import { linkedValueSchema, validateLinkedValue } from './event-links';
import {
  authorArg, contextArg, dateArg, imageArg, modifiedArgs, pageArg, passwordArg, perPageArg, writeStatusArg,
} from '../shared/shared-args';
import { statusFilterArg } from '../shared/status-filter';
import { termFilterValidator } from '../terms/term-refs';

const flag = (description: string) => arg({ schema: wpBoolean, description, type: 'boolean' });

/** Every id must name a venue (organizer) the caller may read: lists never confirm a hidden one exists. */
function readableIds(kind: 'venue' | 'organizer') {
  return async (ids: readonly number[], ctx: ArgContext): Promise<Message | undefined> => {
    const found = await (kind === 'venue' ? ctx.storage.venues : ctx.storage.organizers).getMany(ids);
    const readable = found.filter((post) => ctx.permissions.canRead(kind, post));
    return readable.length === new Set(ids).size ? undefined : INVALID_PARAMETER;
  };
}

/** `GET /events`. */
export const eventListArgs = {
  page: pageArg,
  per_page: perPageArg,
  start_date: arg({ schema: timeValue, description: 'Limit events to those starting on or after the specified date' }),
  end_date: arg({ schema: timeValue, description: 'Limit events to those ending on or before the specified date' }),
  search: arg({ schema: nonEmptyString, description: 'Events that contain every word in their title, description or excerpt', type: 'string' }),
  categories: arg({
    schema: termRefList,
    description: 'Events in any of these categories (or their children), by id or slug, as a list or CSV',
    validate: termFilterValidator('category'),
  }),
  tags: arg({ schema: termRefList, description: 'Events with any of these tags, by id or slug, as a list or CSV', validate: termFilterValidator('tag') }),
  venue: arg({ schema: idList, description: 'Events at any of these venue ids, as a list or CSV', validate: readableIds('venue') }),
  organizer: arg({ schema: idList, description: 'Events with any of these organizer ids, as a list or CSV', validate: readableIds('organizer') }),
  featured: flag('Only featured (true) or only not featured (false) events'),
  status: statusFilterArg('event'),
  geoloc: flag('Only events whose venue has coordinates'),
  geoloc_lat: arg({ schema: degrees(90), description: 'Latitude of the point events must be near (with geoloc_lng)', type: 'number' }),
  geoloc_lng: arg({ schema: degrees(180), description: 'Longitude of the point events must be near (with geoloc_lat)', type: 'number' }),
  include: arg({ schema: idList, description: 'Only the events with these ids, as a list or CSV' }),
  post_parent: arg({ ...eventIdArg, description: 'Only the events whose parent is this event' }),
  ticketed: arg({
    schema: wpBoolean,
    description: 'Only events with (true) or without (false) tickets',
    type: 'boolean',
    validate: (on, ctx) => (on && !ctx.config.tickets
      ? { message: msg('Event Tickets plugin is not activated.'), code: 'event-tickets-not-active' }
      : undefined),
  }),
  starts_before: arg({ schema: timeValue, description: 'Events starting before this date' }),
  starts_after: arg({ schema: timeValue, description: 'Events starting after this date' }),
  ends_before: arg({ schema: timeValue, description: 'Events ending before this date' }),
  ends_after: arg({ schema: timeValue, description: 'Events ending after this date' }),
  strict_dates: arg({ schema: strictDates, default: 'false', description: 'Apply date bounds at the given times instead of whole days' }),
  ...modifiedArgs,
  password: passwordArg,
  context: contextArg,
} satisfies ArgSpecs;

/**
 * Create (title and dates required, `all_day` defaulting to false), replace (POST and PUT on
 * an existing event: nothing required, `all_day` defaulting to false) or patch (nothing
 * required, no defaults).
 */
export function eventWriteArgs(mode: 'create' | 'replace' | 'patch') {
  return {
    title: arg({ schema: nonEmptyString, required: mode === 'create', description: 'The event title', type: 'string' }),
    start_date: arg({ schema: timeValue, required: mode === 'create', description: 'The event start date and time' }),
    end_date: arg({ schema: timeValue, required: mode === 'create', description: 'The event end date and time' }),
    author: authorArg,
    date: dateArg('The event publication date'),
    date_utc: dateArg('The event publication date in UTC'),
    description: arg({ schema: anyString, description: 'The event description', type: 'string' }),
    slug: arg({ schema: nonEmptyString, description: 'The event slug', type: 'string' }),
    excerpt: arg({ schema: anyString, description: 'The event excerpt', type: 'string' }),
    status: writeStatusArg,
    timezone: arg({ schema: zoneOrEmpty, description: 'The event time zone (IANA name or UTC offset)', type: 'string' }),
    all_day: arg({ schema: wpBoolean, ...(mode === 'patch' ? {} : { default: false }), description: 'Whether the event lasts all day', type: 'boolean' }),
    image: imageArg,
    cost: arg({
      schema: v.union([v.string(), v.number(), v.array(v.union([v.string(), v.number()]))]),
      description: 'The event cost: a string or a list of strings, with the currency symbol',
    }),
    website: arg({ schema: urlOrEmpty, description: 'The event website URL', type: 'string' }),
    show_map: flag('Whether the event shows a map'),
    show_map_link: flag('Whether the event shows a map link'),
    hide_from_listings: flag('Whether the event is hidden from the event lists'),
    sticky: flag('Whether the event is sticky in the calendar view'),
    featured: flag('Whether the event is featured'),
    categories: arg({ schema: termRefList, description: 'The event categories by id, slug or name; unknown names are created' }),
    tags: arg({ schema: termRefList, description: 'The event tags by id, slug or name; unknown names are created' }),
    venue: arg({
      schema: linkedValueSchema,
      description: 'The venue: an id, {"id": n}, or venue data to create one; empty unlinks on update',
      validate: validateLinkedValue('venue'),
    }),
    organizer: arg({
      schema: linkedValueSchema,
      description: 'The organizers: an id, a list of ids, {"id": n} or organizer data; empty unlinks on update',
      validate: validateLinkedValue('organizer'),
    }),
    recurrence: recurrenceArg,
  } satisfies ArgSpecs;
}

/** `scope` of a write to an occurrence: this one (the default), this and the following ones, or the whole series. */
export const scopeArg = arg({
  schema: oneOf(['this', 'following', 'all']),
  description: 'For an occurrence of a series: change (delete) this occurrence alone (this, the default), this and the following ones (following: the series is split), or the whole series (all)',
  type: 'string',
});

/** The path id of the single-event routes: any whole number (absent events, id 0 included, are 404 later). */
export const eventPathIdArg = arg({
  schema: withRule(v.pipe(
    v.union([
      v.pipe(v.number(), v.integer(), v.minValue(0)),
      v.pipe(v.string(), v.check(isNumericText, NOT_OF_TYPE), v.check((x) => /^\s*0+\s*$/.test(x) || toPositiveInt(x) !== undefined)),
    ]),
    v.transform(Number),
  ), msg('{param} must be a whole number of at least 0.')),
  required: true,
  description: 'The event ID',
  type: 'integer',
});

/** The path slug of the by-slug event routes: it must name an event (any status), else 400. */
export const eventSlugArg = arg({
  schema: nonEmptyString,
  required: true,
  description: 'The event slug',
  type: 'string',
  validate: async (slug, ctx) => ((await ctx.storage.events.getBySlug(slug)) ? undefined : INVALID_PARAMETER),
});

export const eventReadArgs = { password: passwordArg, context: contextArg } satisfies ArgSpecs;

/**
 * The arguments of an update route. On by-slug routes `slug` names the event (the path
 * parameter, validated to exist), so the event's own `slug` field is not settable there.
 */
function eventUpdateArgs(mode: 'replace' | 'patch', by: 'id' | 'slug') {
  const { slug, ...fields } = eventWriteArgs(mode);
  return by === 'id' ? { id: eventPathIdArg, password: passwordArg, slug, ...fields, scope: scopeArg } : { ...fields, slug: eventSlugArg, scope: scopeArg };
}

/**
 * The arguments of each event operation: what it parses, and what @evcal/http documents
 * (operation-declarations.ts). The feed of the list carries every page: no paging.
 */
export const EVENT_ARGS = {
  list: eventListArgs,
  feed: (({ page: _page, per_page: _perPage, ...rest }) => rest)(eventListArgs),
  create: eventWriteArgs('create'),
  get: { id: eventPathIdArg, ...eventReadArgs },
  getBySlug: { slug: eventSlugArg, ...eventReadArgs },
  update: eventUpdateArgs('replace', 'id'),
  updateBySlug: eventUpdateArgs('replace', 'slug'),
  patch: eventUpdateArgs('patch', 'id'),
  patchBySlug: eventUpdateArgs('patch', 'slug'),
  delete: { id: eventPathIdArg, scope: scopeArg },
  deleteBySlug: { slug: eventSlugArg, scope: scopeArg },
} as const satisfies Record<string, ArgSpecs>;
