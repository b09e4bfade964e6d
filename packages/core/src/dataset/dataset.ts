// Dataset import and export (the format of ../shared/conformance/README.md "Dataset"): the
// same validation and normalisation as the create routes, without permission checks, ids
// kept. Export writes every field needed to import the calendar again unchanged.
import { verbatim } from '../messages';
import * as v from 'valibot';
import type { Capability } from '../auth/capabilities';
import { DEFAULT_ROLES } from '../auth/capabilities';
import { CalendarError, isCalendarError } from '../errors';
import { arg, parseArgs, type ArgSpecs } from '../input/args';
import { anyString, MAX_TERM_NAME, nonEmptyString, positiveInt, wpBoolean } from '../input/wire-schemas';
import {
  MAX_ID, POST_STATUSES, type EventRecord, type ImageRecord, type OrganizerRecord, type PostRecord, type Taxonomy, type VenueRecord,
} from '../model/records';
import { decodeDataset, encodeDataset, type EncodedDataset } from './codec';
import { sanitizeSlug } from '../domain/slug';
import { ZERO_DATE } from '../represent/post-dates';
import type { Storage } from '../storage/storage';
import { parseWall } from '../time/wall-clock';
import { beginCall, withStorage, type Call, type WriteCall } from '../operations/call';
import type { CalendarConfig } from '../operations/config';
import { eventWriteArgs } from '../operations/event-args';
import { applyEventWrite, blankEvent } from '../operations/event-write';
import { linkedPostWriteArgs } from '../operations/linked-post-args';
import { newLinkedPost } from '../operations/linked-posts';
import { isUnpublishedStatus } from '../operations/post-write';
import { termCollection } from '../operations/term-refs';

/** A calendar as one JSON document. Every key is optional. */
export interface Dataset {
  categories?: Record<string, unknown>[];
  tags?: Record<string, unknown>[];
  venues?: Record<string, unknown>[];
  organizers?: Record<string, unknown>[];
  events?: Record<string, unknown>[];
}

export interface ImportSummary {
  readonly categories: number;
  readonly tags: number;
  readonly venues: number;
  readonly organizers: number;
  readonly events: number;
}

export interface ImportOptions {
  /** Called after each record, for progress displays. */
  readonly onProgress?: (done: number, total: number) => void;
}

const SECTIONS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
/** Sequences and format of a dataset evcal wrote (see codec.ts). */
const METADATA = 'evcal';

// Imports are trusted: every capability, so statuses and images are kept as given.
const IMPORTER_CAPS = [...new Set(Object.values(DEFAULT_ROLES).flat())] as Capability[];

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
} satisfies ArgSpecs;

/**
 * Loads a dataset into `storage` in the order categories, tags, venues, organizers, events,
 * in one transaction. Throws `invalid_dataset` naming the first bad record.
 */
export async function importDataset(config: CalendarConfig, dataset: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  if (dataset === null || typeof dataset !== 'object' || Array.isArray(dataset)) throw datasetError('$', 'a dataset is a JSON object');
  const data = dataset as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (key === METADATA) continue;
    if (!(SECTIONS as readonly string[]).includes(key)) throw datasetError(key, `unknown section (expected ${SECTIONS.join(', ')})`);
    if (!Array.isArray(data[key])) throw datasetError(key, 'must be a list');
  }
  const sequences = decodeDataset({ [METADATA]: data[METADATA] }).sequences;
  const sections = Object.fromEntries(SECTIONS.map((k) => [k, (data[k] as Record<string, unknown>[] | undefined) ?? []])) as Required<Dataset>;
  const total = SECTIONS.reduce((n, k) => n + sections[k].length, 0);
  let done = 0;
  const tick = () => options.onProgress?.(++done, total);
  const call = beginCall(config, { principal: { id: 0, capabilities: IMPORTER_CAPS } });

  await config.storage.transaction(async (tx) => {
    const c = withStorage(call, tx);
    for (const taxonomy of ['category', 'tag'] as const) {
      const list = taxonomy === 'category' ? orderParentsFirst(sections.categories) : sections.tags;
      for (const [i, raw] of list.entries()) {
        await importTerm(c, taxonomy, raw, `${taxonomy === 'category' ? 'categories' : 'tags'}[${i}]`);
        tick();
      }
    }
    for (const kind of ['venue', 'organizer'] as const) {
      for (const [i, raw] of sections[`${kind}s`].entries()) {
        await importLinkedPost(c, kind, raw, `${kind}s[${i}]`);
        tick();
      }
    }
    for (const [i, raw] of sections.events.entries()) {
      await importEvent(c, raw, `events[${i}]`);
      tick();
    }
    await tx.sequences.bump('post', sequences.post);
    await tx.sequences.bump('term', sequences.term);
    // Records keep their revisions (their validators stay valid): later writes number above them.
    const revisions = SECTIONS.flatMap((k) => sections[k].map((r) => (Number.isInteger(r?.revision) ? (r.revision as number) : 0)));
    await tx.sequences.bump('change', revisions.reduce((m, r) => Math.max(m, r), sequences.change));
  });
  return {
    categories: sections.categories.length, tags: sections.tags.length, venues: sections.venues.length,
    organizers: sections.organizers.length, events: sections.events.length,
  };
}

