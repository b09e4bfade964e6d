// schema.org JSON-LD of single reads (behaviour reference: "json_ld (single GET only)").
import type { CurrencyDefaults } from '../domain/cost';
import { costValues } from '../domain/cost';
import { plainText, renderContent } from '../domain/text';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../model/records';
import { formatOffset, resolveZone } from '../time/zone';
import { postUrl, type LinkBase } from './links';

/** A schema.org object. */
type Ld = { '@type': string; [key: string]: unknown };

export interface EventJsonLdInput {
  readonly links: LinkBase;
  readonly event: EventRecord;
  readonly venue: VenueRecord | undefined;
  readonly organizer: OrganizerRecord | undefined;
  readonly currency: CurrencyDefaults;
}

export function eventJsonLd({ links, event, venue, organizer, currency }: EventJsonLdInput): Ld {
  const url = postUrl(links, 'event', event);
  const out: Ld = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: plainText(event.title),
    description: plainText(event.excerpt || renderContent(event.description)).slice(0, 300),
    ...(event.image ? { image: event.image.url } : {}),
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(event.startLocal, event.startUtc, event.timezone),
    endDate: isoWithOffset(event.endLocal, event.endUtc, event.timezone),
  };
  if (venue) out.location = venueJsonLd(links, venue);
  if (organizer) out.organizer = organizerJsonLd(links, organizer);
  const numbers = costValues(event.cost).filter((x) => /^\d/.test(x));
  if (numbers.length > 0) {
    out.offers = {
      '@type': 'Offer',
      price: numbers[0],
      priceCurrency: event.currencyCode || currency.code,
      url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${(event.dateUtc ?? event.date).replace(' ', 'T')}+00:00`,
    };
  }
  out.performer = 'Organization';
  return out;
}

export function venueJsonLd(links: LinkBase, venue: VenueRecord): Ld {
  const address = compact({
    '@type': 'PostalAddress',
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: venue.stateprovince || venue.state || venue.province,
    postalCode: venue.zip,
    addressCountry: venue.country,
  });
  return compact({
    '@type': 'Place',
    name: plainText(venue.title),
    description: plainText(renderContent(venue.description)),
    image: venue.image?.url,
    url: postUrl(links, 'venue', venue),
    address: Object.keys(address).length > 1 ? address : undefined,
    geo: venue.geoLat !== null && venue.geoLng !== null
      ? { '@type': 'GeoCoordinates', latitude: venue.geoLat, longitude: venue.geoLng } : undefined,
    telephone: venue.phone,
    sameAs: venue.website,
  });
}

export function organizerJsonLd(links: LinkBase, organizer: OrganizerRecord): Ld {
  return compact({
    '@type': 'Person',
    name: plainText(organizer.title),
    description: plainText(renderContent(organizer.description)),
    image: organizer.image?.url,
    url: organizer.website || postUrl(links, 'organizer', organizer),
    telephone: organizer.phone,
    email: organizer.email,
    sameAs: organizer.website,
  });
}

/** "2026-09-12T20:00:00-04:00": the local wall clock with the zone's offset at that instant. */
function isoWithOffset(local: string, utcMs: number, timezone: string): string {
  const zone = resolveZone(timezone);
  const offset = zone ? zone.offsetAt(utcMs) : 0;
  return `${local.replace(' ', 'T')}${formatOffset(offset)}`;
}

function compact(obj: Ld): Ld {
  for (const [k, v] of Object.entries(obj)) if (v === undefined || v === '') delete obj[k];
  return obj;
}
