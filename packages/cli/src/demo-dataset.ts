// A small calendar for `npm start`: dates are relative to today so it always has upcoming events.

function day(offset: number, time: string, now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset));
  return `${d.toISOString().slice(0, 10)} ${time}`;
}

export function demoDataset(now = new Date()): Record<string, unknown> {
  return {
    categories: [
      { id: 1, name: 'Music', slug: 'music' },
      { id: 2, name: 'Jazz', slug: 'jazz', parent: 1 },
      { id: 3, name: 'Workshops', slug: 'workshops' },
    ],
    tags: [
      { id: 10, name: 'Free', slug: 'free' },
      { id: 11, name: 'Family', slug: 'family' },
    ],
    venues: [
      {
        id: 100, venue: 'Blue Room', status: 'publish', author: 1, address: '1 Main St', city: 'Springfield',
        country: 'United States', state: 'IL', zip: '62701', phone: '+1 555 0100', geo_lat: 39.7817, geo_lng: -89.6501,
      },
      { id: 101, venue: 'Riverside Park', status: 'publish', author: 1, city: 'Springfield', country: 'United States', state: 'IL' },
    ],
    organizers: [
      { id: 200, organizer: 'Springfield Arts', status: 'publish', author: 1, email: 'hello@arts.example', website: 'https://arts.example' },
    ],
    events: [
      {
        id: 300, title: 'Jazz Night', status: 'publish', author: 1, timezone: 'America/Chicago',
        start_date: day(2, '20:00:00', now), end_date: day(2, '23:00:00', now),
        description: 'A quartet plays standards all night.', cost: '$15', featured: true,
        categories: [2], venue: [100], organizer: [200],
      },
      {
        id: 301, title: 'Open-Air Concert', status: 'publish', author: 1, timezone: 'America/Chicago',
        start_date: day(9, '18:00:00', now), end_date: day(9, '21:00:00', now),
        description: 'Bring a blanket.', cost: 'Free', categories: [1], tags: [10, 11], venue: [101], organizer: [200],
      },
      {
        id: 302, title: 'Printmaking Workshop', status: 'publish', author: 1, timezone: 'America/Chicago', all_day: true,
        start_date: day(5, '00:00:00', now), end_date: day(6, '00:00:00', now),
        description: 'Two days of linocut and screen printing.', cost: ['20$', '35$'], categories: [3], venue: [100],
      },
      {
        id: 303, title: 'Planning Meeting', status: 'draft', author: 1, timezone: 'America/Chicago',
        start_date: day(3, '09:00:00', now), end_date: day(3, '10:00:00', now),
      },
    ],
  };
}
