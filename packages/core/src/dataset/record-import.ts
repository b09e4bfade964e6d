// One record of a dataset into a stored record: the same validation and normalisation as the
// create routes, without permission checks. `importDataset` inserts what these build; the
// migration from a reference site (@evcal/migrate, through record-builder.ts) inserts or
// replaces it. Ids come from the caller, so both decide how an id is claimed.
import * as v from 'valibot';
import { verbatim } from '../domain/messages';
import type { Capability } from '../auth/capabilities';
import { DEFAULT_ROLES } from '../auth/capabilities';
import { CalendarError, isCalendarError } from '../domain/errors';
import { arg, parseArgs, type ArgSpecs } from '../kernel/args';
import { anyString, MAX_TERM_NAME, nonEmptyString, positiveInt, wpBoolean } from '../kernel/wire-schemas';
import {
  MAX_ID, POST_STATUSES, type EventRecord, type ImageRecord, type OrganizerRecord, type PostRecord, type Taxonomy, type TermRecord,
  type VenueRecord,
} from '../model/records';
import { sanitizeSlug } from '../domain/slug';
import { ZERO_DATE } from '../represent/post-dates';
import { formatUtc, parseWall } from '../time/wall-clock';
import type { Call, WriteCall } from '../kernel/call';
import { eventWriteArgs } from '../events/event-args';
import { applyEventWrite, blankEvent } from '../events/event-apply';
import { linkedPostWriteArgs } from '../linked-posts/linked-post-args';
import { newLinkedPost } from '../linked-posts/linked-posts';
import { isUnpublishedStatus } from '../shared/post-write';
import { termCollection } from '../terms/term-refs';

/** The id a record gets, from the id it asks for (undefined: none). */
export type ClaimId = (requested: number | undefined) => Promise<number>;

/** Imports are trusted: every capability, so statuses and images are kept as given. */
export const IMPORTER_CAPS = [...new Set(Object.values(DEFAULT_ROLES).flat())] as Capability[];

const anyStatus = arg({ schema: v.picklist(POST_STATUSES), description: 'Any post status' });
const stamp = arg({ schema: v.pipe(v.string(), v.check((s) => parseWall(s) !== undefined)), description: 'YYYY-MM-DD HH:MM:SS' });
const recordExtras = {
  id: arg({ schema: v.pipe(positiveInt, v.maxValue(MAX_ID)), description: 'The record id', type: 'integer' }),
  status: anyStatus,
  password: arg({ schema: anyString, description: 'The password protecting the record', type: 'string' }),
  slug: arg({ schema: nonEmptyString, description: 'The slug', type: 'string' }),
  modified: stamp,
  modified_utc: stamp,
  revision: arg({ schema: v.pipe(v.number(), v.integer(), v.minValue(0)), description: 'The change number of the record\'s last write', type: 'integer' }),
  global_id_lineage: arg({
    schema: v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(2048))), v.maxLength(100)),
    description: 'The global ids of the sources the record came from',
  }),
} satisfies ArgSpecs;

/** A category or tag. A slug may be taken only by the record of the same id (which it replaces). */
export async function buildTerm(call: WriteCall, taxonomy: Taxonomy, raw: Record<string, unknown>, path: string, claim: ClaimId): Promise<TermRecord> {
  const specs = {
    id: recordExtras.id,
    name: arg({ schema: v.pipe(nonEmptyString, v.maxLength(MAX_TERM_NAME)), required: true, description: 'name', type: 'string' }),
    slug: recordExtras.slug,
    revision: recordExtras.revision,
    modified_utc: recordExtras.modified_utc,
    description: arg({ schema: anyString, description: 'description', type: 'string' }),
    ...(taxonomy === 'category' ? { parent: arg({ schema: v.union([v.literal(0), positiveInt]), description: 'parent', type: 'integer' }) } : {}),
  } satisfies ArgSpecs;
  const values = await parseRecord(specs, raw, call, path);
  const terms = termCollection(call.storage, taxonomy);
  const parent = Number(values.parent ?? 0);
  if (parent !== 0 && !(await call.storage.categories.get(parent))) throw datasetError(`${path}.parent`, `no category ${parent}`);
  const id = await claim(values.id as number | undefined);
  if (parent === id) throw datasetError(`${path}.parent`, 'a category cannot be its own parent');
  const name = String(values.name).trim();
  const slug = sanitizeSlug(String(values.slug ?? name)) || String(id);
  const other = await terms.getBySlug(slug);
  if (other && other.id !== id) throw datasetError(`${path}.slug`, `slug "${slug}" is used twice`);
  return {
    id, name, slug, description: String(values.description ?? ''), parent, revision: (values.revision as number | undefined) ?? call.storage.change,
    modifiedUtc: (values.modified_utc as string | undefined) ?? formatUtc(call.now),
  };
}

