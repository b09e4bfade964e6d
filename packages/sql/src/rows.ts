// Records <-> rows. Writing computes the folded search and key columns; reading restores the
// exact record (links come from evcal_event_links, in their stored order).
import {
  foldText, type EventRecord, type ImageRecord, type OrganizerRecord, type PostRecord, type PostStatus, type TermRecord,
  type VenueRecord,
} from '@evcal/core';
import type { EventLinksTable, EventsTable, OrganizersTable, TermsTable, VenuesTable } from './schema';

const bit = (b: boolean) => (b ? 1 : 0);
const bool = (n: number | string | boolean) => Number(n) === 1 || n === true;

function postRow(p: PostRecord) {
  return {
    id: p.id,
    author_id: p.authorId,
    status: p.status,
    slug: p.slug,
    password: p.password,
    title: p.title,
    description: p.description,
    excerpt: p.excerpt,
    date: p.date,
    date_utc: p.dateUtc,
    modified: p.modified,
    modified_utc: p.modifiedUtc,
    image: p.image ? JSON.stringify(p.image) : null,
    search_title: foldText(p.title),
    search_description: foldText(p.description),
    search_excerpt: foldText(p.excerpt),
  };
}

function postRecord(r: Omit<EventsTable, never> | VenuesTable | OrganizersTable): PostRecord {
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
    image: r.image === null ? null : (JSON.parse(r.image) as ImageRecord),
  };
}

export function eventRow(e: EventRecord): EventsTable {
  return {
    ...postRow(e),
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
    hide_from_listings: bit(e.hideFromListings),
    sticky: bit(e.sticky),
    featured: bit(e.featured),
    ticketed: e.ticketed === null ? null : bit(e.ticketed),
  };
}

export type EventLinks = Pick<EventRecord, 'categoryIds' | 'tagIds' | 'venueIds' | 'organizerIds'>;

const LINK_FIELDS = { category: 'categoryIds', tag: 'tagIds', venue: 'venueIds', organizer: 'organizerIds' } as const;

export function linkRows(e: EventRecord): EventLinksTable[] {
  return (Object.entries(LINK_FIELDS) as [EventLinksTable['kind'], keyof EventLinks][]).flatMap(([kind, field]) =>
    [...new Set(e[field])].map((ref_id, position) => ({ event_id: e.id, kind, ref_id, position })));
}

/** Links grouped by event, each list in stored order. */
export function groupLinks(rows: readonly EventLinksTable[]): Map<number, EventLinks> {
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

export function eventRecord(r: EventsTable, links: EventLinks = NO_LINKS): EventRecord {
  return {
    ...postRecord(r),
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
    hideFromListings: bool(r.hide_from_listings),
    sticky: bool(r.sticky),
    featured: bool(r.featured),
    ticketed: r.ticketed === null ? null : bool(r.ticketed),
    categoryIds: links.categoryIds,
    tagIds: links.tagIds,
    venueIds: links.venueIds,
    organizerIds: links.organizerIds,
  };
}

/** FNV-1a over the UTF-16 units of a text, as a signed 32-bit integer. */
export function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

function linkedKeys(p: VenueRecord | OrganizerRecord) {
  const titleKey = foldText(p.title.trim());
  return {
    phone: p.phone,
    website: p.website,
    title_key: titleKey,
    title_hash: textHash(titleKey),
    description_key: foldText(p.description.trim()),
    search_phone: foldText(p.phone),
  };
}

export function venueRow(v: VenueRecord): VenuesTable {
  return {
    ...postRow(v),
    ...linkedKeys(v),
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

export function venueRecord(r: VenuesTable): VenueRecord {
  return {
    ...postRecord(r),
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
  return {
    ...postRow(o),
    ...linkedKeys(o),
    email: o.email,
    search_email: foldText(o.email),
    search_website: foldText(o.website),
  };
}

export function organizerRecord(r: OrganizersTable): OrganizerRecord {
  return { ...postRecord(r), phone: r.phone, website: r.website, email: r.email };
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
  };
}

export function termRecord(r: TermsTable): TermRecord {
  return { id: Number(r.id), name: r.name, slug: r.slug, description: r.description, parent: Number(r.parent) };
}
