// The event representation (behaviour.md §1): key order and value types of the event object,
// global ids, and json_ld only on single reads (§1.7).
import { describe, expect, it } from 'vitest';
import { eventPageJsonLd, type Calendar } from '@evcal/core';
import { BARE_IMAGE, POSTER, admin, anon, as, contributor, eventInput, ids, makeCalendar, type Json, at } from './helpers';
import { SITE, API, EVENT_KEYS, setup } from './support/representation-fixtures';

describe('event object (§1.2)', () => {
  // §1.2 key order in every response that carries an event; json_ld last, only on single reads (§1.7).
  it.each<[string, (c: Calendar, id: number) => Promise<Json>, boolean]>([
    ['create', async (c) => (await c.events.create(eventInput({ title: 'Second' }), as(admin))).value, false],
    ['update', async (c, id) => (await c.events.update({ id, title: 'x' }, as(admin))).value, false],
    ['patch', async (c, id) => (await c.events.patch({ id, title: 'x' }, as(admin))).value, false],
    ['delete', async (c, id) => (await c.events.delete({ id }, as(admin))).value, false],
    ['list item', async (c) => ((await c.events.list({}, anon)).body.events as Json[])[0]!, false],
    ['single GET', async (c, id) => (await c.events.get({ id }, anon)).value, true],
    ['single GET by slug', async (c) => (await c.events.getBySlug({ slug: 'jazz-night' }, as(admin))).value, true],
  ])('%s: keys in the reference order', async (_name, read, jsonLd) => {
    const { calendar, venue, jane, music, outdoor } = await setup();
    const event = (await calendar.events.create(eventInput({
      venue: venue.id, organizer: jane.id, categories: [music.id], tags: [outdoor.id], cost: '$15', image: POSTER.id,
    }), as(admin))).value;
    const body = await read(calendar, event.id as number);
    expect(Object.keys(body)).toEqual(jsonLd ? [...EVENT_KEYS, 'json_ld'] : EVENT_KEYS);
  });

  // §1.2: *_details are zero-padded strings cut from the date strings.
  it.each([
    ['start_date_details', { year: '2026', month: '03', day: '05', hour: '08', minutes: '07', seconds: '09' }],
    ['end_date_details', { year: '2026', month: '03', day: '05', hour: '09', minutes: '00', seconds: '00' }],
    ['utc_start_date_details', { year: '2026', month: '03', day: '05', hour: '13', minutes: '07', seconds: '09' }],
    ['utc_end_date_details', { year: '2026', month: '03', day: '05', hour: '14', minutes: '00', seconds: '00' }],
  ])('%s', async (field, expected) => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput({ start_date: '2026-03-05 08:07:09', end_date: '2026-03-05 09:00:00' }), as(admin))).value;
    expect(at(event, field)).toStrictEqual(expected);
    expect(Object.keys(at(event, field) as Json)).toEqual(['year', 'month', 'day', 'hour', 'minutes', 'seconds']);
  });

  // §1.1: ids are integers, author a string ("0" when there is none).
  it.each<[string, string, () => Promise<Json>]>([
    ['created by the administrator', '1', async () => (await (await setup()).calendar.events.create(eventInput(), as(admin))).value],
    ['created by a contributor', '4', async () => (await (await setup()).calendar.events.create(eventInput(), as(contributor))).value],
    ['imported with author 3', '3', async () => imported({ author: 3 })],
    ['imported without an author', '0', async () => imported({})],
  ])('author of an event %s is "%s"', async (_name, expected, make) => {
    const event = await make();
    expect(event.author).toBe(expected);
    expect(typeof event.id).toBe('number');
  });

  async function imported(extra: Json): Promise<Json> {
    const calendar = makeCalendar();
    await calendar.importDataset({ events: [{ id: 300, ...eventInput(), status: 'publish', ...extra }] });
    return (await calendar.events.get({ id: 300 }, anon)).value;
  }

  // §1.1: publish timestamps are plain strings; drafts never dated have a zero date_utc.
  it.each<[string, Json, (e: Json) => void]>([
    ['published', {}, (e) => {
      expect(e).toMatchObject({ date: '2026-11-22 07:00:00', date_utc: '2026-11-22 12:00:00', modified: '2026-11-22 07:00:00', modified_utc: '2026-11-22 12:00:00' });
    }],
    ['draft without a date', { status: 'draft' }, (e) => {
      expect(e.date_utc).toBe('0000-00-00 00:00:00');
      expect(e.modified_utc).toBe('2026-11-22 12:00:00');
    }],
  ])('%s event timestamps', async (_name, extra, check) => {
    const { calendar } = await setup();
    check((await calendar.events.create(eventInput(extra), as(admin))).value);
  });

  // §1.2 / §1.2.2: venue is [] (none), an object (one) or an array (several); organizer is always an array.
  it.each<[string, (s: Awaited<ReturnType<typeof setup>>) => Json, (v: unknown, s: Awaited<ReturnType<typeof setup>>) => void]>([
    ['no venue', () => ({}), (v) => expect(v).toEqual([])],
    ['one venue', (s) => ({ venue: s.venue.id }), (v, s) => {
      expect(Array.isArray(v)).toBe(false);
      expect((v as Json).id).toBe(s.venue.id);
    }],
    ['several venues', (s) => ({ venue: [s.venue.id, s.venue2.id] }), (v, s) => {
      expect(Array.isArray(v)).toBe(true);
      expect(ids(v)).toEqual([s.venue.id, s.venue2.id]);
    }],
  ])('venue with %s', async (_name, input, check) => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput(input(s)), as(admin))).value;
    check(event.venue, s);
    check((await s.calendar.events.get({ id: event.id }, anon)).value.venue, s);
    check(((await s.calendar.events.list({}, anon)).body.events as Json[])[0]!.venue, s);
  });

  it.each<[string, (s: Awaited<ReturnType<typeof setup>>) => unknown, (s: Awaited<ReturnType<typeof setup>>) => number[]]>([
    ['no organizer', () => undefined, () => []],
    ['one organizer', (s) => s.jane.id, (s) => [s.jane.id as number]],
    ['two organizers', (s) => [s.john.id, s.jane.id], (s) => [s.john.id as number, s.jane.id as number]],
  ])('organizer with %s is an array', async (_name, value, expected) => {
    const s = await setup();
    const input = value(s) === undefined ? eventInput() : eventInput({ organizer: value(s) });
    const event = (await s.calendar.events.create(input, as(admin))).value;
    expect(Array.isArray(event.organizer)).toBe(true);
    expect(ids(event.organizer)).toEqual(expected(s));
  });

  // §1.6: image is false, or the object (metadata merged, empty values removed).
  it.each<[string, unknown, unknown]>([
    ['none', undefined, false],
    ['with metadata', POSTER.id, {
      url: POSTER.url, id: 345, extension: 'jpg', width: 1200, height: 800, filesize: 183402, sizes: POSTER.sizes,
    }],
    ['without metadata', BARE_IMAGE.id, { url: BARE_IMAGE.url, id: 346, extension: 'png' }],
  ])('image %s', async (_name, image, expected) => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput(image === undefined ? {} : { image }), as(admin))).value;
    expect(event.image).toStrictEqual(expected);
    if (expected !== false) expect(Object.keys(event.image as Json)).toEqual(Object.keys(expected as Json));
  });

  // §1.1 / §1.2: urls.
  it('url is the permalink and rest_url the API URL without a trailing slash', async () => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    expect(event.url).toBe(`${SITE}/event/jazz-night/`);
    expect(event.rest_url).toBe(`${API}/events/${event.id}`);
  });

  // §1.1: titles are HTML-safe; descriptions are paragraph-wrapped; an empty excerpt stays "".
  it.each<[string, Json, Json]>([
    ['an ampersand in the title', { title: 'Rock & Roll' }, { title: 'Rock &#038; Roll' }],
    ['a plain description', { description: 'Live quartet.' }, { description: '<p>Live quartet.</p>' }],
    ['no excerpt', {}, { excerpt: '' }],
    ['an excerpt', { excerpt: 'Short.' }, { excerpt: '<p>Short.</p>' }],
  ])('%s', async (_name, input, expected) => {
    const { calendar } = await setup();
    expect((await calendar.events.create(eventInput(input), as(admin))).value).toMatchObject(expected);
  });
});

