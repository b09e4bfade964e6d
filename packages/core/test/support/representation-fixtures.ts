// The calendar the representation tests share (event-representation.test.ts,
// post-representation.test.ts): a site with a venue, two organizers, a category and a tag.
import { POSTER, admin, as, makeCalendar } from '../helpers';

export const SITE = 'https://example.com';

export const API = `${SITE}/cal/events/v1`;

export const EVENT_KEYS = [
  'id', 'global_id', 'global_id_lineage', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url',
  'rest_url', 'title', 'description', 'excerpt', 'slug', 'image', 'all_day', 'start_date', 'start_date_details',
  'end_date', 'end_date_details', 'utc_start_date', 'utc_start_date_details', 'utc_end_date', 'utc_end_date_details',
  'timezone', 'timezone_abbr', 'cost', 'cost_details', 'website', 'show_map', 'show_map_link', 'hide_from_listings',
  'sticky', 'featured', 'categories', 'tags', 'venue', 'organizer', 'custom_fields',
];

/** A calendar at https://example.com with a venue, two organizers, a category and a tag. */
export async function setup() {
  const calendar = makeCalendar({ siteUrl: SITE, apiRoot: API });
  const venue = (await calendar.venues.create({
    venue: 'Blue Room', description: 'Basement club.', address: '1 Main St', city: 'Springfield', country: 'United States',
    province: 'Prov', state: 'IL', zip: '62701', phone: '+1 555 0100', website: 'https://blueroom.example',
    image: POSTER.id, geo_lat: 39.8, geo_lng: -89.65,
  }, as(admin))).value;
  const venue2 = (await calendar.venues.create({ venue: 'Red Room' }, as(admin))).value;
  const jane = (await calendar.organizers.create({
    organizer: 'Jane Doe', description: 'DJ.', phone: '+1 555 0199', website: 'https://jane.example', email: 'jane@example.com', image: POSTER.id,
  }, as(admin))).value;
  const john = (await calendar.organizers.create({ organizer: 'John Roe' }, as(admin))).value;
  const music = (await calendar.categories.create({ name: 'Live Music' }, as(admin))).value;
  const outdoor = (await calendar.tags.create({ name: 'Outdoor' }, as(admin))).value;
  return { calendar, venue, venue2, jane, john, music, outdoor };
}
