// Venue and organizer objects (the reference's venue and organizer objects): fixed key order,
// every empty value left out, map flags and global ids appended.
import type { OrganizerRecord, VenueRecord } from '../model/records';
import { renderContent, renderTitle } from '../domain/text';
import { imageJson } from './image-json';
import { organizerJsonLd, venueJsonLd } from './json-ld';
import { globalId, globalIdLineage, postUrl, type LinkBase } from './links';
import { postDates } from './post-dates';
import type { OrganizerJson, VenueJson } from './schemas';

export type { OrganizerJson, VenueJson };

export interface LinkedPostJsonOptions {
  /** Single GET: add `json_ld`. */
  readonly jsonLd?: boolean;
}

export function venueJson(links: LinkBase, venue: VenueRecord, options: LinkedPostJsonOptions = {}): VenueJson {
  const id = globalId(links, venue.id);
  return {
    id: venue.id,
    ...present('author', String(venue.authorId)),
    status: venue.status,
    ...postDates(venue),
    url: postUrl(links, 'venue', venue),
    venue: renderTitle(venue.title),
    ...present('description', renderContent(venue.description)),
    ...present('excerpt', renderContent(venue.excerpt)),
    ...present('slug', venue.slug),
    ...present('image', imageJson(venue.image)),
    ...present('address', venue.address),
    ...present('city', venue.city),
    ...present('country', venue.country),
    ...present('province', venue.province),
    ...present('state', venue.state),
    ...present('zip', venue.zip),
    ...present('phone', venue.phone),
    ...present('website', venue.website),
    ...present('stateprovince', venue.stateprovince),
    ...(venue.geoLat !== null && venue.geoLng !== null ? { geo_lat: venue.geoLat, geo_lng: venue.geoLng } : {}),
    ...(options.jsonLd ? { json_ld: venueJsonLd(links, venue) } : {}),
    show_map: venue.showMap,
    show_map_link: venue.showMapLink,
    global_id: id,
    global_id_lineage: globalIdLineage(id, venue.lineage),
  };
}

export function organizerJson(links: LinkBase, organizer: OrganizerRecord, options: LinkedPostJsonOptions = {}): OrganizerJson {
  const id = globalId(links, organizer.id);
  return {
    id: organizer.id,
    ...present('author', String(organizer.authorId)),
    status: organizer.status,
    ...postDates(organizer),
    url: postUrl(links, 'organizer', organizer),
    organizer: renderTitle(organizer.title),
    ...present('description', renderContent(organizer.description)),
    ...present('excerpt', renderContent(organizer.excerpt)),
    ...present('slug', organizer.slug),
    ...present('image', imageJson(organizer.image)),
    ...present('phone', organizer.phone),
    ...present('website', organizer.website),
    ...present('email', organizer.email),
    ...(options.jsonLd ? { json_ld: organizerJsonLd(links, organizer) } : {}),
    global_id: id,
    global_id_lineage: globalIdLineage(id, organizer.lineage),
  };
}

/** `{ key: value }`, or nothing when the value is empty: "", "0" or false (the reference's array_filter over the object). */
function present<K extends string, V extends string | object | false>(key: K, value: V): { [P in K]?: Exclude<V, false> } {
  const empty = value === '' || value === '0' || value === false;
  return empty ? {} : ({ [key]: value } as { [P in K]: Exclude<V, false> });
}
