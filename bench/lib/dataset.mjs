// The benchmark dataset: N events over two years (2030 and 2031), with realistic mixes of
// venues, organizers, categories (two levels), tags (a long tail), all-day and multi-day
// events, time zones and statuses. Deterministic: the same N gives the same dataset.
//
// The output is the dataset format of docs/datasets.md (what `evcal import` and
// `calendar.importDataset` read), so records are built by core's own write rules.

/** The instant the benchmarks freeze the clock at: six months into the two years. */
export const BENCH_NOW = '2030-07-01T12:00:00Z';
export const BENCH_NOW_MS = Date.parse(BENCH_NOW);
const YEARS_START = Date.UTC(2030, 0, 1);
const TWO_YEARS_DAYS = 730;

/** A 32-bit integer hash (lowbias32), so that neighbouring seeds give unrelated streams. */
export function hash(x) {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** A small, fast, seedable PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    /** Index into a list of weights. */
    weighted: (weights) => {
      const total = weights.reduce((s, w) => s + w, 0);
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) if ((r -= weights[i]) < 0) return i;
      return weights.length - 1;
    },
    chance: (p) => next() < p,
  };
}

const ZONES = [
  ['America/New_York', 22], ['Europe/Rome', 18], ['Europe/London', 14], ['America/Los_Angeles', 12],
  ['Europe/Berlin', 10], ['Asia/Tokyo', 7], ['Australia/Sydney', 6], ['UTC', 6], ['America/Sao_Paulo', 3], ['UTC+2', 2],
];
const STATUSES = [['publish', 86], ['draft', 4], ['pending', 2], ['private', 3], ['future', 3], ['trash', 2]];
const CITIES = [
  ['New York', 'NY', 'United States', 40.7128, -74.006], ['Rome', '', 'Italy', 41.9028, 12.4964],
  ['London', '', 'United Kingdom', 51.5072, -0.1276], ['Los Angeles', 'CA', 'United States', 34.0522, -118.2437],
  ['Berlin', '', 'Germany', 52.52, 13.405], ['Tokyo', '', 'Japan', 35.6762, 139.6503],
  ['Sydney', 'NSW', 'Australia', -33.8688, 151.2093], ['Milano', '', 'Italy', 45.4642, 9.19],
  ['Chicago', 'IL', 'United States', 41.8781, -87.6298], ['São Paulo', 'SP', 'Brazil', -23.5505, -46.6333],
  ['Zürich', '', 'Switzerland', 47.3769, 8.5417], ['Paris', '', 'France', 48.8566, 2.3522],
];
const TOP_CATEGORIES = ['Music', 'Theatre', 'Film', 'Art & Exhibitions', 'Food & Drink', 'Sport', 'Family', 'Talks & Workshops', 'Community', 'Festivals'];
const SUB_CATEGORIES = {
  Music: ['Jazz', 'Rock', 'Classical', 'Electronic', 'Folk'],
  Theatre: ['Comedy', 'Opera', 'Dance'],
  Film: ['Screenings', 'Premieres'],
  'Art & Exhibitions': ['Photography', 'Galleries'],
  'Food & Drink': ['Tastings', 'Markets'],
  Sport: ['Running', 'Cycling'],
  'Talks & Workshops': ['Science', 'Tech', 'Writing'],
};
const ADJECTIVES = ['Late', 'Open', 'Grand', 'Little', 'Midnight', 'Summer', 'Winter', 'Spring', 'Autumn', 'Sunday', 'Friday', 'Golden', 'Blue', 'Red', 'Silent', 'Electric', 'Acoustic', 'Café', 'Über', 'Great'];
const NOUNS = ['Night', 'Session', 'Festival', 'Market', 'Show', 'Gala', 'Evening', 'Matinee', 'Jam', 'Tour', 'Fair', 'Meetup', 'Workshop', 'Lecture', 'Screening', 'Concert', 'Recital', 'Party', 'Run', 'Parade'];
const WORDS = ('the a of and with for in on at live music evening guests tickets doors open bar food drinks local artists '
  + 'family friendly free entry booking required limited seats special guest programme season opening closing lineup '
  + 'dj band orchestra quartet choir stage gallery museum park river garden rooftop studio workshop hands-on beginners '
  + 'advanced all ages accessible venue parking nearby public transport café crème brûlée über naïve résumé').split(' ');
