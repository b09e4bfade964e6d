// A lossless codec between stored records and the dataset format. `encodeDataset` writes
// every field a record has (the dataset format plus the derived fields: UTC dates, zone
// abbreviation, currency); `decodeDataset` reads that back without re-running the write
// rules, so a storage written as a dataset (the JSON file adapter) reopens exactly as it was.
// Hand-written datasets go through `importDataset`, which validates like the create routes.
import { verbatim } from '../domain/messages';
import * as v from 'valibot';
import { CalendarError } from '../domain/errors';
import { parseCostInput } from '../domain/cost';
import {
  MAX_ID, POST_STATUSES, type EventOverrides, type EventRecord, type ImageRecord, type OrganizerRecord, type PostRecord, type TermRecord, type VenueRecord,
} from '../model/records';
import { formatUtc, parseWall } from '../time/wall-clock';
import { decodeAccounts, encodeAccounts, type AccountSet } from './account-codec';
import { resolveZone, wallToInstant, zoneAbbreviation } from '../time/zone';
import type { StoredChanges } from '../storage/change-store';
import { changesJsonPieces, changesSchema, jsonListPieces } from './changes-codec';
import type { IdempotencyRecord } from '../storage/idempotency-store';
import { idempotencySchema } from './idempotency-codec';

/** Every record of a calendar, and where its id sequences stand; a stored calendar's accounts too. */
export interface RecordSet extends AccountSet {
  readonly events: readonly EventRecord[];
  readonly venues: readonly VenueRecord[];
  readonly organizers: readonly OrganizerRecord[];
  readonly categories: readonly TermRecord[];
  readonly tags: readonly TermRecord[];
  /** The id sequences, and `change`: the storage's last change number (see Storage.lastChange). */
  readonly sequences: { readonly post: number; readonly term: number; readonly change: number; readonly horizon?: number };
  /** The change log and webhooks of the storage these records come from (only a storage's own document keeps them). */
  readonly changes?: StoredChanges;
  /** The answers of writes sent with an idempotency key (only a storage's own document keeps them). */
  readonly idempotency?: readonly IdempotencyRecord[];
}

/** The dataset document: the five sections and evcal's metadata. */
export interface EncodedDataset {
  evcal: {
    format: 1; sequences: { post: number; term: number; change?: number; horizon?: number }; changes?: StoredChanges;
    idempotency?: readonly IdempotencyRecord[];
  };
  categories: Record<string, unknown>[];
  tags: Record<string, unknown>[];
  venues: Record<string, unknown>[];
  organizers: Record<string, unknown>[];
  events: Record<string, unknown>[];
}

export function encodeDataset(records: RecordSet): EncodedDataset {
  const c = records.changes;
  const out: Record<string, unknown> = {
    evcal: {
      ...encodeMeta(records),
      ...(c ? { changes: { log: c.log, endpoints: c.endpoints, endpointAttempts: c.endpointAttempts ?? [], entries: c.entries, deliveries: c.deliveries } } : {}),
      ...(records.idempotency?.length ? { idempotency: records.idempotency } : {}),
    },
  };
  for (const [key, encode] of SECTIONS) out[key] = byId<{ id: number }>(records[key]).map(encode);
  const accounts = encodeAccounts(records);
  if (accounts) out.accounts = accounts;
  return out as unknown as EncodedDataset;
}

/**
 * The UTF-8 bytes of `JSON.stringify(encodeDataset(records))`. With a `cache`, each record's
 * bytes are kept by record object, so a storage that writes the whole calendar after every
 * change (the JSON file adapter) encodes only the records that changed since, and never builds
 * the document as one string. Records are immutable once stored (storages replace them, never
 * modify them), which is what makes their identity a key.
 */