/** The whole calendar as a dataset (every field, ids and sequences kept), records ordered by id. */
export async function exportDataset(storage: Storage): Promise<EncodedDataset> {
  const all = { sort: [{ field: 'id' as const, direction: 'asc' as const }] };
  const terms = (t: Taxonomy) => (t === 'category' ? storage.categories : storage.tags).list({ ...all, hideEmpty: false, countStatuses: [] });
  const [categories, tags, venues, organizers, events, post, term, change] = await Promise.all([
    terms('category'),
    terms('tag'),
    storage.venues.list({ ...all, statuses: POST_STATUSES }),
    storage.organizers.list({ ...all, statuses: POST_STATUSES }),
    storage.events.list({ ...all, statuses: POST_STATUSES, excludeHidden: false }),
    storage.sequences.peek('post'),
    storage.sequences.peek('term'),
    storage.lastChange(),
  ]);
  return encodeDataset({
    categories: categories.items.map((t) => t.term),
    tags: tags.items.map((t) => t.term),
    venues: venues.items,
    organizers: organizers.items,
    events: events.items,
    sequences: { post, term, change },
  });
}

// ---- import ----

async function importTerm(call: WriteCall, taxonomy: Taxonomy, raw: Record<string, unknown>, path: string): Promise<void> {
  const specs = {
    id: recordExtras.id,
    name: arg({ schema: v.pipe(nonEmptyString, v.maxLength(MAX_TERM_NAME)), required: true, description: 'name', type: 'string' }),
    slug: recordExtras.slug,
    revision: recordExtras.revision,
    description: arg({ schema: anyString, description: 'description', type: 'string' }),
    ...(taxonomy === 'category' ? { parent: arg({ schema: v.union([v.literal(0), positiveInt]), description: 'parent', type: 'integer' }) } : {}),
  } satisfies ArgSpecs;
  const values = await parseRecord(specs, raw, call, path);
  const terms = termCollection(call.storage, taxonomy);
  const parent = Number(values.parent ?? 0);
  if (parent !== 0 && !(await call.storage.categories.get(parent))) throw datasetError(`${path}.parent`, `no category ${parent}`);
  const id = await claimId(call, 'term', values.id as number | undefined, path);
  const name = String(values.name).trim();
  const slug = sanitizeSlug(String(values.slug ?? name)) || String(id);
  if (await terms.getBySlug(slug)) throw datasetError(`${path}.slug`, `slug "${slug}" is used twice`);
  await terms.insert({ id, name, slug, description: String(values.description ?? ''), parent, revision: (values.revision as number | undefined) ?? call.storage.change });
}

async function importLinkedPost(call: WriteCall, kind: 'venue' | 'organizer', input: Record<string, unknown>, path: string): Promise<void> {
  const { raw, image } = splitImage(input);
  const values = await parseRecord({ ...linkedPostWriteArgs(kind, 'create'), ...recordExtras }, raw, call, path);
  const id = await claimId(call, 'post', values.id as number | undefined, path);
  const built = await newLinkedPost(withAuthor(call, values), kind, id, values);
  const record = { ...finishPost(built, values, raw), ...(image ? { image } : {}) };
  await (kind === 'venue' ? call.storage.venues.insert(record as VenueRecord) : call.storage.organizers.insert(record as OrganizerRecord));
}