const FIRST = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro', 'Inès', 'José', 'Kofi', 'Lena', 'Marta', 'Noah', 'Olga', 'Paolo'];
const LAST = ['Rossi', 'Smith', 'Müller', 'Tanaka', 'García', 'Okafor', 'Dubois', 'Novak', 'Silva', 'Brown', 'Bianchi', 'Kowalski'];

/** How many venues, organizers, categories and tags a calendar of N events has. */
export function shape(n) {
  const categories = TOP_CATEGORIES.length + Object.values(SUB_CATEGORIES).reduce((s, l) => s + l.length, 0);
  return {
    categories,
    tags: Math.min(400, Math.max(40, Math.round(n / 250))),
    venues: Math.max(20, Math.round(n / 50)),
    organizers: Math.max(10, Math.round(n / 100)),
  };
}

/**
 * Calendars larger than this, in multiples of it, are built as copies of this one (see
 * lib/records.mjs): they share its categories, tags, venues and organizers.
 */
export const REPLICA_BASE = 100_000;
export const isReplicated = (n) => n > REPLICA_BASE && n % REPLICA_BASE === 0 && !process.env.EVCAL_BENCH_FULL_IMPORT;

/** Ids: terms 1…C (categories) then C+1… (tags); posts: venues, organizers, then events (contiguous). */
export function ids(n) {
  const s = shape(isReplicated(n) ? REPLICA_BASE : n);
  return {
    ...s,
    firstTag: s.categories + 1,
    firstVenue: 1,
    firstOrganizer: s.venues + 1,
    firstEvent: s.venues + s.organizers + 1,
  };
}

/**
 * The events the create benchmarks write, by number: an administrator's, published, with a
 * venue, an organizer, a category and a tag of a calendar of N events, dates in 2031.
 */
export function benchEvents(n) {
  const s = ids(n);
  return (i) => ({
    title: `Benchmark Night ${process.pid} ${i}`,
    description: '<p>A benchmark event with a description of realistic length: live music, guests, food and drinks.</p>',
    start_date: `2031-0${1 + (i % 9)}-1${i % 10} 20:00:00`,
    end_date: `2031-0${1 + (i % 9)}-1${i % 10} 23:00:00`,
    timezone: 'Europe/Rome',
    status: 'publish',
    cost: '€15',
    categories: [1 + (i % s.categories)],
    tags: [s.firstTag + (i % 20)],
    venue: s.firstVenue + (i % s.venues),
    organizer: [s.firstOrganizer + (i % s.organizers)],
  });
}