export function datasetJsonBytes(records: RecordSet, cache?: WeakMap<object, Uint8Array>): Uint8Array {
  const meta = JSON.stringify(encodeMeta(records));
  // What the storage's own document adds to the metadata, after its sequences.
  const own: Uint8Array[] = [];
  if (records.changes) own.push(utf8.encode(',"changes":'), ...changesJsonPieces(records.changes, cache));
  if (records.idempotency?.length) own.push(utf8.encode(',"idempotency":['), ...jsonListPieces(records.idempotency, cache), CLOSE_LIST);
  const parts: Uint8Array[] = [utf8.encode(`{"evcal":${own.length ? meta.slice(0, -1) : meta}`)];
  if (own.length) parts.push(...own, CLOSE_OBJECT);
  for (const [key, encode] of SECTIONS) {
    parts.push(utf8.encode(`,"${key}":[`));
    byId<{ id: number }>(records[key]).forEach((r, i) => {
      let bytes = cache?.get(r);
      if (bytes === undefined) {
        bytes = utf8.encode(JSON.stringify(encode(r)));
        cache?.set(r, bytes);
      }
      if (i > 0) parts.push(COMMA);
      parts.push(bytes);
    });
    parts.push(CLOSE_LIST);
  }
  const accounts = encodeAccounts(records);
  if (accounts) parts.push(utf8.encode(`,"accounts":${JSON.stringify(accounts)}`));
  parts.push(CLOSE_OBJECT);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Reads what `encodeDataset` wrote. Throws `invalid_dataset` naming the first bad record. */
export function decodeDataset(data: unknown): RecordSet {
  const doc = parse(documentSchema, data, '$');
  const decodeAll = <T>(list: unknown[] | undefined, section: string, decode: (raw: unknown, path: string) => T) =>
    (list ?? []).map((raw, i) => decode(raw, `${section}[${i}]`));
  const events = decodeAll(doc.events, 'events', decodeEvent);
  const venues = decodeAll(doc.venues, 'venues', (r, p) => decodeVenue(r, p));
  const organizers = decodeAll(doc.organizers, 'organizers', (r, p) => decodeOrganizer(r, p));
  const categories = decodeAll(doc.categories, 'categories', (r, p) => decodeTerm(r, p, true));
  const tags = decodeAll(doc.tags, 'tags', (r, p) => decodeTerm(r, p, false));
  const accounts = decodeAccounts(doc.accounts ?? {});
  if (!accounts.ok) throw datasetError(accounts.path, accounts.message);
  // Not Math.max(...ids): a spread of a few hundred thousand arguments overflows the stack.
  // Occurrence ids are not taken from the post sequence.
  const maxId = (lists: readonly { id: number }[][]) => lists.reduce((m, list) => list.reduce((n, r) => (r.id > MAX_ID ? n : Math.max(n, r.id)), m), 0);
  const maxRevision = (lists: readonly { revision: number }[][]) => lists.reduce((m, list) => list.reduce((n, r) => Math.max(n, r.revision), m), 0);
  const changes = doc.evcal?.changes === undefined ? undefined : parse(changesSchema, doc.evcal.changes, 'evcal.changes');
  const idempotency = doc.evcal?.idempotency === undefined ? undefined : parse(idempotencySchema, doc.evcal.idempotency, 'evcal.idempotency');
  return {
    events, venues, organizers, categories, tags, ...accounts.value,
    ...(changes ? { changes } : {}),
    ...(idempotency ? { idempotency } : {}),
    sequences: {
      post: Math.max(doc.evcal?.sequences.post ?? 0, maxId([events, venues, organizers])),
      term: Math.max(doc.evcal?.sequences.term ?? 0, maxId([categories, tags])),
      change: Math.max(doc.evcal?.sequences.change ?? 0, maxRevision([events, venues, organizers, categories, tags])),
      horizon: doc.evcal?.sequences.horizon ?? 0,
    },
  };
}

// ---- encoding ----

const utf8 = new TextEncoder();
const COMMA = utf8.encode(',');
const CLOSE_LIST = utf8.encode(']');
const CLOSE_OBJECT = utf8.encode('}');
const byId = <T extends { id: number }>(list: readonly T[]) => [...list].sort((a, b) => a.id - b.id);

function encodeMeta(records: RecordSet): EncodedDataset['evcal'] {
  const { post, term, change, horizon } = records.sequences;
  return { format: 1, sequences: { post, term, change, ...(horizon ? { horizon } : {}) } };
}

function encodeCategory(t: TermRecord): Record<string, unknown> {
  return { id: t.id, name: t.name, slug: t.slug, parent: t.parent, description: t.description, revision: t.revision, ...termModified(t) };
}

function encodeTag(t: TermRecord): Record<string, unknown> {
  return { id: t.id, name: t.name, slug: t.slug, description: t.description, revision: t.revision, ...termModified(t) };
}

function termModified(t: TermRecord): { modified_utc?: string } {
  return t.modifiedUtc ? { modified_utc: t.modifiedUtc } : {};
}

function encodePost(p: PostRecord): Record<string, unknown> {
  return {
    id: p.id, status: p.status, ...(p.authorId > 0 ? { author: p.authorId } : {}), ...(p.slug ? { slug: p.slug } : {}),
    ...(p.password ? { password: p.password } : {}),
    date: p.date, date_utc: p.dateUtc, modified: p.modified, modified_utc: p.modifiedUtc,
    description: p.description, excerpt: p.excerpt,
    ...(p.image ? { image: { ...p.image } } : {}),
    revision: p.revision,
    ...(p.lineage?.length ? { global_id_lineage: [...p.lineage] } : {}),
  };
}

function encodeEvent(e: EventRecord): Record<string, unknown> {
  return {
    title: e.title, ...encodePost(e), timezone: e.timezone, timezone_abbr: e.timezoneAbbr, all_day: e.allDay,
    start_date: e.startLocal, end_date: e.endLocal, utc_start_date: formatUtc(e.startUtc), utc_end_date: formatUtc(e.endUtc),
    cost: [...e.cost], currency_symbol: e.currencySymbol, currency_position: e.currencyPosition, currency_code: e.currencyCode,
    ...(e.website !== null ? { website: e.website } : {}),
    show_map: e.showMap, show_map_link: e.showMapLink, hide_from_listings: e.hideFromListings, sticky: e.sticky, featured: e.featured,
    ...(e.ticketed !== null ? { ticketed: e.ticketed } : {}),
    categories: [...e.categoryIds], tags: [...e.tagIds], venue: [...e.venueIds], organizer: [...e.organizerIds],
    post_parent: e.parentId,
    ...(e.icalUid ? { ical_uid: e.icalUid } : {}),
    ...(e.recurrence ? { recurrence: { rrule: e.recurrence.rrule, rdate: [...e.recurrence.rdate], exdate: [...e.recurrence.exdate], id_base: e.recurrence.idBase } } : {}),
    ...(e.occurrence ? { occurrence: {
      date: e.occurrence.date, original_start: e.occurrence.originalStart, ...(e.occurrence.overrides ? { overrides: { ...e.occurrence.overrides } } : {}),
    } } : {}),
  };
}

function encodeVenue(x: VenueRecord): Record<string, unknown> {
  return {
    venue: x.title, ...encodePost(x), address: x.address, city: x.city, country: x.country, province: x.province,
    state: x.state, zip: x.zip, phone: x.phone, stateprovince: x.stateprovince, website: x.website,
    show_map: x.showMap, show_map_link: x.showMapLink,
    ...(x.geoLat !== null && x.geoLng !== null ? { geo_lat: x.geoLat, geo_lng: x.geoLng } : {}),
  };
}

function encodeOrganizer(o: OrganizerRecord): Record<string, unknown> {
  return { organizer: o.title, ...encodePost(o), phone: o.phone, website: o.website, email: o.email };
}

type SectionKey = Exclude<keyof RecordSet, 'sequences' | 'changes' | 'idempotency' | keyof AccountSet>;
type Encoder = (record: { id: number }) => Record<string, unknown>;
/** A section and the encoder of its records (each applied only to that section's records). */
const section = <K extends SectionKey>(key: K, encode: (record: RecordSet[K][number]) => Record<string, unknown>) =>
  [key, encode as Encoder] as const;

/** The dataset's sections in document order. */
const SECTIONS = [
  section('categories', encodeCategory),
  section('tags', encodeTag),
  section('venues', encodeVenue),
  section('organizers', encodeOrganizer),
  section('events', encodeEvent),
];

// ---- decoding ----

const wall = v.pipe(v.string(), v.check((s) => parseWall(s) !== undefined, 'a date-time YYYY-MM-DD HH:MM:SS'));
const ids = v.array(v.pipe(v.number(), v.integer(), v.minValue(1)));
const str = v.optional(v.string(), '');
const flag = (fallback: boolean) => v.optional(v.boolean(), fallback);
const imageSchema = v.optional(v.nullable(v.looseObject({ url: v.string() })), null);

const postEntries = {
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  status: v.picklist(POST_STATUSES),
  author: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  slug: str,
  password: str,
  date: wall,
  date_utc: v.nullable(wall),
  modified: wall,
  modified_utc: wall,
  description: str,
  excerpt: str,
  image: imageSchema,
  revision: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  global_id_lineage: v.optional(v.array(v.string()), []),
};

const eventSchema = v.object({
  ...postEntries,
  title: v.string(),
  timezone: v.string(),
  timezone_abbr: v.optional(v.string()),
  all_day: flag(false),
  start_date: wall,
  end_date: wall,
  utc_start_date: v.optional(wall),
  utc_end_date: v.optional(wall),
  cost: v.optional(v.array(v.string()), []),
  currency_symbol: v.optional(v.string()),
  currency_position: v.optional(v.picklist(['', 'prefix', 'postfix'])),
  currency_code: str,
  website: v.optional(v.nullable(v.string()), null),
  show_map: flag(false),
  show_map_link: flag(false),
  hide_from_listings: flag(false),
  sticky: flag(false),
  featured: flag(false),
  ticketed: v.optional(v.nullable(v.boolean()), null),
  categories: v.optional(ids, []),
  tags: v.optional(ids, []),
  venue: v.optional(ids, []),
  organizer: v.optional(ids, []),
  post_parent: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  ical_uid: v.optional(v.string()),
  recurrence: v.optional(v.object({
    rrule: v.string(), rdate: v.optional(v.array(wall), []), exdate: v.optional(v.array(v.string()), []), id_base: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  })),
  occurrence: v.optional(v.object({ date: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)), original_start: wall, overrides: v.optional(v.record(v.string(), v.unknown())) })),
});

