// Venue and organizer objects (behaviour.md §1.3, §1.4): fixed key order, every empty value
// dropped, map flags and global ids appended.
import type { OrganizerRecord, VenueRecord } from '../model/records';
import { renderContent, renderTitle } from '../domain/text';
import { imageJson } from './image-json';
import { organizerJsonLd, venueJsonLd } from './json-ld';
import { globalId, globalIdLineage, postUrl, type LinkBase } from './links';
import { postDates } from './post-dates';

export type PostJson = Record<string, unknown>;

export interface LinkedPostJsonOptions {
  /** Single GET: add `json_ld`. */
  readonly jsonLd?: boolean;
}

export function venueJson(links: LinkBase, venue: VenueRecord, options: LinkedPostJsonOptions = {}): PostJson {
  const out: PostJson = {
    id: venue.id,
    author: String(venue.authorId),
    status: venue.status,
    ...postDates(venue),
    url: postUrl(links, 'venue', venue),
    venue: renderTitle(venue.title),
    description: renderContent(venue.description),
    excerpt: renderContent(venue.excerpt),
    slug: venue.slug,
    image: imageJson(venue.image),
    address: venue.address,
    city: venue.city,
    country: venue.country,
    province: venue.province,
    state: venue.state,
    zip: venue.zip,
    phone: venue.phone,
    website: venue.website,
    stateprovince: venue.stateprovince,
  };
  if (venue.geoLat !== null && venue.geoLng !== null) {
    out.geo_lat = venue.geoLat;
    out.geo_lng = venue.geoLng;
  }
  if (options.jsonLd) out.json_ld = venueJsonLd(links, venue);
  const kept = dropEmpty(out);
  const id = globalId(links, venue.id);
  kept.show_map = venue.showMap;
  kept.show_map_link = venue.showMapLink;
  kept.global_id = id;
  kept.global_id_lineage = globalIdLineage(id, venue.lineage);
  return kept;
}

export function organizerJson(links: LinkBase, organizer: OrganizerRecord, options: LinkedPostJsonOptions = {}): PostJson {
  const id = globalId(links, organizer.id);
  const out: PostJson = {
    id: organizer.id,
    author: String(organizer.authorId),
    status: organizer.status,
    ...postDates(organizer),
    url: postUrl(links, 'organizer', organizer),
    organizer: renderTitle(organizer.title),
    description: renderContent(organizer.description),
    excerpt: renderContent(organizer.excerpt),
    slug: organizer.slug,
    image: imageJson(organizer.image),
    phone: organizer.phone,
    website: organizer.website,
    email: organizer.email,
    ...(options.jsonLd ? { json_ld: organizerJsonLd(links, organizer) } : {}),
    global_id: id,
    global_id_lineage: globalIdLineage(id, organizer.lineage),
  };
  return dropEmpty(out);
}

/**
 * A copy without empty strings, "0", false, null, undefined and empty arrays (the reference's
 * array_filter), key order kept. A copy rather than `delete`, which would leave the object in
 * V8's slow dictionary mode for everything that reads it later (JSON.stringify).
 */
function dropEmpty(obj: PostJson): PostJson {
  const out: PostJson = {};
  for (const k in obj) {
    const v = obj[k];
    if (!(v === '' || v === '0' || v === false || v === null || v === undefined || (Array.isArray(v) && v.length === 0))) out[k] = v;
  }
  return out;
}
