// A calendar for the tests of the record pages: one event with everything a page shows (an
// image, a cost, two organizers, a venue with an address and coordinates, a category, a
// tag, HTML in its description, some of it hostile), a dozen more at one venue (two pages of
// upcoming events), and one event in each state no visitor may see.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUT } from './browser';
import { startServe, type Running } from './serve-process';

/** The clock of the seeded server: 2 December 2026, Rome. */
export const NOW = '2026-12-02T10:00:00Z';

const later = (day: number, title: string) => ({
  id: 400 + day, title, status: 'publish', timezone: 'Europe/Rome', venue: [101], categories: [11],
  start_date: `2026-12-${String(day).padStart(2, '0')} 21:00:00`, end_date: `2026-12-${String(day).padStart(2, '0')} 23:00:00`,
});

export const PAGES_DATASET = {
  categories: [{ id: 10, name: 'Music', slug: 'music', description: 'Concerts and <em>jams</em>' }, { id: 11, name: 'Theatre', slug: 'theatre' }],
  tags: [{ id: 20, name: 'Outdoor', slug: 'outdoor' }],
  venues: [
    {
      id: 100, venue: 'Blue Room', status: 'publish', address: 'Via Roma 1', city: 'Rome', stateprovince: 'RM', zip: '00184', country: 'Italy',
      geo_lat: 41.9, geo_lng: 12.5, phone: '+39 06 1234', website: 'https://blueroom.example', show_map_link: true,
    },
    { id: 101, venue: 'Old Barn', status: 'publish', address: 'Strada 2', city: 'Turin', zip: '10121', country: 'Italy' },
    { id: 102, venue: 'Hidden Cellar', status: 'draft', slug: 'hidden-cellar' },
  ],
  organizers: [
    { id: 200, organizer: 'Ada Jazz Club', status: 'publish', website: 'https://ada.example', email: 'ada@example.com' },
    { id: 201, organizer: 'Bea Booker', status: 'publish' },
  ],
  events: [
    {
      id: 300, title: 'Jazz Night &#8211; Live', slug: 'jazz-night', status: 'publish', timezone: 'Europe/Rome', start_date: '2026-12-04 20:00:00', end_date: '2026-12-04 23:00:00',
      categories: [10], tags: [20], venue: [100], organizer: [200, 201], cost: '€15', show_map_link: true,
      image: { url: 'https://cdn.example.org/jazz.jpg' },
      excerpt: 'Swing and bebop in the Blue Room.',
      description: '<p>Swing &amp; <b>bebop</b> with <a href="https://band.example" onclick="steal()">the band</a>.</p><script>steal()</script><img src="https://cdn.example.org/band.jpg" onerror="steal()" alt="The band">',
    },
    { id: 301, title: 'Winter Fair', slug: 'winter-fair', status: 'publish', all_day: true, start_date: '2026-12-18', end_date: '2026-12-19', venue: [101], categories: [11] },
    ...Array.from({ length: 12 }, (_, i) => later(5 + i, `Play ${i + 1}`)),
    { id: 310, title: 'Secret draft', slug: 'secret-draft', status: 'draft', start_date: '2026-12-20 10:00:00', end_date: '2026-12-20 11:00:00', venue: [100] },
    { id: 311, title: 'Pending review', slug: 'pending-review', status: 'pending', start_date: '2026-12-20 10:00:00', end_date: '2026-12-20 11:00:00' },
    { id: 312, title: 'Scheduled post', slug: 'scheduled-post', status: 'future', date: '2027-01-10 10:00:00', start_date: '2027-02-20 10:00:00', end_date: '2027-02-20 11:00:00' },
    { id: 313, title: 'Private party', slug: 'private-party', status: 'private', start_date: '2026-12-21 10:00:00', end_date: '2026-12-21 11:00:00', venue: [100] },
    { id: 314, title: 'Locked gig', slug: 'locked-gig', status: 'publish', password: 'secret', start_date: '2026-12-22 10:00:00', end_date: '2026-12-22 11:00:00', venue: [100] },
    { id: 315, title: 'Binned', slug: 'binned', status: 'trash', start_date: '2026-12-23 10:00:00', end_date: '2026-12-23 11:00:00' },
  ],
};

/** The addresses no anonymous visitor may have a page at. */
export const HIDDEN_PAGES = ['/event/secret-draft/', '/event/pending-review/', '/event/scheduled-post/', '/event/private-party/', '/event/locked-gig/', '/event/binned/', '/venue/hidden-cellar/'];

/** `evcal serve` on the dataset, with an administrator (token `tok-admin`) and any other flags. */
export async function servePages(args: readonly string[] = [], name = 'pages-seed.json'): Promise<Running> {
  mkdirSync(OUTPUT, { recursive: true });
  const seed = join(OUTPUT, name);
  writeFileSync(seed, JSON.stringify(PAGES_DATASET));
  return startServe(['--seed', seed, '--now', NOW, '--timezone', 'Europe/Rome', '--user', '1:administrator:tok-admin', ...args]);
}

/** A weekly series (four Mondays from 7 December, 19:00 in Rome) made through the API. */
export async function createSeries(api: string): Promise<{ id: number; slug: string }> {
  const res = await fetch(`${api}/events`, {
    method: 'POST',
    headers: { authorization: 'Bearer tok-admin', 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Monday Jam', status: 'publish', timezone: 'Europe/Rome', start_date: '2026-12-07 19:00:00', end_date: '2026-12-07 21:00:00',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4', venue: [100],
    }),
  });
  if (res.status !== 201) throw new Error(`creating the series: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number; slug: string };
}
