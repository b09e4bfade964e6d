// The response shapes of /doc's `components.schemas` (behaviour.md §1), with the names the
// reference uses. They describe what evcal returns (date details are strings, `venue` is an
// object or a list, empty venue and organizer fields are left out).

const str = (description: string) => ({ type: 'string', description });
const int = (description: string) => ({ type: 'integer', description });
const bool = (description: string) => ({ type: 'boolean', description });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const POST_FIELDS = {
  id: int('The post ID'),
  author: str('The author ID, as a string ("0" for none)'),
  status: str('The post status'),
  date: str('The publication date, site time, YYYY-MM-DD HH:MM:SS'),
  date_utc: str('The publication date in UTC (0000-00-00 00:00:00 for drafts never dated)'),
  modified: str('The last modification date, site time'),
  modified_utc: str('The last modification date in UTC'),
  url: str('The public URL'),
  description: str('The description (HTML)'),
  excerpt: str('The excerpt (HTML)'),
  slug: str('The slug'),
  global_id: str('The global ID: host and path of the site, then ?id=<id>'),
  global_id_lineage: { type: 'array', items: { type: 'string' }, description: 'The global ID and those of the sources it was imported from' },
};

export const COMPONENTS: Record<string, unknown> = {
  ImageSize: {
    type: 'object',
    properties: { width: int('Width in pixels'), height: int('Height in pixels'), 'mime-type': str('MIME type'), url: str('URL of the size') },
  },
  CostDetails: {
    type: 'object',
    properties: {
      currency_symbol: str('The currency symbol'),
      currency_code: str('The ISO 4217 currency code'),
      currency_position: { type: 'string', enum: ['', 'prefix', 'postfix'], description: 'Where the symbol goes' },
      values: { type: 'array', items: { type: 'string' }, description: 'The cost values, sorted numerically' },
    },
  },
  Term: {
    type: 'object',
    properties: {
      id: int('The term ID'), name: str('The term name'), slug: str('The term slug'), taxonomy: str('tribe_events_cat or post_tag'),
      description: str('The term description'), parent: int('The parent category (categories only)'),
      count: int('Published events using the term'), url: str('The public archive URL'),
      urls: { type: 'object', properties: { self: str('This term in the API'), collection: str('The term list'), up: str('The parent term') } },
    },
  },
  Image: {
    type: 'object',
    properties: {
      url: str('The image URL'), id: int('The attachment ID'), extension: str('The file extension'),
      width: int('Width in pixels'), height: int('Height in pixels'),
      sizes: { type: 'object', additionalProperties: ref('ImageSize') },
    },
  },
  DateDetails: {
    type: 'object',
    properties: {
      year: str('Four digits'), month: str('Two digits'), day: str('Two digits'),
      hour: str('Two digits'), minutes: str('Two digits'), seconds: str('Two digits'),
    },
  },
  Event: {
    type: 'object',
    properties: {
      ...POST_FIELDS,
      rest_url: str('This event in the API'),
      title: str('The event title'),
      image: { oneOf: [ref('Image'), { type: 'boolean', enum: [false] }] },
      all_day: bool('Whether the event lasts all day'),
      start_date: str('Local start, YYYY-MM-DD HH:MM:SS in the event time zone'),
      start_date_details: ref('DateDetails'),
      end_date: str('Local end'),
      end_date_details: ref('DateDetails'),
      utc_start_date: str('Start in UTC'),
      utc_start_date_details: ref('DateDetails'),
      utc_end_date: str('End in UTC'),
      utc_end_date_details: ref('DateDetails'),
      timezone: str('The event time zone'),
      timezone_abbr: str('The zone abbreviation at the start'),
      cost: str('The display cost'),
      cost_details: ref('CostDetails'),
      website: str('The event website (the event URL when never set)'),
      show_map: bool('Show a map'),
      show_map_link: bool('Show a map link'),
      hide_from_listings: bool('Hidden from event lists'),
      sticky: bool('Sticky in the calendar view'),
      featured: bool('Featured'),
      categories: { type: 'array', items: ref('Term') },
      tags: { type: 'array', items: ref('Term') },
      venue: { oneOf: [ref('Venue'), { type: 'array', items: ref('Venue') }], description: 'One venue as an object; none as []; several as a list' },
      organizer: { type: 'array', items: ref('Organizer') },
      custom_fields: { type: 'array', items: {} },
      json_ld: { type: 'object', description: 'schema.org Event (single reads only)' },
    },
  },
  Venue: {
    type: 'object',
    properties: {
      ...POST_FIELDS,
      venue: str('The venue name'),
      image: ref('Image'),
      address: str('Street address'), city: str('City'), country: str('Country'), province: str('Province'),
      state: str('State'), zip: str('Postal code'), phone: str('Phone'), website: str('Website'),
      stateprovince: str('State or province'),
      geo_lat: { type: 'number', description: 'Latitude' },
      geo_lng: { type: 'number', description: 'Longitude' },
      show_map: bool('Events at the venue show a map'),
      show_map_link: bool('Events at the venue show a map link'),
    },
  },
  Organizer: {
    type: 'object',
    properties: {
      ...POST_FIELDS,
      organizer: str('The organizer name'),
      image: ref('Image'),
      phone: str('Phone'), website: str('Website'), email: str('E-mail address'),
    },
  },
};
