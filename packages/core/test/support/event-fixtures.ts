// Fixtures of the event write tests (event-create.test.ts, event-update.test.ts): a calendar with
// linked records to point events at, and an event with every optional field set.
import type { Calendar } from '@evcal/core';
import { POSTER, admin, as, makeCalendar } from '../helpers';

type Created<K extends 'events' | 'venues' | 'organizers' | 'categories' | 'tags'> = Awaited<ReturnType<Calendar[K]['create']>>['value'];

/** What `setup` makes. */
export interface Fixture {
  readonly calendar: Calendar;
  readonly venue: Created<'venues'>;
  readonly venue2: Created<'venues'>;
  readonly org1: Created<'organizers'>;
  readonly org2: Created<'organizers'>;
  readonly category: Created<'categories'>;
  readonly tag: Created<'tags'>;
}

/** A calendar with one venue, two organizers, a category and a tag. */
export async function setup(): Promise<Fixture> {
  const calendar = makeCalendar();
  const venue = (await calendar.venues.create({ venue: 'Blue Room', city: 'Springfield' }, as(admin))).value;
  const venue2 = (await calendar.venues.create({ venue: 'Red Room', city: 'Shelbyville' }, as(admin))).value;
  const org1 = (await calendar.organizers.create({ organizer: 'Jane Doe' }, as(admin))).value;
  const org2 = (await calendar.organizers.create({ organizer: 'John Roe' }, as(admin))).value;
  const category = (await calendar.categories.create({ name: 'Live Music' }, as(admin))).value;
  const tag = (await calendar.tags.create({ name: 'Outdoor' }, as(admin))).value;
  return { calendar, venue, venue2, org1, org2, category, tag };
}

/** An event with every optional field set to a non-default value. */
export async function fullEvent(): Promise<Fixture & { readonly event: Created<'events'> }> {
  const s = await setup();
  const event = (await s.calendar.events.create({
    title: 'Jazz Night',
    description: 'Live quartet.',
    excerpt: 'Short version.',
    slug: 'jazz-special',
    status: 'draft',
    author: 2,
    date: '2026-11-20 10:00:00',
    start_date: '2026-12-01 20:00:00',
    end_date: '2026-12-01 23:00:00',
    timezone: 'Europe/Rome',
    all_day: true,
    image: POSTER.id,
    cost: '$15',
    website: 'https://jazz.example',
    show_map: true,
    show_map_link: true,
    hide_from_listings: true,
    sticky: true,
    featured: true,
    categories: [s.category.id],
    tags: [s.tag.id],
    venue: s.venue.id,
    organizer: [s.org1.id, s.org2.id],
  }, as(admin))).value;
  return { ...s, event };
}

export const EMPTY_COST_DETAILS = { currency_symbol: '', currency_code: '', currency_position: '', values: [] };
