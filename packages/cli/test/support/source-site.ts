// The site the end-to-end migration tests move: one of everything the reference can show
// (statuses, zones, all-day, costs, flags, images, links, a protected and a hidden event, a
// lineage from an earlier move), plus enough events for several pages; and the reads a
// client makes, compared between two servers.
import { expect } from 'vitest';

export const NOW = '2026-11-22T06:30:00Z';
export const ADMIN_TOKEN = 'tok-admin';
export const LAYOUT = ['--base-path', '/wp-json', '--namespace', 'tribe/events/v1'];
export const API_PATH = '/wp-json/tribe/events/v1';

/** How many generated events, besides the hand-written ones: three pages of 50 in all. */
const MANY = 120;

export function sourceDataset() {
  const day = (i: number) => `2027-${String(1 + Math.floor(i / 28)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  return {
    categories: [
      { id: 3, name: 'Jazz', slug: 'jazz', parent: 5, description: 'Swing & bop' },
      { id: 5, name: 'Music', slug: 'music' },
      { id: 7, name: 'Rock & Roll', slug: 'rock-and-roll', description: '' },
      { id: 9, name: 'Empty', slug: 'empty' },
    ],
    tags: [{ id: 4, name: 'family', slug: 'family' }, { id: 6, name: 'Outdoor Fun', slug: 'outdoor-fun', description: 'Outside' }],
    venues: [
      { id: 10, venue: 'Main Hall', status: 'publish', address: '1 Main Street', city: 'Springfield', state: 'IL', country: 'United States', zip: '62701', phone: '+1 555 0100', website: 'https://mainhall.example.com', description: '<p>The big hall.</p>' },
      { id: 11, venue: 'Riverside Park', status: 'publish', city: 'London', country: 'United Kingdom', province: 'Greater London', show_map: false, geo_lat: 51.5, geo_lng: -0.12 },
      { id: 12, venue: 'Back Room', status: 'draft' },
    ],
    organizers: [
      { id: 20, organizer: 'Acme Events', status: 'publish', email: 'hello@acme.example.com', phone: '+1 555 0199', website: 'https://acme.example.com' },
      { id: 21, organizer: 'City Council', status: 'publish', password: 'council' },
      { id: 22, organizer: 'Bad Email Org', status: 'pending', email: 'not-an-email' },
    ],
    events: [
      { id: 30, title: 'Past Workshop', status: 'publish', start_date: '2026-10-15 09:00:00', end_date: '2026-10-15 17:00:00', timezone: 'UTC', cost: '$10', website: 'https://past.example.com', categories: [3], tags: [4], venue: [10], organizer: [20], excerpt: 'Past one' },
      { id: 31, title: "It's <Big> & Loud", status: 'publish', start_date: '2026-11-22 18:00:00', end_date: '2026-11-22 20:00:00', timezone: 'UTC', featured: true, sticky: true, categories: [7, 5], venue: [11], organizer: [21, 20] },
      { id: 32, title: 'Winter Festival', status: 'publish', all_day: true, start_date: '2026-12-05', end_date: '2026-12-06', timezone: 'UTC', cost: ['0$', '20$', '30$'], tags: [4, 6], image: { url: 'https://img.example.org/uploads/poster.jpg', id: 345, width: 1200, height: 800, sizes: { medium: { url: 'https://img.example.org/uploads/poster-300x200.jpg', width: 300, height: 200, 'mime-type': 'image/jpeg' } } } },
      { id: 33, title: 'New York Gala', status: 'publish', start_date: '2026-12-10 19:00:00', end_date: '2026-12-10 23:00:00', timezone: 'America/New_York', cost: '€ 25', website: '', venue: [12] },
      { id: 34, title: 'Draft Planning Session', status: 'draft', start_date: '2027-01-20 10:00:00', end_date: '2027-01-20 11:00:00', timezone: 'UTC', date_utc: null },
      { id: 35, title: 'Pending Review', status: 'pending', start_date: '2027-01-21 10:00:00', end_date: '2027-01-21 11:00:00', timezone: 'Europe/Rome', organizer: [22] },
      { id: 36, title: 'Board Meeting', status: 'private', start_date: '2027-01-22 10:00:00', end_date: '2027-01-22 11:00:00', timezone: 'UTC+2', cost: 'Donation' },
      { id: 37, title: 'Cancelled Gig', status: 'trash', start_date: '2027-01-23 10:00:00', end_date: '2027-01-23 11:00:00', timezone: 'UTC' },
      { id: 38, title: 'Members Night', status: 'publish', password: 'members', start_date: '2026-12-12 20:00:00', end_date: '2026-12-12 23:00:00', timezone: 'UTC', description: 'Secret.', cost: '$5', venue: [10] },
      { id: 39, title: 'Hidden Gala', status: 'publish', hide_from_listings: true, start_date: '2026-12-20 20:00:00', end_date: '2026-12-20 23:00:00', timezone: 'UTC', categories: [5] },
      { id: 40, title: 'Imported Before', status: 'publish', start_date: '2026-12-21 20:00:00', end_date: '2026-12-21 23:00:00', timezone: 'UTC', global_id_lineage: ['old.example.org?id=3'] },
      ...Array.from({ length: MANY }, (_, i) => ({
        id: 100 + i, title: `Concert ${i}`, status: 'publish', timezone: i % 3 === 0 ? 'Europe/Berlin' : 'UTC',
        start_date: `${day(i)} 20:00:00`, end_date: `${day(i)} 22:30:00`, categories: [i % 2 ? 3 : 7], tags: i % 4 ? [] : [6],
        venue: [10 + (i % 2)], organizer: [20], cost: i % 5 ? `$${i}` : '',
      })),
    ],
  };
}

/** Every read a client of the site makes: lists with their filters and pages, and every record singly. */
export function clientReads(dataset = sourceDataset()): string[] {
  const wide = 'start_date=1900-01-01&end_date=2999-12-31';
  const reads = [
    '', '/doc',
    '/events', '/events?page=2', `/events?per_page=50&${wide}`, `/events?per_page=50&${wide}&page=2`, `/events?per_page=50&${wide}&page=3`,
    `/events?per_page=50&${wide}&page=4`, `/events?${wide}&status=publish,future,draft,pending,private,trash&per_page=50`,
    '/events?featured=true', '/events?categories=music', '/events?tags=outdoor-fun', '/events?venue=11', '/events?organizer=21',
    '/events?search=gala', `/events?${wide}&starts_after=2026-12-01&per_page=5`,
    '/venues', '/venues?status=draft', '/venues?has_events=true', '/organizers', '/organizers?per_page=2&page=2',
    '/categories', '/categories?hide_empty=false', '/categories?orderby=count&order=desc', '/categories?parent=5', '/tags', '/tags?per_page=1&page=2',
  ];
  for (const e of dataset.events) reads.push(`/events/${e.id}`, `/events/${e.id}?context=edit`);
  for (const e of dataset.events.slice(0, 12)) reads.push(`/events/by-slug/${slugOf(e.title)}`);
  for (const v of dataset.venues) reads.push(`/venues/${v.id}`, `/venues/${v.id}?context=edit`);
  for (const o of dataset.organizers) reads.push(`/organizers/${o.id}`, `/organizers/${o.id}?context=edit`);
  for (const t of dataset.categories) reads.push(`/categories/${t.id}`);
  for (const t of dataset.tags) reads.push(`/tags/${t.id}`);
  return reads;
}

export interface Read {
  readonly status: number;
  readonly total: string | null;
  readonly body: string;
}

/** A read as a client sees it; the origin replaced, so two servers' answers compare. */
export async function read(origin: string, path: string, admin: boolean, form: 'pretty' | 'rest_route' = 'pretty'): Promise<Read> {
  const [route, query] = path.split('?') as [string, string | undefined];
  const url = form === 'pretty'
    ? `${origin}${API_PATH}${route}${query ? `?${query}` : ''}`
    : `${origin}/?rest_route=/tribe/events/v1${route}${query ? `&${query}` : ''}`;
  const res = await fetch(url, { headers: admin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {} });
  return { status: res.status, total: res.headers.get('x-tec-total'), body: (await res.text()).replaceAll(origin, 'ORIGIN') };
}

/** Every client read answers the same on both servers, anonymous and as an administrator. */
export async function expectSameReads(source: string, target: string, reads: readonly string[], form: 'pretty' | 'rest_route' = 'pretty'): Promise<void> {
  const all = [false, true].flatMap((admin) => reads.map((path) => ({ admin, path })));
  let found = 0;
  // A few at a time: the servers run in other processes on a small machine.
  for (let i = 0; i < all.length; i += 8) {
    await Promise.all(all.slice(i, i + 8).map(async ({ admin, path }) => {
      const [want, got] = await Promise.all([read(source, path, admin), read(target, path, admin, form)]);
      expect(got, `${admin ? 'admin' : 'anonymous'} GET ${path} (${form})`).toEqual(want);
      if (want.status === 200) found++;
    }));
  }
  // Equal refusals prove little: most reads must find what they ask for.
  expect(found).toBeGreaterThan(all.length * 0.7);
}

/** The lists and every fourth single read: enough to show the ?rest_route= form answers as the pretty one. */
export function sampleReads(reads: readonly string[]): string[] {
  return reads.filter((path, i) => !/\/\d+(\?|$)/.test(path) || i % 4 === 0);
}

function slugOf(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