const venueSchema = v.object({
  ...postEntries,
  venue: v.string(),
  address: str, city: str, country: str, province: str, state: str, zip: str, phone: str, stateprovince: str, website: str,
  show_map: flag(true),
  show_map_link: flag(true),
  geo_lat: v.optional(v.nullable(v.number()), null),
  geo_lng: v.optional(v.nullable(v.number()), null),
});

const organizerSchema = v.object({ ...postEntries, organizer: v.string(), phone: str, website: str, email: str });

const termSchema = v.object({
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  name: v.string(),
  slug: v.string(),
  description: str,
  parent: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  revision: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  modified_utc: v.optional(v.pipe(v.string(), v.check((s) => parseWall(s) !== undefined))),
});

const documentSchema = v.object({
  evcal: v.optional(v.object({
    format: v.literal(1),
    sequences: v.object({ post: v.number(), term: v.number(), change: v.optional(v.number()), horizon: v.optional(v.number()) }),
    changes: v.optional(v.unknown()),
    idempotency: v.optional(v.unknown()),
  })),
  categories: v.optional(v.array(v.unknown())),
  tags: v.optional(v.array(v.unknown())),
  venues: v.optional(v.array(v.unknown())),
  organizers: v.optional(v.array(v.unknown())),
  events: v.optional(v.array(v.unknown())),
  accounts: v.optional(v.unknown()),
});