const pad = (x, w = 2) => String(x).padStart(w, '0');
const wall = (ms) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;
};
const slugify = (s) => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Categories, tags, venues and organizers of a calendar of N events (everything but events). */
export function generateReferences(n) {
  const r = rng(7);
  const s = ids(n);
  const categories = [];
  let id = 1;
  const topIds = new Map();
  for (const name of TOP_CATEGORIES) {
    topIds.set(name, id);
    categories.push({ id: id++, name, slug: slugify(name), parent: 0, description: `${name} events` });
  }
  for (const [top, subs] of Object.entries(SUB_CATEGORIES)) {
    for (const name of subs) categories.push({ id: id++, name, slug: slugify(name), parent: topIds.get(top), description: '' });
  }
  const tags = [];
  for (let i = 0; i < s.tags; i++) {
    const name = i < WORDS.length ? `${WORDS[i]} ${i}` : `tag ${i}`;
    tags.push({ id: s.firstTag + i, name, slug: slugify(name) || `tag-${i}` });
  }
  const venues = [];
  for (let i = 0; i < s.venues; i++) {
    const [city, state, country, lat, lng] = r.pick(CITIES);
    const name = `${r.pick(ADJECTIVES)} ${r.pick(['Hall', 'Theatre', 'Club', 'Arena', 'Park', 'Gallery', 'Room', 'Garden'])} ${i + 1}`;
    venues.push({
      id: s.firstVenue + i, venue: name, slug: `${slugify(name)}-v${i + 1}`, status: r.chance(0.97) ? 'publish' : 'draft', author: 1,
      address: `${r.int(1, 300)} ${r.pick(['Main St', 'Via Roma', 'High Street', 'Hauptstraße', 'Rue de la Paix'])}`,
      city, country, state, zip: String(r.int(10000, 99999)), phone: `+1 555 ${r.int(1000, 9999)}`,
      website: `https://venue${i + 1}.example.com`, show_map: true, show_map_link: true,
      ...(r.chance(0.8) ? { geo_lat: +(lat + (r.next() - 0.5) / 10).toFixed(5), geo_lng: +(lng + (r.next() - 0.5) / 10).toFixed(5) } : {}),
      date: '2029-06-01 10:00:00',
    });
  }
  const organizers = [];
  for (let i = 0; i < s.organizers; i++) {
    const name = `${r.pick(FIRST)} ${r.pick(LAST)} ${r.pick(['Productions', 'Events', 'Collective', 'Society', 'Agency'])} ${i + 1}`;
    organizers.push({
      id: s.firstOrganizer + i, organizer: name, slug: `${slugify(name)}-o${i + 1}`, status: 'publish', author: 1,
      email: `org${i + 1}@example.com`, phone: `+39 06 ${r.int(100000, 999999)}`, website: `https://org${i + 1}.example.org`,
      date: '2029-06-01 10:00:00',
    });
  }
  return { categories, tags, venues, organizers };
}

/**
 * Events `from` … `to`-1 (indexes 0…N-1) of a calendar of N events, as dataset records.
 * Each event is generated from its own seed, so any chunk can be made on its own.
 */
export function generateEvents(n, from = 0, to = n) {
  const s = ids(n);
  const leafAndTop = s.categories;
  // Category popularity: a long tail (Zipf-like).
  const catWeights = Array.from({ length: leafAndTop }, (_, i) => 1 / (1 + (i % 17)));
  const tagWeights = Array.from({ length: s.tags }, (_, i) => 1 / (1 + i) ** 0.9);
  const zoneWeights = ZONES.map((z) => z[1]);
  const statusWeights = STATUSES.map((x) => x[1]);
  const share = recurringShare();
  const out = [];
  for (let i = from; i < to; i++) {
    const r = rng(hash(i + 1));
    const id = s.firstEvent + i;
    const zone = ZONES[r.weighted(zoneWeights)][0];
    const status = STATUSES[r.weighted(statusWeights)][0];
    const day = Math.floor(r.next() * TWO_YEARS_DAYS);
    const kind = r.next();
    const allDay = kind < 0.15;
    const multiDay = kind > 0.97;
    const hour = r.weighted([1, 2, 3, 2, 2, 4, 6, 8, 9, 6, 3]) + 10;
    const startMs = YEARS_START + day * 86_400_000 + hour * 3_600_000 + r.pick([0, 0, 15, 30, 45]) * 60_000;
    const endMs = allDay || multiDay
      ? startMs + (multiDay ? r.int(1, 4) : r.chance(0.8) ? 0 : r.int(1, 2)) * 86_400_000 + 3_600_000
      : startMs + r.int(1, 4) * 3_600_000 + r.pick([0, 30]) * 60_000;
    const title = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.pick(['', 'with ', 'at ', 'for '])}${r.pick(FIRST)} ${r.pick(LAST)}`.replace(/\s+/g, ' ');
    const words = [];
    const wordCount = r.int(25, 70);
    for (let w = 0; w < wordCount; w++) words.push(r.pick(WORDS));
    const description = `<p>${title}: ${words.join(' ')}. Event #${id}.</p>`;
    const categories = [];
    const nCats = r.chance(0.7) ? 1 : 2;
    while (categories.length < nCats) {
      const c = 1 + r.weighted(catWeights);
      if (!categories.includes(c)) categories.push(c);
    }
    const tags = [];
    const nTags = r.weighted([3, 3, 2, 1, 1]);
    while (tags.length < nTags) {
      const t = s.firstTag + r.weighted(tagWeights);
      if (!tags.includes(t)) tags.push(t);
    }
    // Venues and organizers: popular ones host more (square bias towards low indexes).
    const venue = r.chance(0.92) ? [s.firstVenue + Math.floor(r.next() ** 2 * s.venues)] : [];
    const nOrg = r.weighted([3, 6, 1]);
    const organizer = [];
    while (organizer.length < nOrg) {
      const o = s.firstOrganizer + Math.floor(r.next() ** 2 * s.organizers);
      if (!organizer.includes(o)) organizer.push(o);
    }
    // Publish date: before the clock for published events, after it for scheduled ones.
    const published = status === 'future'
      ? BENCH_NOW_MS + r.int(1, 60) * 86_400_000
      : Math.min(startMs - r.int(3, 120) * 86_400_000, BENCH_NOW_MS - r.int(1, 400) * 3_600_000);
    const event = {
      id, title, slug: `${slugify(title)}-${id}`, description,
      excerpt: r.chance(0.3) ? `${words.slice(0, 12).join(' ')}…` : '',
      start_date: wall(startMs), end_date: wall(endMs), all_day: allDay, timezone: zone,
      status, author: r.int(1, 5), date: wall(published),
      featured: r.chance(0.05), hide_from_listings: r.chance(0.01), sticky: r.chance(0.01),
      show_map: true, show_map_link: r.chance(0.5),
      categories, tags, venue, organizer,
    };
    if (r.chance(0.55)) event.cost = r.chance(0.2) ? 'Free' : r.pick(['$', '€', '£']) + r.int(5, 120);
    if (r.chance(0.4)) event.website = `https://tickets.example.com/e/${id}`;
    // Series: chosen by their own stream, so the share changes which events recur and nothing else.
    if (share > 0 && rng(hash((i + 1) ^ 0xfeed)).next() < share && !multiDay) event.recurrence = recurrenceOf(i, day);
    out.push(event);
  }
  return out;
}

