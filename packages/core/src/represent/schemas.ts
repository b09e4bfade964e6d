// The representations, declared once: valibot schemas from which the TypeScript types of
// every operation's result are inferred (the functions that render them are checked against
// these types), and from which the HTTP binding derives the response schemas of /doc. A key
// is required when every answer has it, optional when it is left out (empty venue and
// organizer fields, `json_ld` outside single reads), and nullable where redaction of a
// password-protected post puts null, [] or 0 in it (the reference's placeholders).
// Objects are strict (no key beyond those declared: /doc says `additionalProperties: false`)
// except the open ones (json_ld, an error's data, link objects).
import * as v from 'valibot';

const str = (description: string) => v.pipe(v.string(), v.description(description));
const int = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));
const num = (description: string) => v.pipe(v.number(), v.description(description));
/** A flag, or null in a redacted post. */
const flag = (description: string) => v.pipe(v.nullable(v.boolean()), v.description(description));
/** An array that is always empty. */
const empty = (description: string) => v.pipe(v.array(v.unknown()), v.maxLength(0), v.description(description));
/** `[]`: the placeholder of a redacted name. */
const EMPTY_LIST = empty('[] (a redacted field)');

export const imageSizeSchema = v.strictObject({
  width: v.optional(int('Width in pixels')),
  height: v.optional(int('Height in pixels')),
  'mime-type': v.optional(str('MIME type')),
  filesize: v.optional(int('File size in bytes')),
  url: str('URL of the size'),
});

export const imageSchema = v.strictObject({
  url: str('The image URL'),
  id: v.optional(int('The attachment ID')),
  extension: v.optional(str('The file extension')),
  width: v.optional(int('Width in pixels')),
  height: v.optional(int('Height in pixels')),
  filesize: v.optional(int('File size in bytes')),
  sizes: v.optional(v.record(v.string(), imageSizeSchema)),
});

export const dateDetailsSchema = v.strictObject({
  year: str('Four digits'), month: str('Two digits'), day: str('Two digits'),
  hour: str('Two digits'), minutes: str('Two digits'), seconds: str('Two digits'),
});

export const costDetailsSchema = v.strictObject({
  currency_symbol: str('The currency symbol'),
  currency_code: str('The ISO 4217 currency code'),
  currency_position: v.pipe(v.picklist(['', 'prefix', 'postfix']), v.description('Where the symbol goes')),
  values: v.pipe(v.array(v.string()), v.description('The cost values, sorted numerically')),
});

/** A term's addresses in the API. */
export const termUrlsSchema = v.strictObject({
  self: str('This term in the API'),
  collection: str('The term list'),
  up: v.optional(str('The parent term')),
});

/** A category or tag as an event embeds it (the raw WordPress term). */
export const embeddedTermSchema = v.strictObject({
  name: str('The term name'),
  slug: str('The term slug'),
  term_group: int('Always 0'),
  term_taxonomy_id: int('The term ID'),
  taxonomy: str('tribe_events_cat or post_tag'),
  description: str('The term description'),
  parent: int('The parent category (categories only)'),
  count: int('Published events using the term'),
  filter: v.pipe(v.literal('raw'), v.description('Always raw')),
  id: int('The term ID'),
  urls: termUrlsSchema,
});

/** A category or tag as the term routes answer it. */
export const termSchema = v.strictObject({
  id: int('The term ID'),
  count: int('Published events using the term'),
  description: str('The term description'),
  name: str('The term name'),
  slug: str('The term slug'),
  taxonomy: str('tribe_events_cat or post_tag'),
  parent: v.optional(int('The parent category (categories only)')),
  meta: empty('Always []'),
  url: str('The public archive URL'),
  urls: termUrlsSchema,
  _links: v.optional(v.pipe(v.record(v.string(), v.array(v.looseObject({ href: v.string() }))), v.description('Links to this term, its list, its parent and its events (single reads and writes)'))),
});