function postFields(r: v.InferOutput<typeof eventSchema> | v.InferOutput<typeof venueSchema> | v.InferOutput<typeof organizerSchema>) {
  return {
    id: r.id, authorId: r.author, status: r.status, slug: r.slug, password: r.password, description: r.description,
    excerpt: r.excerpt, date: r.date, dateUtc: r.date_utc, modified: r.modified, modifiedUtc: r.modified_utc,
    image: (r.image as ImageRecord | null) ?? null,
    revision: r.revision,
    ...(r.global_id_lineage.length ? { lineage: r.global_id_lineage } : {}),
  };
}

function decodeEvent(raw: unknown, path: string): EventRecord {
  const r = parse(eventSchema, raw, path);
  const zone = resolveZone(r.timezone);
  if (!zone) throw datasetError(`${path}.timezone`, `unknown time zone "${r.timezone}"`);
  const instant = (utc: string | undefined, local: string) =>
    utc !== undefined ? Date.parse(`${utc.replace(' ', 'T')}Z`) : wallToInstant(parseWall(local)!, zone);
  const startUtc = instant(r.utc_start_date, r.start_date);
  const inferred = parseCostInput(r.cost);
  return {
    ...postFields(r),
    title: r.title,
    parentId: r.post_parent,
    timezone: r.timezone,
    timezoneAbbr: r.timezone_abbr ?? zoneAbbreviation(zone, startUtc),
    allDay: r.all_day,
    startLocal: r.start_date,
    endLocal: r.end_date,
    startUtc,
    endUtc: instant(r.utc_end_date, r.end_date),
    cost: r.cost,
    currencySymbol: r.currency_symbol ?? inferred.symbol,
    currencyPosition: r.currency_position ?? inferred.position,
    currencyCode: r.currency_code,
    website: r.website,
    showMap: r.show_map,
    showMapLink: r.show_map_link,
    hideFromListings: r.hide_from_listings,
    sticky: r.sticky,
    featured: r.featured,
    ticketed: r.ticketed,
    categoryIds: r.categories,
    tagIds: r.tags,
    venueIds: r.venue,
    organizerIds: r.organizer,
    ...(r.ical_uid ? { icalUid: r.ical_uid } : {}),
    ...(r.recurrence ? { recurrence: { rrule: r.recurrence.rrule, rdate: r.recurrence.rdate, exdate: r.recurrence.exdate, idBase: r.recurrence.id_base ?? r.id } } : {}),
    ...(r.occurrence ? { occurrence: {
      date: r.occurrence.date, originalStart: r.occurrence.original_start, ...(r.occurrence.overrides ? { overrides: r.occurrence.overrides as EventOverrides } : {}),
    } } : {}),
  };
}

