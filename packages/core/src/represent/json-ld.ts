// schema.org JSON-LD of single reads (behaviour reference: "json_ld (single GET only)").
import type { CurrencyDefaults } from '../domain/cost';
import { costValues } from '../domain/cost';
import { decodedText, plainText, renderContent } from '../domain/text';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../model/records';
import { ruleParts, untilInstant } from '../recurrence/expand';
import { formatWall, parseWall } from '../time/wall-clock';
import { formatOffset, instantToWall, resolveZone, wallToInstant } from '../time/zone';
import { postUrl, type LinkBase } from './links';
import type { EventJson } from './schemas';

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
  const schedule = event.recurrence ? eventSchedule(event) : undefined;
  if (schedule) out.eventSchedule = schedule;
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

/**
 * The JSON-LD of an event's public page: the API's `json_ld` (built above, as the reference
 * builds it) made to meet Google's event rich-result rules where the reference's form falls
 * short: the https vocabulary, texts with their character references decoded (`&#8211;` is
 * a dash), every organizer the event shows (not the first alone), an offer's currency read
 * from the cost's own symbol where it names one currency (`€15` is EUR, not the site's
 * default), its availability as a schema.org term (`InStock`, not `inStock`), and no
 * `performer` (the reference's literal "Organization" names nobody). Undefined when the event
 * carries no `json_ld` (a read that may not show it).
 */
export function eventPageJsonLd(event: EventJson): Ld | undefined {
  const ld = event.json_ld;
  if (!ld) return undefined;
  const { performer: _nobody, ...page } = ld;
  const organizers = event.organizer.flatMap((o) => (o.json_ld ? [o.json_ld] : []));
  const offers = page.offers as Record<string, unknown> | undefined;
  const text = (key: string) => (typeof page[key] === 'string' ? { [key]: decodedText(page[key]) } : {});
  return {
    ...page,
    '@context': 'https://schema.org',
    ...text('name'),
    ...text('description'),
    ...(organizers.length > 1 ? { organizer: organizers } : {}),
    ...(offers ? {
      offers: { ...offers, priceCurrency: currencyOf(event.cost_details) ?? offers.priceCurrency, availability: 'https://schema.org/InStock' },
    } : {}),
  };
}

/** Symbols that name one currency (`$` names many). */
const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { '€': 'EUR', '£': 'GBP', '₹': 'INR', '₩': 'KRW', '₪': 'ILS', '₺': 'TRY', '₽': 'RUB', '₴': 'UAH', 'Fr.': 'CHF', 'CHF': 'CHF' };

/** The ISO 4217 code of an event's cost: its own code, else what its symbol names (`EUR`, `€`), else none. */
function currencyOf(details: EventJson['cost_details']): string | undefined {
  if (details.currency_code) return details.currency_code;
  const symbol = details.currency_symbol.trim();
  return CURRENCY_SYMBOLS[symbol] ?? (/^[A-Z]{3}$/.test(symbol) ? symbol : undefined);
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

const DAYS: Record<string, string> = {
  MO: 'Monday', TU: 'Tuesday', WE: 'Wednesday', TH: 'Thursday', FR: 'Friday', SA: 'Saturday', SU: 'Sunday',
};
const PERIODS: Record<string, string> = { DAILY: 'D', WEEKLY: 'W', MONTHLY: 'M', YEARLY: 'Y' };

/**
 * schema.org `Schedule` of a series (docs/recurrence.md): how often, on which days, from
 * when to when, in which zone. Rules with parts a Schedule cannot say (BYSETPOS, BYWEEKNO,
 * BYYEARDAY) and series of RDATEs alone have none: a Schedule that says less would be wrong.
 */
export function eventSchedule(event: EventRecord): Ld | undefined {
  const rec = event.recurrence!;
  if (rec.rrule === '') return undefined;
  const parts = ruleParts(rec.rrule);
  if (['BYSETPOS', 'BYWEEKNO', 'BYYEARDAY', 'BYHOUR', 'BYMINUTE', 'BYSECOND'].some((p) => parts.has(p))) return undefined;
  const numbers = (name: string) => parts.get(name)?.split(',').map(Number);
  const days = parts.get('BYDAY')?.split(',').map((d) => (DAYS[d] ? `https://schema.org/${DAYS[d]}` : d));
  const until = parts.get('UNTIL');
  const zone = resolveZone(event.timezone);
  const seconds = Math.max(0, Math.round((event.endUtc - event.startUtc) / 1000));
  return compact({
    '@type': 'Schedule',
    repeatFrequency: `P${parts.get('INTERVAL') ?? '1'}${PERIODS[parts.get('FREQ')!]}`,
    byDay: days && (days.length === 1 ? days[0] : days),
    byMonth: numbers('BYMONTH'),
    byMonthDay: numbers('BYMONTHDAY'),
    repeatCount: parts.has('COUNT') ? Number(parts.get('COUNT')) : undefined,
    startDate: event.startLocal.slice(0, 10),
    endDate: until && zone ? formatWall(instantToWall(untilInstant(until, zone), zone)).slice(0, 10) : undefined,
    ...(event.allDay ? {} : { startTime: event.startLocal.slice(11), endTime: event.endLocal.slice(11), duration: `PT${seconds}S` }),
    exceptDate: rec.exdate.length ? rec.exdate.map((x) => (x.length === 10 ? x : isoWithOffset(x, wallToInstant(parseWall(x)!, zone ?? resolveZone('UTC')!), event.timezone))) : undefined,
    scheduleTimezone: zone && !zone.fixed ? event.timezone : undefined,
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
