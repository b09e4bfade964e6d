// Arguments of the venue and organizer routes (interface.md; behaviour reference: "GET /venues and
// GET /organizers", "Venue and organizer create", "Venue and organizer update and delete").
import { INVALID_PARAMETER } from '../domain/errors';
import { arg, type ArgSpec } from '../kernel/args';
import { anyString, degrees, nonEmptyString, positiveInt, truthy, urlOrEmpty } from '../kernel/wire-schemas';
import type { LinkedPostKind } from '../query/linked-post-engine';
import {
  authorArg, contextArg, dateArg, imageArg, modifiedArgs, pageArg, passwordArg, perPageArg, writeStatusArg,
} from '../shared/shared-args';
import { eventIdArg } from '../shared/event-ref-args';
import { statusFilterArg } from '../shared/status-filter';

/** The text fields a venue or organizer stores besides its name and description. */
export const META_FIELDS = {
  venue: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'],
  organizer: ['phone', 'website', 'email'],
} as const satisfies Record<LinkedPostKind, readonly string[]>;

const text = (description: string) => arg({ schema: anyString, description, type: 'string' });
const latitude = degrees(90);
const longitude = degrees(180);

/** Create (name required) or update (nothing required) arguments of a venue or organizer. */
export function linkedPostWriteArgs(kind: 'venue', mode: 'create' | 'update'): VenueWriteArgs;
export function linkedPostWriteArgs(kind: 'organizer', mode: 'create' | 'update'): OrganizerWriteArgs;
export function linkedPostWriteArgs(kind: LinkedPostKind, mode: 'create' | 'update'): VenueWriteArgs | OrganizerWriteArgs;
export function linkedPostWriteArgs(kind: LinkedPostKind, mode: 'create' | 'update') {
  return kind === 'venue' ? venueWriteArgs(mode) : organizerWriteArgs(mode);
}

export type VenueWriteArgs = ReturnType<typeof venueWriteArgs>;
export type OrganizerWriteArgs = ReturnType<typeof organizerWriteArgs>;

/** The name of a venue or organizer: required to create one. */
function nameArg(kind: LinkedPostKind, mode: 'create' | 'update'): ArgSpec<string> {
  return arg({ schema: nonEmptyString, required: mode === 'create', description: kind === 'venue' ? 'The venue name' : 'The organizer name', type: 'string' });
}

function commonWriteArgs(kind: LinkedPostKind) {
  return {
    author: authorArg,
    date: dateArg('The publication date'),
    date_utc: dateArg('The publication date in UTC'),
    description: text(kind === 'venue' ? 'The venue description' : 'The organizer description'),
    status: writeStatusArg,
  };
}

function organizerWriteArgs(mode: 'create' | 'update') {
  return {
    organizer: nameArg('organizer', mode),
    ...commonWriteArgs('organizer'),
    phone: text('The organizer phone number'),
    website: arg({ schema: urlOrEmpty, description: 'The organizer website', type: 'string' }),
    email: text('The organizer e-mail address'),
    image: imageArg,
  };
}

function venueWriteArgs(mode: 'create' | 'update') {
  return {
    venue: nameArg('venue', mode),
    ...commonWriteArgs('venue'),
    show_map: arg({ schema: truthy, description: 'Whether events linked to the venue show a map' }),
    show_map_link: arg({ schema: truthy, description: 'Whether events linked to the venue show a map link' }),
    address: text('The venue address'),
    city: text('The venue city'),
    country: text('The venue country'),
    province: text('The venue province'),
    state: text('The venue state'),
    zip: text('The venue ZIP code'),
    phone: text('The venue phone number'),
    stateprovince: text('The venue state and province combined'),
    website: arg({ schema: urlOrEmpty, description: 'The venue website', type: 'string' }),
    image: imageArg,
    geo_lat: arg({ schema: latitude, description: 'The venue latitude, in decimal degrees', type: 'number' }),
    geo_lng: arg({ schema: longitude, description: 'The venue longitude, in decimal degrees', type: 'number' }),
  };
}

/** Arguments of `GET /venues` and `GET /organizers`. */
export function linkedPostListArgs(kind: LinkedPostKind) {
  return {
    page: pageArg,
    per_page: perPageArg,
    search: arg({ schema: nonEmptyString, description: 'Search in title, description and the custom fields', type: 'string' }),
    event: arg({ ...eventIdArg, description: `Only the ${kind}s linked to this event` }),
    has_events: arg({ schema: truthy, description: `Only the ${kind}s that have (or, when false, do not have) events` }),
    only_with_upcoming: arg({ schema: truthy, default: false, description: `Only the ${kind}s with upcoming events` }),
    status: statusFilterArg(kind),
    ...modifiedArgs,
    password: passwordArg,
    context: contextArg,
  };
}

/** The id of an existing venue or organizer (any status), or 400. */
export function linkedPostIdArg(kind: LinkedPostKind) {
  return arg({
    schema: positiveInt,
    required: true,
    description: `The ${kind} ID`,
    type: 'integer',
    validate: async (id, ctx) => ((await ctx.storage[`${kind}s`].get(id)) ? undefined : INVALID_PARAMETER),
  });
}

export function linkedPostSlugArg(kind: LinkedPostKind) {
  return arg({
    schema: nonEmptyString,
    required: true,
    description: `The ${kind} slug`,
    type: 'string',
    validate: async (slug, ctx) => ((await ctx.storage[`${kind}s`].getBySlug(slug)) ? undefined : INVALID_PARAMETER),
  });
}

export const readArgs = { password: passwordArg, context: contextArg };

function linkedPostArgSets<K extends LinkedPostKind>(kind: K) {
  const id = { id: linkedPostIdArg(kind) };
  const slug = { slug: linkedPostSlugArg(kind) };
  const update = linkedPostWriteArgs(kind, 'update');
  return {
    list: linkedPostListArgs(kind),
    create: linkedPostWriteArgs(kind, 'create'),
    get: { ...id, ...readArgs },
    getBySlug: { ...slug, ...readArgs },
    /** POST, PUT and PATCH take the same arguments (they differ in what an absent one means). */
    update: { ...id, ...update },
    updateBySlug: { ...slug, ...update },
    delete: id,
    deleteBySlug: slug,
  };
}

/** The arguments of each venue and organizer operation: what it parses, and what @evcal/http documents. */
export const LINKED_POST_ARGS = { venue: linkedPostArgSets('venue'), organizer: linkedPostArgSets('organizer') };