/**
 * The share of events that are series (docs/recurrence.md), from EVCAL_BENCH_RECURRING
 * (`--recurring 0.1` of the benchmarks sets it): 0 by default.
 */
export function recurringShare() {
  const share = Number(process.env.EVCAL_BENCH_RECURRING ?? 0);
  if (!(share >= 0 && share <= 1)) throw new Error(`EVCAL_BENCH_RECURRING must be a share between 0 and 1, not ${process.env.EVCAL_BENCH_RECURRING}`);
  return share;
}

/**
 * The rule of a series, from its own stream (the event's other fields stay as they are): mostly
 * weekly and monthly runs of a few weeks or months, some daily festivals, yearly dates, and
 * one series in twenty without an end (stored up to the recurrence horizon).
 */
function recurrenceOf(i, startDay) {
  const r = rng(hash((i + 1) ^ 0x5eed));
  const weekday = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'][(startDay + 1) % 7]; // 2030-01-01 is a Tuesday
  switch (r.weighted([55, 20, 10, 10, 5])) {
    case 0: return `FREQ=WEEKLY;BYDAY=${weekday};COUNT=${r.int(4, 12)}`;
    case 1: return `FREQ=MONTHLY;COUNT=${r.int(3, 12)}`;
    case 2: return `FREQ=DAILY;COUNT=${r.int(3, 7)}`;
    case 3: return `FREQ=YEARLY;COUNT=${r.int(2, 3)}`;
    default: return `FREQ=WEEKLY;BYDAY=${weekday}`;
  }
}

/** The whole dataset of N events. */
export function generateDataset(n) {
  return { ...generateReferences(n), events: generateEvents(n) };
}

/** Query parameters the benchmarks use, for a calendar of N events. */
export function benchParams(n) {
  const s = ids(n);
  return {
    // A leaf category by slug (about 2% of events).
    category: 'jazz',
    // A week inside the default window, well populated.
    week: { start_date: '2030-10-07', end_date: '2030-10-13' },
    // A word in about one event in a hundred titles… the generator's "Golden" adjective.
    search: 'golden jam',
    readId: s.firstEvent + Math.floor(n / 2),
  };
}