const postDateFields = {
  date: str('The publication date, site time, YYYY-MM-DD HH:MM:SS'),
  date_utc: str('The publication date in UTC (0000-00-00 00:00:00 for drafts never dated)'),
  modified: str('The last modification date, site time'),
  modified_utc: str('The last modification date in UTC'),
};
const globalIds = {
  global_id: str('The global ID: host and path of the site, then ?id=<id>'),
  global_id_lineage: v.pipe(v.array(v.string()), v.description('The global ID and those of the sources it was imported from')),
};
/** schema.org JSON-LD (single reads only). */
const jsonLd = (description: string) => v.optional(v.pipe(v.looseObject({ '@type': v.string() }), v.description(description)));

/** A venue: empty fields are left out. */
export const venueSchema = v.strictObject({
  id: int('The post ID'),
  author: v.optional(str('The author ID, as a string ("0" for none)')),
  status: str('The post status'),
  ...postDateFields,
  url: str('The public URL'),
  venue: v.pipe(v.union([v.string(), EMPTY_LIST]), v.description('The venue name ([] when redacted)')),
  description: v.optional(str('The description (HTML)')),
  excerpt: v.optional(str('The excerpt (HTML)')),
  slug: v.optional(str('The slug')),
  image: v.optional(v.union([imageSchema, v.literal(false)])),
  address: v.optional(str('Street address')),
  city: v.optional(str('City')),
  country: v.optional(str('Country')),
  province: v.optional(str('Province')),
  state: v.optional(str('State')),
  zip: v.optional(str('Postal code')),
  phone: v.optional(str('Phone')),
  website: v.optional(str('Website')),
  stateprovince: v.optional(str('State or province')),
  geo_lat: v.optional(num('Latitude')),
  geo_lng: v.optional(num('Longitude')),
  json_ld: jsonLd('schema.org Place (single reads only)'),
  show_map: flag('Events at the venue show a map'),
  show_map_link: flag('Events at the venue show a map link'),
  ...globalIds,
});

/** An organizer: empty fields are left out. */
export const organizerSchema = v.strictObject({
  id: int('The post ID'),
  author: v.optional(str('The author ID, as a string ("0" for none)')),
  status: str('The post status'),
  ...postDateFields,
  url: str('The public URL'),
  organizer: v.pipe(v.union([v.string(), EMPTY_LIST]), v.description('The organizer name ([] when redacted)')),
  description: v.optional(str('The description (HTML)')),
  excerpt: v.optional(str('The excerpt (HTML)')),
  slug: v.optional(str('The slug')),
  image: v.optional(v.union([imageSchema, v.literal(false)])),
  phone: v.optional(str('Phone')),
  website: v.optional(str('Website')),
  email: v.optional(str('E-mail address')),
  json_ld: jsonLd('schema.org Person (single reads only)'),
  ...globalIds,
});

