// Records <-> rows. Writing computes the folded search and key columns; reading restores the
// exact record (links come from evcal_event_links, in their stored order).
import {
  foldText, formatUtc, type EventRecord, type ImageRecord, type OrganizerRecord, type PostStatus, type TermRecord,
  type VenueRecord,
} from '@evcal/core/adapter';
import type { EventLinksTable, EventsTable, OrganizersTable, TermsTable, VenuesTable } from './schema';

const bit = (b: boolean) => (b ? 1 : 0);
/** Added to hide_from_listings of a series' row (schema.ts). */
export const SERIES = 2;
const bool = (n: number | string | boolean) => Number(n) === 1 || n === true;
const image = (json: string | null) => (json === null ? null : (JSON.parse(json) as ImageRecord));
/** NULL for a post created here (most of them), else a JSON array of global ids. */
const lineageColumn = (lineage: readonly string[] | undefined) => (lineage?.length ? JSON.stringify(lineage) : null);
const lineage = (json: string | null | undefined) => (json === null || json === undefined ? undefined : (JSON.parse(json) as string[]));

// Every row and record below is a single object literal, field by field, without spreading a
// shared part: V8 builds `{ ...post, more }` with this many properties through a slow path
// (about 50 µs an event) and a list reads thousands of them.

/** The columns a record is read from (not the folded search copies and keys). */
const POST_COLUMNS = ['id', 'author_id', 'status', 'slug', 'password', 'title', 'description', 'excerpt', 'date', 'date_utc', 'modified', 'modified_utc', 'image', 'revision', 'lineage'] as const;
export const EVENT_COLUMNS = [...POST_COLUMNS, 'parent_id', 'timezone', 'timezone_abbr', 'all_day', 'start_local', 'end_local', 'start_utc', 'end_utc',
  'cost', 'currency_symbol', 'currency_position', 'currency_code', 'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'ticketed', 'ical_uid', 'recurrence', 'occurrence'] as const;
export const VENUE_COLUMNS = [...POST_COLUMNS, 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website', 'show_map',
  'show_map_link', 'geo_lat', 'geo_lng'] as const;
export const ORGANIZER_COLUMNS = [...POST_COLUMNS, 'phone', 'website', 'email'] as const;

export type EventRow = Pick<EventsTable, (typeof EVENT_COLUMNS)[number]>;
export type VenueRow = Pick<VenuesTable, (typeof VENUE_COLUMNS)[number]>;
export type OrganizerRow = Pick<OrganizersTable, (typeof ORGANIZER_COLUMNS)[number]>;

/** Joins an event's folded texts in search_text; a word containing it is matched field by field (compile.ts). */
export const SEARCH_SEPARATOR = '\u001f';

export function eventRow(e: EventRecord): EventsTable {
  const title = foldText(e.title);
  const description = foldText(e.description);
  const excerpt = foldText(e.excerpt);
  return {
    id: e.id,
    author_id: e.authorId,
    status: e.status,
    slug: e.slug,
    password: e.password,
    title: e.title,
    description: e.description,
    excerpt: e.excerpt,
    date: e.date,
    date_utc: e.dateUtc,
    modified: e.modified,
    modified_utc: e.modifiedUtc,
    image: e.image ? JSON.stringify(e.image) : null,
    revision: e.revision,
    lineage: lineageColumn(e.lineage),
    search_title: title,
    search_description: description,
    search_excerpt: excerpt,
    parent_id: e.parentId,
    timezone: e.timezone,
    timezone_abbr: e.timezoneAbbr,
    all_day: bit(e.allDay),
    start_local: e.startLocal,
    end_local: e.endLocal,
    start_utc: e.startUtc,
    end_utc: e.endUtc,
    cost: JSON.stringify(e.cost),
    currency_symbol: e.currencySymbol,
    currency_position: e.currencyPosition,
    currency_code: e.currencyCode,
    website: e.website,
    show_map: bit(e.showMap),
    show_map_link: bit(e.showMapLink),
    hide_from_listings: bit(e.hideFromListings) + (e.recurrence ? SERIES : 0),
    sticky: bit(e.sticky),
    featured: bit(e.featured),
    ticketed: e.ticketed === null ? null : bit(e.ticketed),
    ical_uid: e.icalUid ?? null,
    recurrence: e.recurrence ? JSON.stringify(e.recurrence) : null,
    occurrence: e.occurrence ? JSON.stringify(e.occurrence) : null,
    start_offset: startOffset(e.startLocal, e.startUtc),
    search_text: `${title}${SEARCH_SEPARATOR}${description}${SEARCH_SEPARATOR}${excerpt}`,
  };
}

/** The start_offset of an event whose local start is not a canonical wall clock: below every real one. */
export const NO_OFFSET = Number.MIN_SAFE_INTEGER;

/**
 * The local start read as if it were UTC, minus the UTC start, in milliseconds (the zone's
 * offset, for a consistent record). Any start_utc ≥ t then has start_local ≥ the wall clock
 * of t + min(start_offset). NO_OFFSET when the local start is not a "YYYY-MM-DD HH:MM:SS" that
 * reads back the same (the same rule as migration 0002 applies to older rows).
 */
export function startOffset(startLocal: string, startUtc: number): number {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(startLocal)) return NO_OFFSET;
  const ms = Date.parse(`${startLocal.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) && formatUtc(ms) === startLocal ? ms - startUtc : NO_OFFSET;
}

export type EventLinks = Pick<EventRecord, 'categoryIds' | 'tagIds' | 'venueIds' | 'organizerIds'>;

const LINK_FIELDS = { category: 'categoryIds', tag: 'tagIds', venue: 'venueIds', organizer: 'organizerIds' } as const;

export function linkRows(e: EventRecord): EventLinksTable[] {
  return (Object.entries(LINK_FIELDS) as [EventLinksTable['kind'], keyof EventLinks][]).flatMap(([kind, field]) =>
    [...new Set(e[field])].map((ref_id, position) => ({ event_id: e.id, kind, ref_id, position, start_utc: e.startUtc, start_local: e.startLocal })));
}

/** Links grouped by event, each list in stored order. */
export function groupLinks(rows: readonly Omit<EventLinksTable, 'start_utc' | 'start_local'>[]): Map<number, EventLinks> {
  const sorted = [...rows].sort((a, b) => Number(a.position) - Number(b.position));
  const out = new Map<number, { categoryIds: number[]; tagIds: number[]; venueIds: number[]; organizerIds: number[] }>();
  for (const row of sorted) {
    const id = Number(row.event_id);
    let links = out.get(id);
    if (!links) out.set(id, (links = { categoryIds: [], tagIds: [], venueIds: [], organizerIds: [] }));
    links[LINK_FIELDS[row.kind]].push(Number(row.ref_id));
  }
  return out;
}

const NO_LINKS: EventLinks = { categoryIds: [], tagIds: [], venueIds: [], organizerIds: [] };

export function eventRecord(r: EventRow, links: EventLinks = NO_LINKS): EventRecord {
  return {
    id: Number(r.id),
    authorId: Number(r.author_id),
    status: r.status as PostStatus,
    slug: r.slug,
    password: r.password,
    title: r.title,
    description: r.description,
    excerpt: r.excerpt,
    date: r.date,
    dateUtc: r.date_utc,
    modified: r.modified,
    modifiedUtc: r.modified_utc,
    image: image(r.image),
    revision: Number(r.revision),
    lineage: lineage(r.lineage),
    parentId: Number(r.parent_id),
    timezone: r.timezone,
    timezoneAbbr: r.timezone_abbr,
    allDay: bool(r.all_day),
    startLocal: r.start_local,
    endLocal: r.end_local,
    startUtc: Number(r.start_utc),
    endUtc: Number(r.end_utc),
    cost: JSON.parse(r.cost) as string[],
    currencySymbol: r.currency_symbol,
    currencyPosition: r.currency_position as EventRecord['currencyPosition'],
    currencyCode: r.currency_code,
    website: r.website,
    showMap: bool(r.show_map),
    showMapLink: bool(r.show_map_link),
    hideFromListings: (Number(r.hide_from_listings) & 1) === 1,
    sticky: bool(r.sticky),
    featured: bool(r.featured),
    ticketed: r.ticketed === null ? null : bool(r.ticketed),
    categoryIds: links.categoryIds,
    tagIds: links.tagIds,
    venueIds: links.venueIds,
    organizerIds: links.organizerIds,
    icalUid: r.ical_uid ?? undefined,
    recurrence: r.recurrence === null || r.recurrence === undefined ? undefined : JSON.parse(r.recurrence) as EventRecord['recurrence'],
    occurrence: r.occurrence === null || r.occurrence === undefined ? undefined : JSON.parse(r.occurrence) as EventRecord['occurrence'],
  };
}

/** FNV-1a over the UTF-16 units of a text, as a signed 32-bit integer. */
export function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

export function venueRow(v: VenueRecord): VenuesTable {
  const titleKey = foldText(v.title.trim());
  return {
    id: v.id,
    author_id: v.authorId,
    status: v.status,
    slug: v.slug,
    password: v.password,
    title: v.title,
    description: v.description,
    excerpt: v.excerpt,
    date: v.date,
    date_utc: v.dateUtc,
    modified: v.modified,
    modified_utc: v.modifiedUtc,
    image: v.image ? JSON.stringify(v.image) : null,
    revision: v.revision,
    lineage: lineageColumn(v.lineage),
    search_title: foldText(v.title),
    search_description: foldText(v.description),
    search_excerpt: foldText(v.excerpt),
    phone: v.phone,
    website: v.website,
    title_key: titleKey,
    title_hash: textHash(titleKey),
    description_key: foldText(v.description.trim()),
    search_phone: foldText(v.phone),
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    state: v.state,
    zip: v.zip,
    stateprovince: v.stateprovince,
    show_map: bit(v.showMap),
    show_map_link: bit(v.showMapLink),
    geo_lat: v.geoLat,
    geo_lng: v.geoLng,
    search_address: foldText(v.address),
    search_city: foldText(v.city),
    search_province: foldText(v.province),
    search_state: foldText(v.state),
    search_stateprovince: foldText(v.stateprovince),
    search_zip: foldText(v.zip),
  };
}

export function venueRecord(r: VenueRow): VenueRecord {
  return {
    id: Number(r.id),
    authorId: Number(r.author_id),
    status: r.status as PostStatus,
    slug: r.slug,
    password: r.password,
    title: r.title,
    description: r.description,
    excerpt: r.excerpt,
    date: r.date,
    dateUtc: r.date_utc,
    modified: r.modified,
    modifiedUtc: r.modified_utc,
    image: image(r.image),
    revision: Number(r.revision),
    lineage: lineage(r.lineage),
    address: r.address,
    city: r.city,
    country: r.country,
    province: r.province,
    state: r.state,
    zip: r.zip,
    phone: r.phone,
    stateprovince: r.stateprovince,
    website: r.website,
    showMap: bool(r.show_map),
    showMapLink: bool(r.show_map_link),
    geoLat: r.geo_lat === null ? null : Number(r.geo_lat),
    geoLng: r.geo_lng === null ? null : Number(r.geo_lng),
  };
}

export function organizerRow(o: OrganizerRecord): OrganizersTable {
  const titleKey = foldText(o.title.trim());
  return {
    id: o.id,
    author_id: o.authorId,
    status: o.status,
    slug: o.slug,
    password: o.password,
    title: o.title,
    description: o.description,
    excerpt: o.excerpt,
    date: o.date,
    date_utc: o.dateUtc,
    modified: o.modified,
    modified_utc: o.modifiedUtc,
    image: o.image ? JSON.stringify(o.image) : null,
    revision: o.revision,
    lineage: lineageColumn(o.lineage),
    search_title: foldText(o.title),
    search_description: foldText(o.description),
    search_excerpt: foldText(o.excerpt),
    phone: o.phone,
    website: o.website,
    title_key: titleKey,
    title_hash: textHash(titleKey),
    description_key: foldText(o.description.trim()),
    search_phone: foldText(o.phone),
    email: o.email,
    search_email: foldText(o.email),
    search_website: foldText(o.website),
  };
}

export function organizerRecord(r: OrganizerRow): OrganizerRecord {
  return {
    id: Number(r.id),
    authorId: Number(r.author_id),
    status: r.status as PostStatus,
    slug: r.slug,
    password: r.password,
    title: r.title,
    description: r.description,
    excerpt: r.excerpt,
    date: r.date,
    dateUtc: r.date_utc,
    modified: r.modified,
    modifiedUtc: r.modified_utc,
    image: image(r.image),
    revision: Number(r.revision),
    lineage: lineage(r.lineage),
    phone: r.phone,
    website: r.website,
    email: r.email,
  };
}
export function termRow(t: TermRecord, taxonomy: 'category' | 'tag'): TermsTable {
  return {
    id: t.id,
    taxonomy,
    name: t.name,
    slug: t.slug,
    description: t.description,
    parent: t.parent,
    name_key: foldText(t.name),
    slug_key: foldText(t.slug),
    description_key: foldText(t.description),
    revision: t.revision,
    modified_utc: t.modifiedUtc ?? null,
  };
}

export function termRecord(r: TermsTable): TermRecord {
  return {
    id: Number(r.id), name: r.name, slug: r.slug, description: r.description, parent: Number(r.parent), revision: Number(r.revision),
    ...(r.modified_utc ? { modifiedUtc: r.modified_utc } : {}),
  };
}
