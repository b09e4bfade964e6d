// The event object (behaviour reference: "Event object"), in the reference's key order, with its venues,
// organizers and terms embedded.
import type { CurrencyDefaults } from '../domain/cost';
import { costDetails, costValues, displayCost } from '../domain/cost';
import { renderContent, renderTitle } from '../domain/text';
import type { EventRecord, OrganizerRecord, TermRecord, VenueRecord } from '../model/records';
import type { CountedTerm } from '../query/query-types';
import { dateDetails, formatUtc } from '../time/wall-clock';
import { imageJson } from './image-json';
import { eventJsonLd } from './json-ld';
import { organizerJson, venueJson } from './linked-post-json';
import { eventRestUrl, globalId, globalIdLineage, postUrl, type LinkBase } from './links';
import { postDates } from './post-dates';
import { redactProtected } from './redact';
import type { EmbeddedTermJson, EventJson, OrganizerJson, VenueJson } from './schemas';
import { embeddedTermJson } from './term-json';

export type { EventJson };

/** The records an event page embeds, loaded in a constant number of storage calls. */
export interface Related {
  readonly venues: ReadonlyMap<number, VenueRecord>;
  readonly organizers: ReadonlyMap<number, OrganizerRecord>;
  readonly categories: ReadonlyMap<number, CountedTerm<TermRecord>>;
  readonly tags: ReadonlyMap<number, CountedTerm<TermRecord>>;
}

export interface EventJsonOptions {
  readonly links: LinkBase;
  readonly related: Related;
  readonly currency: CurrencyDefaults;
  /** Whether this caller sees a protected post in full (password given, or may edit it). */
  readonly unlocked: (kind: 'event' | 'venue' | 'organizer', post: EventRecord | VenueRecord | OrganizerRecord) => boolean;
  /** Whether this caller may see a linked venue or organizer at all; others are left out. */
  readonly visible: (kind: 'venue' | 'organizer', post: VenueRecord | OrganizerRecord) => boolean;
  /** Add the `ticketed` key (an app supplies ticketing). */
  readonly ticketed?: (event: EventRecord) => boolean;
  /** Single GET: add `json_ld` (and never redact: refused upstream instead). */
  readonly jsonLd?: boolean;
  /** Single GET: embedded venues and organizers carry their own `json_ld` (when shown in full). */
  readonly embeddedJsonLd?: boolean;
}

export function eventJson(event: EventRecord, options: EventJsonOptions): EventJson {
  const { links, related } = options;
  const utcStart = formatUtc(event.startUtc);
  const utcEnd = formatUtc(event.endUtc);
  const gid = globalId(links, event.id);
  const url = postUrl(links, 'event', event);
  const values = costValues(event.cost);
  const venues = event.venueIds.flatMap((id) => {
    const v = related.venues.get(id);
    return v && options.visible('venue', v) ? [embedded('venue', (o) => venueJson(links, v, o), v, options)] : [];
  });
  const organizers = event.organizerIds.flatMap((id) => {
    const o = related.organizers.get(id);
    return o && options.visible('organizer', o) ? [embedded('organizer', (x) => organizerJson(links, o, x), o, options)] : [];
  });
  const out: EventJson = {
    id: event.id,
    global_id: gid,
    global_id_lineage: globalIdLineage(gid, event.lineage),
    author: String(event.authorId),
    status: event.status,
    ...postDates(event),
    url,
    rest_url: eventRestUrl(links, event.id),
    title: renderTitle(event.title),
    description: renderContent(event.description),
    excerpt: renderContent(event.excerpt),
    slug: event.slug,
    image: imageJson(event.image),
    all_day: event.allDay,
    start_date: event.startLocal,
    start_date_details: dateDetails(event.startLocal),
    end_date: event.endLocal,
    end_date_details: dateDetails(event.endLocal),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
    timezone: event.timezone,
    timezone_abbr: event.timezoneAbbr,
    cost: displayCost(event.cost, event.currencySymbol, event.currencyPosition, options.currency, values),
    cost_details: costDetails(event.cost, event.currencySymbol, event.currencyPosition, event.currencyCode, values),
    website: event.website ?? url,
    show_map: event.showMap,
    show_map_link: event.showMapLink,
    hide_from_listings: event.hideFromListings,
    sticky: event.sticky,
    featured: event.featured,
    categories: embeddedTerms('category', event.categoryIds, related.categories, links),
    tags: embeddedTerms('tag', event.tagIds, related.tags, links),
    venue: venues.length === 1 ? venues[0]! : venues,
    organizer: organizers,
    custom_fields: [],
  };
  if (options.ticketed) out.ticketed = options.ticketed(event);
  if (event.recurrence) out.recurrence = { rrule: event.recurrence.rrule, rdate: [...event.recurrence.rdate], exdate: [...event.recurrence.exdate] };
  if (event.occurrence) {
    out.post_parent = event.parentId;
    out.occurrence = { original_start_date: event.occurrence.originalStart, exception: event.occurrence.overrides !== undefined };
  }
  if (options.jsonLd) {
    out.json_ld = eventJsonLd({
      links, event, currency: options.currency,
      venue: event.venueIds.map((id) => related.venues.get(id)).find((v) => v !== undefined && options.visible('venue', v)),
      organizer: event.organizerIds.map((id) => related.organizers.get(id)).find((o) => o !== undefined && options.visible('organizer', o)),
    });
    return out;
  }
  return event.password !== '' && !options.unlocked('event', event) ? redactProtected(out) : out;
}

/** The ids an event page needs loaded to embed its venues, organizers and terms. */
export function relatedIds(events: readonly EventRecord[]) {
  const collect = (pick: (e: EventRecord) => readonly number[]) => [...new Set(events.flatMap(pick))];
  return {
    venues: collect((e) => e.venueIds),
    organizers: collect((e) => e.organizerIds),
    categories: collect((e) => e.categoryIds),
    tags: collect((e) => e.tagIds),
  };
}

// ---- helpers ----

/** An embedded venue or organizer: redacted when protected, else with `json_ld` on a single GET (as on its own). */
function embedded<J extends VenueJson | OrganizerJson>(
  kind: 'venue' | 'organizer', render: (o: { jsonLd?: boolean }) => J, post: VenueRecord | OrganizerRecord, options: EventJsonOptions,
): J {
  if (post.password !== '' && !options.unlocked(kind, post)) return redactProtected(render({}));
  return render(options.embeddedJsonLd ? { jsonLd: true } : {});
}

/** WordPress's order of a post's terms: by name, case- and accent-insensitively (one collator for every call). */
const byName = new Intl.Collator('en', { sensitivity: 'base' });

/** Terms in the order WordPress gives a post's terms: by name. */
function embeddedTerms(
  taxonomy: 'category' | 'tag', ids: readonly number[], terms: ReadonlyMap<number, CountedTerm<TermRecord>>, links: LinkBase,
): EmbeddedTermJson[] {
  return ids
    .flatMap((id) => {
      const t = terms.get(id);
      return t ? [t] : [];
    })
    .sort((a, b) => byName.compare(a.term.name, b.term.name) || a.term.id - b.term.id)
    .map((t) => embeddedTermJson(links, taxonomy, t.term, t.count));
}