/** A venue or an organizer. */
export async function buildLinkedPost(
  call: WriteCall, kind: 'venue' | 'organizer', input: Record<string, unknown>, path: string, claim: ClaimId,
): Promise<VenueRecord | OrganizerRecord> {
  const { raw, image } = splitImage(input);
  const values = await parseRecord({ ...linkedPostWriteArgs(kind, 'create'), ...recordExtras }, raw, call, path);
  const id = await claim(values.id as number | undefined);
  const built = await newLinkedPost(withAuthor(call, values), kind, id, values).catch((e: unknown) => {
    throw isCalendarError(e) ? datasetError(path, describe(e)) : e;
  });
  return { ...finishPost(built, values, raw), ...(image ? { image } : {}) } as VenueRecord | OrganizerRecord;
}

/** An event; its terms, venues, organizers and parent must exist already. */
export async function buildEvent(call: WriteCall, input: Record<string, unknown>, path: string, claim: ClaimId): Promise<EventRecord> {
  const { raw, image } = splitImage(input);
  const specs = {
    ...eventWriteArgs('create'),
    ...recordExtras,
    post_parent: arg({ schema: v.union([v.literal(0), positiveInt]), description: 'parent event', type: 'integer' }),
    ticketed: arg({ schema: wpBoolean, description: 'whether the event has tickets', type: 'boolean' }),
    ical_uid: arg({ schema: nonEmptyString, description: 'the UID of the iCalendar event it was imported from', type: 'string' }),
  } satisfies ArgSpecs;
  const values = await parseRecord(specs, raw, call, path);
  for (const [field, taxonomy] of [['categories', 'category'], ['tags', 'tag']] as const) {
    for (const ref of (values[field] as string[] | undefined) ?? []) {
      if (/^\d+$/.test(ref) && !(await termCollection(call.storage, taxonomy).get(Number(ref)))) {
        throw datasetError(`${path}.${field}`, `no ${taxonomy} ${ref}`);
      }
    }
  }
  const parentId = Number(values.post_parent ?? 0);
  if (parentId !== 0 && !(await call.storage.events.get(parentId))) throw datasetError(`${path}.post_parent`, `no event ${parentId}`);
  const id = await claim(values.id as number | undefined);
  const author = withAuthor(call, values);
  const built = await applyEventWrite(author, blankEvent(id, author.principal?.id ?? 0), values, 'create').catch((e: unknown) => {
    throw isCalendarError(e) ? datasetError(path, describe(e)) : e;
  });
  const record = finishPost(built, values, raw) as EventRecord;
  return {
    ...record,
    ...(image ? { image } : {}),
    parentId,
    ...(values.ticketed !== undefined ? { ticketed: values.ticketed as boolean } : {}),
    ...(values.ical_uid !== undefined ? { icalUid: values.ical_uid as string } : {}),
  };
}

export function datasetError(path: string, message: string): CalendarError {
  return new CalendarError('invalid_dataset', verbatim(`Invalid dataset at ${path}: ${message}`), { details: { path, message } });
}

// ---- helpers ----

/**
 * An image given as an object (as `exportDataset` writes it: what an image provider resolved)
 * is kept as is; ids and URLs go through validation like the create routes.
 */
function splitImage(input: Record<string, unknown>): { raw: Record<string, unknown>; image?: ImageRecord } {
  const image = input?.image;
  if (image === null || typeof image !== 'object' || Array.isArray(image) || typeof (image as { url?: unknown }).url !== 'string') {
    return { raw: input };
  }
  const { image: _, ...raw } = input;
  return { raw, image: image as ImageRecord };
}

/** Validates a record like the create route would, reporting failures as dataset errors. */
async function parseRecord(specs: ArgSpecs, raw: Record<string, unknown>, call: Call, path: string): Promise<Record<string, unknown>> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw datasetError(path, 'a record is a JSON object');
  try {
    return (await parseArgs(specs, raw, call.args)).values as Record<string, unknown>;
  } catch (e) {
    throw isCalendarError(e) ? datasetError(path, describe(e)) : e;
  }
}

/** Records are written as their author (the default author of what they create). */
function withAuthor(call: WriteCall, values: Record<string, unknown>): WriteCall {
  const id = (values.author as number | undefined) ?? 0;
  return { ...call, principal: { ...call.principal!, id } };
}

/** Fields a create route cannot set: password, modification times, a never-set UTC date, the lineage, the revision. */
function finishPost<T extends PostRecord>(record: T, values: Record<string, unknown>, raw: Record<string, unknown>): T {
  const modified = (values.modified as string | undefined) ?? record.modified;
  const lineage = values.global_id_lineage as string[] | undefined;
  return {
    ...record,
    password: (values.password as string | undefined) ?? '',
    modified,
    modifiedUtc: (values.modified_utc as string | undefined) ?? record.modifiedUtc,
    revision: (values.revision as number | undefined) ?? record.revision,
    dateUtc: (raw.date_utc === null || raw.date_utc === ZERO_DATE) && isUnpublishedStatus(record.status) ? null : record.dateUtc,
    ...(lineage?.length ? { lineage: [...new Set(lineage)] } : {}),
  };
}

function describe(e: CalendarError): string {
  const params = e.details.params;
  if (Array.isArray(params)) return `missing ${params.join(', ')}`;
  if (params && typeof params === 'object') return `invalid ${Object.keys(params).join(', ')}`;
  return e.message;
}
