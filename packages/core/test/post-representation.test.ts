// Venue, organizer and term representations (behaviour.md §1.3-§1.5), and redaction of
// password-protected content (§1.8).
import { describe, expect, it } from 'vitest';
import { type Calendar } from '@evcal/core';
import { POSTER, admin, anon, as, ctxOf, eventInput, ids, makeCalendar, refusal, type Json, type Role, at } from './helpers';
import { SITE, API, EVENT_KEYS, setup } from './support/representation-fixtures';

describe('venue object (§1.3)', () => {
  const FULL_VENUE_KEYS = [
    'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'description', 'slug', 'image',
    'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince', 'geo_lat', 'geo_lng',
    'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
  ];
  const BARE_VENUE_KEYS = [
    'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'slug',
    'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
  ];
  const withJsonLd = (keys: string[]) => [...keys.slice(0, keys.indexOf('show_map')), 'json_ld', ...keys.slice(keys.indexOf('show_map'))];

  // Key order, empty values dropped, map flags and global ids appended, no rest_url.
  it.each<[string, (s: Awaited<ReturnType<typeof setup>>) => Promise<Json>, 'full' | 'bare', boolean]>([
    ['create (full)', async (s) => s.venue, 'full', false],
    ['create (name only)', async (s) => s.venue2, 'bare', false],
    ['single GET (full)', async (s) => (await s.calendar.venues.get({ id: s.venue.id }, anon)).value, 'full', true],
    ['single GET (name only)', async (s) => (await s.calendar.venues.get({ id: s.venue2.id }, anon)).value, 'bare', true],
    ['list item', async (s) => ((await s.calendar.venues.list({}, anon)).body.venues as Json[]).find((v) => v.id === s.venue.id)!, 'full', false],
    ['embedded in an event', async (s) => (await s.calendar.events.create(eventInput({ venue: s.venue.id }), as(admin))).value.venue as Json, 'full', false],
    ['update', async (s) => (await s.calendar.venues.patch({ id: s.venue.id, phone: '1' }, as(admin))).value, 'full', false],
  ])('%s', async (_name, read, shape, jsonLd) => {
    const s = await setup();
    const body = await read(s);
    const keys = shape === 'full' ? FULL_VENUE_KEYS : BARE_VENUE_KEYS;
    expect(Object.keys(body)).toEqual(jsonLd ? withJsonLd(keys) : keys);
    expect(body).not.toHaveProperty('rest_url');
    expect(body.author).toBe('1');
  });

  it('values of a full venue', async () => {
    const s = await setup();
    expect(s.venue).toMatchObject({
      url: `${SITE}/venue/blue-room/`, venue: 'Blue Room', description: '<p>Basement club.</p>', slug: 'blue-room',
      address: '1 Main St', city: 'Springfield', country: 'United States', province: 'Prov', state: 'IL', zip: '62701',
      phone: '+1 555 0100', website: 'https://blueroom.example', stateprovince: 'IL', geo_lat: 39.8, geo_lng: -89.65,
      show_map: true, show_map_link: true,
    });
    expect((s.venue.image as Json).id).toBe(345);
  });

  it('an imported venue without an author has no author key', async () => {
    const calendar = makeCalendar();
    await calendar.importDataset({ venues: [{ id: 40, venue: 'Hall', status: 'publish' }] });
    expect((await calendar.venues.get({ id: 40 }, anon)).value).not.toHaveProperty('author');
  });
});