function decodeVenue(raw: unknown, path: string): VenueRecord {
  const r = parse(venueSchema, raw, path);
  return {
    ...postFields(r), title: r.venue, address: r.address, city: r.city, country: r.country, province: r.province,
    state: r.state, zip: r.zip, phone: r.phone, stateprovince: r.stateprovince, website: r.website,
    showMap: r.show_map, showMapLink: r.show_map_link, geoLat: r.geo_lat, geoLng: r.geo_lng,
  };
}

function decodeOrganizer(raw: unknown, path: string): OrganizerRecord {
  const r = parse(organizerSchema, raw, path);
  return { ...postFields(r), title: r.organizer, phone: r.phone, website: r.website, email: r.email };
}

function decodeTerm(raw: unknown, path: string, hierarchical: boolean): TermRecord {
  const r = parse(termSchema, raw, path);
  return {
    id: r.id, name: r.name, slug: r.slug, description: r.description, parent: hierarchical ? r.parent : 0, revision: r.revision,
    ...(r.modified_utc ? { modifiedUtc: r.modified_utc } : {}),
  };
}

function parse<S extends v.GenericSchema>(schema: S, raw: unknown, path: string): v.InferOutput<S> {
  const result = v.safeParse(schema, raw);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const at = issue.path?.map((p) => String(p.key)).join('.');
  throw datasetError(at ? `${path}.${at}` : path, issue.message);
}

function datasetError(path: string, message: string): CalendarError {
  return new CalendarError('invalid_dataset', verbatim(`Invalid dataset at ${path}: ${message}`), { details: { path, message } });
}