async function importEvent(call: WriteCall, input: Record<string, unknown>, path: string): Promise<void> {
  const { raw, image } = splitImage(input);
  const specs = {
    ...eventWriteArgs('create'),
    ...recordExtras,
    post_parent: arg({ schema: v.union([v.literal(0), positiveInt]), description: 'parent event', type: 'integer' }),
    ticketed: arg({ schema: wpBoolean, description: 'whether the event has tickets', type: 'boolean' }),
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
  const id = await claimId(call, 'post', values.id as number | undefined, path);
  const author = withAuthor(call, values);
  const built = await applyEventWrite(author, blankEvent(id, author.principal?.id ?? 0), values, 'create').catch((e: unknown) => {
    throw isCalendarError(e) ? datasetError(path, describe(e)) : e;
  });
  const record = finishPost(built, values, raw) as EventRecord;
  await call.storage.events.insert({
    ...record,
    ...(image ? { image } : {}),
    parentId,
    ...(values.ticketed !== undefined ? { ticketed: values.ticketed as boolean } : {}),
  });
}

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

/** The given id (free, then reserved), or the next one. */
async function claimId(call: Call, kind: 'post' | 'term', id: number | undefined, path: string): Promise<number> {
  if (id === undefined) return call.storage.sequences.next(kind);
  const s = call.storage;
  const taken = kind === 'term'
    ? (await s.categories.get(id)) ?? (await s.tags.get(id))
    : (await s.events.get(id)) ?? (await s.venues.get(id)) ?? (await s.organizers.get(id));
  if (taken) throw datasetError(`${path}.id`, `id ${id} is used twice`);
  await s.sequences.bump(kind, id);
  return id;
}

/** Records are written as their author (the default author of what they create). */
function withAuthor(call: WriteCall, values: Record<string, unknown>): WriteCall {
  const id = (values.author as number | undefined) ?? 0;
  return { ...call, principal: { ...call.principal!, id } };
}

/** Fields a create route cannot set: password, modification times, a never-set UTC date. */
function finishPost<T extends PostRecord>(record: T, values: Record<string, unknown>, raw: Record<string, unknown>): T {
  const modified = (values.modified as string | undefined) ?? record.modified;
  return {
    ...record,
    password: (values.password as string | undefined) ?? '',
    modified,
    modifiedUtc: (values.modified_utc as string | undefined) ?? record.modifiedUtc,
    revision: (values.revision as number | undefined) ?? record.revision,
    dateUtc: (raw.date_utc === null || raw.date_utc === ZERO_DATE) && isUnpublishedStatus(record.status) ? null : record.dateUtc,
  };
}

/** Categories with parents before children (cycles and unknown parents are caught on insert). */
function orderParentsFirst(list: Record<string, unknown>[]): Record<string, unknown>[] {
  const byId = new Map(list.map((c) => [Number(c.id), c]));
  const out: Record<string, unknown>[] = [];
  const placed = new Set<Record<string, unknown>>();
  const visiting = new Set<Record<string, unknown>>();
  const place = (c: Record<string, unknown>) => {
    if (placed.has(c) || visiting.has(c)) return;
    visiting.add(c);
    const parent = byId.get(Number(c.parent));
    if (parent) place(parent);
    placed.add(c);
    out.push(c);
  };
  list.forEach(place);
  return out;
}

function describe(e: CalendarError): string {
  const params = e.details.params;
  if (Array.isArray(params)) return `missing ${params.join(', ')}`;
  if (params && typeof params === 'object') return `invalid ${Object.keys(params).join(', ')}`;
  return e.message;
}

function datasetError(path: string, message: string): CalendarError {
  return new CalendarError('invalid_dataset', verbatim(`Invalid dataset at ${path}: ${message}`), { details: { path, message } });
}