describe('organizer object (§1.4)', () => {
  const FULL = ['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'organizer', 'description', 'slug', 'image', 'phone', 'website', 'email', 'global_id', 'global_id_lineage'];
  const BARE = ['id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'organizer', 'slug', 'global_id', 'global_id_lineage'];
  const withJsonLd = (keys: string[]) => [...keys.slice(0, -2), 'json_ld', ...keys.slice(-2)];

  it.each<[string, (s: Awaited<ReturnType<typeof setup>>) => Promise<Json>, string[]]>([
    ['create (full)', async (s) => s.jane, FULL],
    ['create (name only)', async (s) => s.john, BARE],
    ['single GET (full)', async (s) => (await s.calendar.organizers.get({ id: s.jane.id }, anon)).value, withJsonLd(FULL)],
    ['single GET (name only)', async (s) => (await s.calendar.organizers.get({ id: s.john.id }, anon)).value, withJsonLd(BARE)],
    ['list item', async (s) => ((await s.calendar.organizers.list({}, anon)).body.organizers as Json[]).find((o) => o.id === s.jane.id)!, FULL],
    ['embedded in an event', async (s) => ((await s.calendar.events.create(eventInput({ organizer: s.jane.id }), as(admin))).value.organizer as Json[])[0]!, FULL],
  ])('%s', async (_name, read, keys) => {
    const s = await setup();
    const body = await read(s);
    expect(Object.keys(body)).toEqual(keys);
    expect(body).not.toHaveProperty('show_map');
    expect(body).not.toHaveProperty('rest_url');
  });

  it('values of a full organizer (email in plain text)', async () => {
    const s = await setup();
    expect(s.jane).toMatchObject({
      url: `${SITE}/organizer/jane-doe/`, organizer: 'Jane Doe', description: '<p>DJ.</p>', slug: 'jane-doe',
      phone: '+1 555 0199', website: 'https://jane.example', email: 'jane@example.com', author: '1',
    });
  });
});

describe('terms (§1.5)', () => {
  const EMBEDDED_KEYS = ['name', 'slug', 'term_group', 'term_taxonomy_id', 'taxonomy', 'description', 'parent', 'count', 'filter', 'id', 'urls'];
  const CATEGORY_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls'];
  const TAG_KEYS = ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls'];

  // §1.5.1: the embedded form.
  it.each<['categories' | 'tags', string, string]>([
    ['categories', 'tribe_events_cat', 'categories'],
    ['tags', 'post_tag', 'tags'],
  ])('%s embedded in an event', async (field, taxonomy, word) => {
    const s = await setup();
    const termId = field === 'categories' ? s.music.id : s.outdoor.id;
    const event = (await s.calendar.events.create(eventInput({ [field]: [termId] }), as(admin))).value;
    const [term] = event[field] as Json[];
    expect(Object.keys(term!)).toEqual(EMBEDDED_KEYS);
    expect(term).toStrictEqual({
      name: field === 'categories' ? 'Live Music' : 'Outdoor',
      slug: field === 'categories' ? 'live-music' : 'outdoor',
      term_group: 0,
      term_taxonomy_id: expect.any(Number),
      taxonomy,
      description: '',
      parent: 0,
      count: 1,
      filter: 'raw',
      id: termId,
      urls: { self: `${API}/${word}/${termId}`, collection: `${API}/${word}` },
    });
  });

  it('an embedded child category has urls.up; embedded terms are ordered by name', async () => {
    const s = await setup();
    const zed = (await s.calendar.categories.create({ name: 'Zed' }, as(admin))).value;
    const child = (await s.calendar.categories.create({ name: 'Acoustic', parent: s.music.id }, as(admin))).value;
    const event = (await s.calendar.events.create(eventInput({ categories: [zed.id, s.music.id, child.id] }), as(admin))).value;
    const cats = event.categories as Json[];
    expect(cats.map((c) => c.name)).toEqual(['Acoustic', 'Live Music', 'Zed']);
    expect(cats[0]!.urls).toEqual({
      self: `${API}/categories/${child.id}`, collection: `${API}/categories`, up: `${API}/categories/${s.music.id}`,
    });
    expect(cats[0]!.parent).toBe(s.music.id);
    expect(cats[1]!.urls).not.toHaveProperty('up');
  });

  // §1.5.2: the term-route form; _links only on single GET, create and update.
  it.each<['categories' | 'tags', string, (c: Calendar, id: number) => Promise<Json>, boolean]>([
    ['categories', 'create', async (c) => (await c.categories.create({ name: 'Jazz' }, as(admin))).value, true],
    ['categories', 'single GET', async (c, id) => (await c.categories.get({ id }, anon)).value, true],
    ['categories', 'update', async (c, id) => (await c.categories.update({ id, description: 'd' }, as(admin))).value, true],
    ['categories', 'list item', async (c) => ((await c.categories.list({ hide_empty: false }, anon)).body.categories as Json[])[0]!, false],
    ['categories', 'delete', async (c, id) => (await c.categories.delete({ id }, as(admin))).value, false],
    ['tags', 'create', async (c) => (await c.tags.create({ name: 'Jazz' }, as(admin))).value, true],
    ['tags', 'single GET', async (c, id) => (await c.tags.get({ id }, anon)).value, true],
    ['tags', 'update', async (c, id) => (await c.tags.update({ id, description: 'd' }, as(admin))).value, true],
    ['tags', 'list item', async (c) => ((await c.tags.list({ hide_empty: false }, anon)).body.tags as Json[])[0]!, false],
    ['tags', 'delete', async (c, id) => (await c.tags.delete({ id }, as(admin))).value, false],
  ])('%s %s', async (taxonomy, _name, read, links) => {
    const s = await setup();
    const id = (taxonomy === 'categories' ? s.music.id : s.outdoor.id) as number;
    const body = await read(s.calendar, id);
    const keys = taxonomy === 'categories' ? CATEGORY_KEYS : TAG_KEYS;
    expect(Object.keys(body)).toEqual(links ? [...keys, '_links'] : keys);
    expect(body.meta).toEqual([]);
    expect(body).not.toHaveProperty('term_group');
    expect(body).not.toHaveProperty('filter');
    expect(body.taxonomy).toBe(taxonomy === 'categories' ? 'tribe_events_cat' : 'post_tag');
    expect(body.urls).toEqual({ self: `${API}/${taxonomy}/${body.id}`, collection: `${API}/${taxonomy}` });
    expect(typeof body.count).toBe('number');
  });

  it('term-route values: url is the archive page, parent and urls.up for a child category', async () => {
    const s = await setup();
    const child = (await s.calendar.categories.create({ name: 'Acoustic', parent: s.music.id }, as(admin))).value;
    expect(s.music.url).toBe(`${SITE}/events/category/live-music/`);
    expect(child).toMatchObject({ parent: s.music.id, urls: { up: `${API}/categories/${s.music.id}` } });
    expect(s.outdoor).not.toHaveProperty('parent');
  });
});

describe('password-protected content (§1.8)', () => {
  /** A protected event (300) and an open one (301) embedding a protected venue (10) and organizer (11). */
  async function seeded() {
    const calendar = makeCalendar({ siteUrl: SITE, apiRoot: API });
    await calendar.importDataset({
      categories: [{ id: 1, name: 'Live Music' }],
      tags: [{ id: 2, name: 'Outdoor' }],
      venues: [
        {
          id: 10, venue: 'Secret Room', status: 'publish', author: 1, password: 'vpw', description: 'Hidden.', address: '1 Main St',
          city: 'Springfield', country: 'United States', state: 'IL', zip: '62701', phone: '555', website: 'https://secret.example',
          image: POSTER.id, geo_lat: 39.8, geo_lng: -89.65,
        },
        { id: 12, venue: 'Open Hall', status: 'publish', author: 1 },
      ],
      organizers: [
        { id: 11, organizer: 'Secret Org', status: 'publish', author: 1, password: 'opw', email: 'x@example.com', phone: '1', website: 'https://org.example', description: 'D.' },
      ],
      events: [
        {
          id: 300, title: 'Private Party', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', status: 'publish', author: 1,
          password: 'pw', description: 'Secret.', excerpt: 'Shh.', cost: '$15', website: 'https://party.example', image: POSTER.id,
          all_day: false, show_map: true, show_map_link: true, sticky: true, featured: true,
          categories: [1], tags: [2], venue: 12, organizer: [11],
        },
        {
          id: 301, title: 'Open Gig', start_date: '2026-12-02 20:00:00', end_date: '2026-12-02 23:00:00', status: 'publish', author: 1,
          venue: 10, organizer: [11],
        },
      ],
    });
    return calendar;
  }
  const listItem = async (calendar: Calendar, id: number, input: Json = {}, role: Role = 'anonymous') =>
    ((await calendar.events.list({ per_page: 50, ...input }, ctxOf(role))).body.events as Json[]).find((e) => e.id === id)!;

  // The placeholders of the fixed key list.
  it.each<[string, unknown]>([
    ['description', ''], ['excerpt', ''], ['cost', ''], ['website', ''], ['image', false],
    ['all_day', null], ['show_map', null], ['show_map_link', null], ['hide_from_listings', null], ['sticky', null], ['featured', null],
    ['categories', []], ['tags', []], ['venue', []], ['organizer', []], ['custom_fields', []],
  ])('a protected event in a list: %s becomes %j', async (key, placeholder) => {
    const calendar = await seeded();
    const item = await listItem(calendar, 300);
    expect(item[key]).toStrictEqual(placeholder);
  });

  it('a protected event in a list: cost_details is emptied with its own key order', async () => {
    const calendar = await seeded();
    const item = await listItem(calendar, 300);
    expect(Object.keys(item.cost_details as Json)).toEqual(['currency_symbol', 'currency_position', 'currency_code', 'values']);
    expect(item.cost_details).toStrictEqual({ currency_symbol: '', currency_position: '', currency_code: '', values: [] });
  });

  it('a protected event in a list: key order, title, slug, dates, timezone, url, status and ids are kept', async () => {
    const calendar = await seeded();
    const item = await listItem(calendar, 300);
    const full = (await calendar.events.get({ id: 300, password: 'pw' }, anon)).value;
    expect(Object.keys(item)).toEqual(EVENT_KEYS);
    for (const key of ['id', 'global_id', 'global_id_lineage', 'author', 'status', 'date', 'date_utc', 'url', 'rest_url', 'title', 'slug',
      'start_date', 'start_date_details', 'end_date', 'utc_start_date', 'utc_end_date', 'timezone', 'timezone_abbr']) {
      expect(at(item, key), key).toStrictEqual(at(full, key));
    }
    expect(item.title).toBe('Private Party');
  });

  // When a protected event is shown in full in a list.
  it.each<[string, boolean, Json, Role]>([
    ['anonymous without password', false, {}, 'anonymous'],
    ['anonymous with the password', true, { password: 'pw' }, 'anonymous'],
    ['anonymous with a wrong password', false, { password: 'PW' }, 'anonymous'],
    ['administrator without context=edit', false, {}, 'administrator'],
    ['administrator with context=edit', true, { context: 'edit' }, 'administrator'],
    ['contributor with context=edit (cannot edit it)', false, { context: 'edit' }, 'contributor'],
  ])('list as %s: shown in full: %s', async (_name, full, input, role) => {
    const calendar = await seeded();
    const item = await listItem(calendar, 300, input, role);
    expect(item.description).toBe(full ? '<p>Secret.</p>' : '');
    expect(item.featured).toBe(full ? true : null);
    expect(ids(item.categories)).toEqual(full ? [1] : []);
  });

  it('an open event in a list is not redacted', async () => {
    const calendar = await seeded();
    const item = await listItem(calendar, 301);
    expect(item.show_map).toBe(false);
    expect(item.website).toBe(`${SITE}/event/open-gig/`);
  });

  // Embedded and listed protected venues and organizers (side effect: the name field becomes []).
  const REDACTED_VENUE = {
    id: 10, venue: [], description: '', address: '', city: '', country: '', state: 'IL', zip: '', phone: '', website: '',
    stateprovince: '', image: false, geo_lat: 0, geo_lng: 0, show_map: null, show_map_link: null, slug: 'secret-room',
    global_id: `example.com?id=10`,
  };
  const REDACTED_ORGANIZER = {
    id: 11, organizer: [], description: '', email: '', phone: '', website: '', slug: 'secret-org', global_id: 'example.com?id=11',
  };
  it.each<[string, (c: Calendar) => Promise<unknown>, Json]>([
    ['venue embedded in a listed event', async (c) => (await listItem(c, 301)).venue, REDACTED_VENUE],
    ['venue embedded in a single event GET', async (c) => (await c.events.get({ id: 301 }, anon)).value.venue, REDACTED_VENUE],
    ['venue in the venue list', async (c) => ((await c.venues.list({}, anon)).body.venues as Json[]).find((v) => v.id === 10), REDACTED_VENUE],
    ['venue single GET', async (c) => (await c.venues.get({ id: 10 }, anon)).value, REDACTED_VENUE],
    ['organizer embedded in a listed event', async (c) => ((await listItem(c, 301)).organizer as Json[])[0], REDACTED_ORGANIZER],
    ['organizer in the organizer list', async (c) => ((await c.organizers.list({}, anon)).body.organizers as Json[])[0], REDACTED_ORGANIZER],
    ['organizer single GET', async (c) => (await c.organizers.get({ id: 11 }, anon)).value, REDACTED_ORGANIZER],
  ])('%s is redacted', async (_name, read, expected) => {
    const calendar = await seeded();
    const body = (await read(calendar)) as Json;
    expect(body).toMatchObject(expected);
    expect(body).not.toHaveProperty('json_ld');
  });

  it('the redacted venue keeps its key order', async () => {
    const calendar = await seeded();
    const full = (await calendar.venues.get({ id: 10, password: 'vpw' }, anon)).value;
    const redacted = (await calendar.venues.get({ id: 10 }, anon)).value;
    expect(Object.keys(redacted)).toEqual(Object.keys(full).filter((k) => k !== 'json_ld'));
    expect(full).toMatchObject({ venue: 'Secret Room', city: 'Springfield', json_ld: expect.any(Object) });
  });

  it.each<[string, boolean, Json, Role]>([
    ['anonymous with the password', true, { password: 'vpw' }, 'anonymous'],
    ['administrator with context=edit', true, { context: 'edit' }, 'administrator'],
    ['administrator with context=edit in the list', true, { context: 'edit', list: true }, 'administrator'],
    ['anonymous with the password in the list', true, { password: 'vpw', list: true }, 'anonymous'],
    ['editor without context', false, {}, 'editor'],
  ])('protected venue read by %s: shown in full: %s', async (_name, full, { list, ...input }, role) => {
    const calendar = await seeded();
    const body = list
      ? ((await calendar.venues.list(input, ctxOf(role))).body.venues as Json[]).find((v) => v.id === 10)!
      : (await calendar.venues.get({ id: 10, ...input }, ctxOf(role))).value;
    expect(body.venue).toStrictEqual(full ? 'Secret Room' : []);
    expect(body.city).toBe(full ? 'Springfield' : '');
  });

  // §3.1 step 6: a single GET of a protected event is refused without the password.
  it.each<[string, boolean, Json, Role]>([
    ['anonymous', false, {}, 'anonymous'],
    ['anonymous with a wrong password', false, { password: 'nope' }, 'anonymous'],
    ['anonymous with the password', true, { password: 'pw' }, 'anonymous'],
    ['administrator without context', false, {}, 'administrator'],
    ['administrator with context=edit', true, { context: 'edit' }, 'administrator'],
  ])('single GET of a protected event by %s: allowed %s', async (_name, allowed, input, role) => {
    const calendar = await seeded();
    const read = calendar.events.get({ id: 300, ...input }, ctxOf(role));
    if (!allowed) {
      await refusal(read, 'event_password_protected');
    } else {
      expect((await read).value).toMatchObject({ description: '<p>Secret.</p>', featured: true, cost: '$15' });
    }
  });
});