describe('global_id (§1.2)', () => {
  // `<host><path of the home URL>?id=<id>`: no scheme, no port.
  it.each([
    ['https://example.com', 'example.com'],
    ['https://example.com/', 'example.com'],
    ['https://example.com/blog', 'example.com/blog'],
    ['http://example.com:8080/blog/', 'example.com/blog'],
    ['https://sub.example.org:443/a/b', 'sub.example.org/a/b'],
  ])('site %s gives %s?id=<id> on events, venues and organizers', async (siteUrl, prefix) => {
    const calendar = makeCalendar({ siteUrl });
    const venue = (await calendar.venues.create({ venue: 'Hall' }, as(admin))).value;
    const organizer = (await calendar.organizers.create({ organizer: 'Org' }, as(admin))).value;
    const event = (await calendar.events.create(eventInput({ venue: venue.id, organizer: organizer.id }), as(admin))).value;
    for (const post of [event, venue, organizer, event.venue as Json, (event.organizer as Json[])[0]!]) {
      expect(post.global_id).toBe(`${prefix}?id=${post.id}`);
      expect(post.global_id_lineage).toEqual([post.global_id]);
    }
  });
});

describe('json_ld only on single reads (§1.7)', () => {
  it.each<[string, boolean, (s: Awaited<ReturnType<typeof setup>>, id: number) => Promise<Json>]>([
    ['event GET', true, async (s, id) => (await s.calendar.events.get({ id }, anon)).value],
    ['event GET by slug', true, async (s) => (await s.calendar.events.getBySlug({ slug: 'jazz-night' }, anon)).value],
    ['event list item', false, async (s) => ((await s.calendar.events.list({}, anon)).body.events as Json[])[0]!],
    ['event create', false, async (s) => (await s.calendar.events.create(eventInput({ title: 'Other' }), as(admin))).value],
    ['event update', false, async (s, id) => (await s.calendar.events.update({ id }, as(admin))).value],
    ['event delete', false, async (s, id) => (await s.calendar.events.delete({ id }, as(admin))).value],
    ['venue GET', true, async (s) => (await s.calendar.venues.get({ id: s.venue.id }, anon)).value],
    ['venue list item', false, async (s) => ((await s.calendar.venues.list({}, anon)).body.venues as Json[])[0]!],
    ['venue embedded in an event GET', true, async (s, id) => (await s.calendar.events.get({ id }, anon)).value.venue as Json],
    ['venue embedded in an event list item', false, async (s) => ((await s.calendar.events.list({}, anon)).body.events as Json[])[0]!.venue as Json],
    ['organizer GET', true, async (s) => (await s.calendar.organizers.get({ id: s.jane.id }, anon)).value],
    ['organizer list item', false, async (s) => ((await s.calendar.organizers.list({}, anon)).body.organizers as Json[])[0]!],
    ['organizer embedded in an event GET', true, async (s, id) => ((await s.calendar.events.get({ id }, anon)).value.organizer as Json[])[0]!],
    ['organizer embedded in an event update', false, async (s, id) => ((await s.calendar.events.update({ id, organizer: s.jane.id }, as(admin))).value.organizer as Json[])[0]!],
  ])('%s: json_ld present: %s', async (_name, present, read) => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({ venue: s.venue.id, organizer: [s.jane.id, s.john.id], cost: '$15' }), as(admin))).value;
    const body = await read(s, event.id as number);
    if (present) expect(body.json_ld).toEqual(expect.objectContaining({ '@type': expect.any(String) }));
    else expect(body).not.toHaveProperty('json_ld');
  });

  it('the event json_ld: key order, offset dates, first organizer, venue location, offers', async () => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({
      venue: s.venue.id, organizer: [s.john.id, s.jane.id], cost: '$15', timezone: 'America/New_York',
    }), as(admin))).value;
    const ld = (await s.calendar.events.get({ id: event.id }, anon)).value.json_ld as Json;
    expect(Object.keys(ld)).toEqual([
      '@context', '@type', 'name', 'description', 'url', 'eventAttendanceMode', 'eventStatus', 'startDate', 'endDate',
      'location', 'organizer', 'offers', 'performer',
    ]);
    expect(ld).toMatchObject({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Jazz Night',
      url: `${SITE}/event/jazz-night/`,
      startDate: '2026-12-01T20:00:00-05:00',
      endDate: '2026-12-01T23:00:00-05:00',
      location: { '@type': 'Place', name: 'Blue Room' },
      organizer: { '@type': 'Person', name: 'John Roe' },
      offers: { '@type': 'Offer', price: '15', priceCurrency: 'USD', url: `${SITE}/event/jazz-night/` },
      performer: 'Organization',
    });
    expect(ld.organizer).not.toBeInstanceOf(Array);
  });

  it('the page JSON-LD (eventPageJsonLd): the API\'s, with every organizer, a schema.org availability and no literal performer', async () => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({
      venue: s.venue.id, organizer: [s.john.id, s.jane.id], cost: '$15', timezone: 'America/New_York',
    }), as(admin))).value;
    const read = (await s.calendar.events.get({ id: event.id }, anon)).value;
    const page = eventPageJsonLd(read) as Json;
    expect(Object.keys(page)).toEqual([
      '@context', '@type', 'name', 'description', 'url', 'eventAttendanceMode', 'eventStatus', 'startDate', 'endDate', 'location', 'organizer', 'offers',
    ]);
    expect(page).toMatchObject({
      '@context': 'https://schema.org',
      startDate: '2026-12-01T20:00:00-05:00',
      location: { '@type': 'Place', name: 'Blue Room', address: { '@type': 'PostalAddress', streetAddress: '1 Main St', addressLocality: 'Springfield' } },
      organizer: [{ '@type': 'Person', name: 'John Roe' }, { '@type': 'Person', name: 'Jane Doe', url: 'https://jane.example' }],
      offers: { '@type': 'Offer', price: '15', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    // The API's own json_ld keeps the reference's form.
    expect((read.json_ld as Json).performer).toBe('Organization');
    const alone = (await s.calendar.events.create(eventInput({ title: 'Solo', organizer: [s.jane.id] }), as(admin))).value;
    expect(eventPageJsonLd((await s.calendar.events.get({ id: alone.id }, anon)).value)).toMatchObject({ organizer: { '@type': 'Person', name: 'Jane Doe' } });
    // Texts decoded; a cost's own currency symbol, where it names one currency, gives the offer's currency.
    const euro = (await s.calendar.events.create(eventInput({ title: 'Jazz &#8211; Live', cost: '20 €', venue: s.venue.id }), as(admin))).value;
    expect(eventPageJsonLd((await s.calendar.events.get({ id: euro.id }, anon)).value)).toMatchObject({ name: 'Jazz – Live', offers: { price: '20', priceCurrency: 'EUR' } });
    // No page JSON-LD where the read carries none (a protected event read with its password).
    const { json_ld: _ld, ...withoutLd } = read;
    expect(eventPageJsonLd(withoutLd)).toBeUndefined();
  });

  it('no json_ld for a password-protected event read with its password', async () => {
    const calendar = makeCalendar();
    await calendar.importDataset({ events: [{ id: 300, ...eventInput(), status: 'publish', author: 1, password: 'pw' }] });
    const body = (await calendar.events.get({ id: 300, password: 'pw' }, anon)).value;
    expect(body.title).toBe('Jazz Night');
    expect(body).not.toHaveProperty('json_ld');
  });
});