export const eventSchema = v.strictObject({
  id: int('The post ID'),
  ...globalIds,
  author: str('The author ID, as a string ("0" for none)'),
  status: str('The post status'),
  ...postDateFields,
  url: str('The public URL'),
  rest_url: str('This event in the API'),
  title: str('The event title'),
  description: str('The description (HTML)'),
  excerpt: str('The excerpt (HTML)'),
  slug: str('The slug'),
  image: v.union([imageSchema, v.literal(false)]),
  all_day: flag('Whether the event lasts all day'),
  start_date: str('Local start, YYYY-MM-DD HH:MM:SS in the event time zone'),
  start_date_details: dateDetailsSchema,
  end_date: str('Local end'),
  end_date_details: dateDetailsSchema,
  utc_start_date: str('Start in UTC'),
  utc_start_date_details: dateDetailsSchema,
  utc_end_date: str('End in UTC'),
  utc_end_date_details: dateDetailsSchema,
  timezone: str('The event time zone'),
  timezone_abbr: str('The zone abbreviation at the start'),
  cost: str('The display cost'),
  cost_details: costDetailsSchema,
  website: str('The event website (the event URL when never set)'),
  show_map: flag('Show a map'),
  show_map_link: flag('Show a map link'),
  hide_from_listings: flag('Hidden from event lists'),
  sticky: flag('Sticky in the calendar view'),
  featured: flag('Featured'),
  categories: v.array(embeddedTermSchema),
  tags: v.array(embeddedTermSchema),
  venue: v.pipe(v.union([venueSchema, v.array(venueSchema)]), v.description('One venue as an object; none as []; several as a list')),
  organizer: v.array(organizerSchema),
  custom_fields: empty('Always []'),
  ticketed: v.optional(flag('Whether the event sells tickets (when an app supplies ticketing)')),
  recurrence: v.optional(v.pipe(v.object({
    rrule: str('The RRULE (RFC 5545), without DTSTART; "" for a series of RDATEs alone'),
    rdate: v.array(str('An extra start, local wall clock')),
    exdate: v.array(str('A start left out: local wall clock, or a date for the whole day')),
  }), v.description('A series (docs/recurrence.md): its rule. Lists show its occurrences instead of it'))),
  post_parent: v.optional(int('An occurrence: the id of its series')),
  occurrence: v.optional(v.pipe(v.object({
    original_start_date: str('The start its series gives it (RECURRENCE-ID), local wall clock'),
    exception: flag('Whether it was changed on its own'),
  }), v.description('An occurrence of a series (docs/recurrence.md)'))),
  json_ld: jsonLd('schema.org Event (single reads only)'),
});

const listFields = {
  rest_url: str('This page'),
  next_rest_url: v.optional(str('The next page')),
  previous_rest_url: v.optional(str('The previous page')),
  total: int('Items in all pages'),
  total_pages: int('Pages'),
};

export const eventListSchema = v.strictObject({ events: v.array(eventSchema), ...listFields });
export const venueListSchema = v.strictObject({ venues: v.array(venueSchema), ...listFields });
export const organizerListSchema = v.strictObject({ organizers: v.array(organizerSchema), ...listFields });
export const categoryListSchema = v.strictObject({ categories: v.array(termSchema), ...listFields });
export const tagListSchema = v.strictObject({ tags: v.array(termSchema), ...listFields });

/** An error, as every route answers one. */
export const errorSchema = v.strictObject({
  code: str('What went wrong, as a stable code (rest_invalid_param, rest-event-not-found…)'),
  message: str('What went wrong, in the language of the address'),
  data: v.looseObject({ status: int('The HTTP status') }),
});

export type ImageJson = v.InferOutput<typeof imageSchema>;
export type EmbeddedTermJson = v.InferOutput<typeof embeddedTermSchema>;
export type TermJson = v.InferOutput<typeof termSchema>;
export type VenueJson = v.InferOutput<typeof venueSchema>;
export type OrganizerJson = v.InferOutput<typeof organizerSchema>;
export type EventJson = v.InferOutput<typeof eventSchema>;
export type EventListJson = v.InferOutput<typeof eventListSchema>;
export type VenueListJson = v.InferOutput<typeof venueListSchema>;
export type OrganizerListJson = v.InferOutput<typeof organizerListSchema>;
export type CategoryListJson = v.InferOutput<typeof categoryListSchema>;
export type TagListJson = v.InferOutput<typeof tagListSchema>;
export type ErrorJson = v.InferOutput<typeof errorSchema>;

/** The schemas of the representations, by the names /doc gives them. */
export const REPRESENTATIONS = {
  ImageSize: imageSizeSchema,
  Image: imageSchema,
  DateDetails: dateDetailsSchema,
  CostDetails: costDetailsSchema,
  Event: eventSchema,
  Venue: venueSchema,
  Organizer: organizerSchema,
  Term: termSchema,
  EmbeddedTerm: embeddedTermSchema,
  EventList: eventListSchema,
  VenueList: venueListSchema,
  OrganizerList: organizerListSchema,
  CategoryList: categoryListSchema,
  TagList: tagListSchema,
  Error: errorSchema,
} as const;
