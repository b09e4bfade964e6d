// Event writes: create (§4.1), update with POST/PUT and PATCH semantics (§4.2, §4.7), delete
// (§4.3), and evcal's decisions §10.2-§10.4 and §10.9 (behaviour.md).
import { describe, expect, it } from 'vitest';
import type { CalendarErrorCode, Principal } from '@evcal/core';
import {
  POSTER, admin, anon, as, author, contributor, editor, eventInput, expectInvalid, ids, listedEventIds, makeCalendar,
  refusal, subscriber, venueIds, type Json, at } from './helpers';

/** A calendar with one venue, two organizers, a category and a tag. */
async function setup() {
  const calendar = makeCalendar();
  const venue = await calendar.venues.create({ venue: 'Blue Room', city: 'Springfield' }, as(admin));
  const venue2 = await calendar.venues.create({ venue: 'Red Room', city: 'Shelbyville' }, as(admin));
  const org1 = await calendar.organizers.create({ organizer: 'Jane Doe' }, as(admin));
  const org2 = await calendar.organizers.create({ organizer: 'John Roe' }, as(admin));
  const category = await calendar.categories.create({ name: 'Live Music' }, as(admin));
  const tag = await calendar.tags.create({ name: 'Outdoor' }, as(admin));
  return { calendar, venue, venue2, org1, org2, category, tag };
}

/** An event with every optional field set to a non-default value. */
async function fullEvent() {
  const s = await setup();
  const event = await s.calendar.events.create({
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
  }, as(admin));
  return { ...s, event };
}

const EMPTY_COST_DETAILS = { currency_symbol: '', currency_code: '', currency_position: '', values: [] };

describe('create (§4.1)', () => {
  // §4.1 / §0 step 3: a missing required argument is missing_params, names in declaration order.
  it.each([
    ['title', ['title']],
    ['start_date', ['start_date']],
    ['end_date', ['end_date']],
    ['title,start_date,end_date', ['title', 'start_date', 'end_date']],
  ])('omitting %s is missing_params', async (omit, expected) => {
    const { calendar } = await setup();
    const input = eventInput();
    for (const key of omit.split(',')) delete input[key];
    const error = await refusal(calendar.events.create(input, as(admin)), 'missing_params');
    expect(error.details.params).toEqual(expected);
  });

  // §4.1 field validation: each bad value is invalid_params naming that field.
  it.each<[string, unknown]>([
    ['title', ''],
    ['start_date', ''],
    ['start_date', 'before my birthday'],
    ['end_date', '2026-13-45'],
    ['slug', ''],
    ['status', 'bogus'],
    ['author', 99],
    ['timezone', 'Mars/Olympus_Mons'],
    ['website', 'not a url'],
    ['website', 'www.example.com'],
    ['all_day', 'yes'],
    ['show_map', 'on'],
    ['show_map_link', ''],
    ['hide_from_listings', 2],
    ['sticky', 'sticky'],
    ['featured', 'no'],
    ['image', 999],
    ['venue', 99_999],
    ['organizer', [99_999]],
  ])('%s = %j is invalid_params', async (field, value) => {
    const { calendar } = await setup();
    await expectInvalid(calendar.events.create(eventInput({ [field]: value }), as(admin)), field);
  });

  // evcal decision (docs/compatibility.md): an empty description or excerpt is accepted and clears it.
  it.each(['description', 'excerpt'])('%s = "" clears the text on patch', async (field) => {
    const { calendar } = await setup();
    const created = await calendar.events.create(eventInput({ [field]: 'Some words' }), as(admin));
    expect(at(created, field)).toContain('Some words');
    const cleared = await calendar.events.patch({ id: created.id, [field]: '' }, as(admin));
    expect(at(cleared, field)).toBe('');
  });

  it('names every invalid parameter at once', async () => {
    const { calendar } = await setup();
    await expectInvalid(calendar.events.create(eventInput({ title: '', timezone: 'Nowhere/City', featured: 'maybe' }), as(admin)),
      'title', 'timezone', 'featured');
  });

  // §4.1.4: an image URL needs the upload capability (author and above).
  it.each<[string, Principal, boolean]>([
    ['contributor', contributor, false],
    ['author', author, true],
  ])('an image URL from a %s is accepted: %s', async (_name, principal, accepted) => {
    const { calendar } = await setup();
    const create = calendar.events.create(eventInput({ image: 'https://cdn.example.com/a/poster.jpg' }), as(principal));
    if (!accepted) {
      await expectInvalid(create, 'image');
    } else {
      expect((await create).image).toMatchObject({ url: 'https://cdn.example.com/a/poster.jpg', extension: 'jpg' });
    }
  });

  // §0 step 6 / §5: validation runs before permissions; anonymous 401, logged-in 403.
  it.each<[string, Record<string, unknown>, Principal | undefined, CalendarErrorCode]>([
    ['anonymous, invalid input', eventInput({ title: '' }), undefined, 'invalid_params'],
    ['anonymous, missing title', { start_date: '2026-12-01 20:00', end_date: '2026-12-01 21:00' }, undefined, 'missing_params'],
    ['anonymous, valid input', eventInput(), undefined, 'unauthenticated'],
    ['subscriber, invalid input', eventInput({ featured: 'yes' }), subscriber, 'invalid_params'],
    ['subscriber, valid input', eventInput(), subscriber, 'forbidden'],
  ])('%s is %s', async (_name, input, principal, code) => {
    const { calendar } = await setup();
    await refusal(calendar.events.create(input, principal ? as(principal) : anon), code);
    expect(await listedEventIds(calendar)).toEqual([]);
  });

  // §4.1.1: status scale-back by the caller's publish capability.
  it.each<[string, Principal, string | undefined, string]>([
    ['administrator', admin, undefined, 'publish'],
    ['author', author, undefined, 'publish'],
    ['author', author, 'draft', 'draft'],
    ['author', author, 'pending', 'pending'],
    ['author', author, 'private', 'private'],
    ['contributor', contributor, undefined, 'draft'],
    ['contributor', contributor, 'publish', 'pending'],
    ['contributor', contributor, 'future', 'pending'],
    ['contributor', contributor, 'draft', 'draft'],
    ['contributor', contributor, 'pending', 'pending'],
    ['contributor', contributor, 'private', 'private'],
  ])('%s creating with status %s stores %s', async (_name, principal, status, expected) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput(status ? { status } : {}), as(principal));
    expect(event.status).toBe(expected);
  });

  // §4.1.1: publish with a future publish date is scheduled; the date is kept as given.
  it.each([
    ['publish', '2026-12-24 10:00:00', 'future'],
    ['future', '2026-12-24 10:00:00', 'future'],
    ['publish', '2026-11-01 10:00:00', 'publish'],
  ])('status %s with date %s stores %s', async (status, date, expected) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput({ status, date }), as(admin));
    expect(event.status).toBe(expected);
    expect(event.date).toBe(date);
  });

  // §4.1 slug and §1.1: derived from the title on publish, sanitised, unique; drafts have "".
  it.each<[string, Record<string, unknown>[], string]>([
    ['from the title', [{ title: 'Jazz Night' }], 'jazz-night'],
    ['unique by suffix', [{ title: 'Jazz Night' }, { title: 'Jazz Night' }], 'jazz-night-2'],
    ['third copy', [{ title: 'Jazz Night' }, { title: 'Jazz Night' }, { title: 'Jazz Night' }], 'jazz-night-3'],
    ['explicit, sanitised', [{ slug: 'My Great Slug' }], 'my-great-slug'],
    ['explicit, already taken', [{ slug: 'gig' }, { slug: 'gig' }], 'gig-2'],
    ['draft without slug', [{ status: 'draft' }], ''],
    ['pending without slug', [{ status: 'pending' }], ''],
    ['draft with explicit slug', [{ status: 'draft', slug: 'kept' }], 'kept'],
  ])('slug %s', async (_name, inputs, expected) => {
    const { calendar } = await setup();
    let last: Json = {};
    for (const input of inputs) last = await calendar.events.create(eventInput(input), as(admin));
    expect(last.slug).toBe(expected);
  });

  it('a draft gets its slug from the title when it is published', async () => {
    const { calendar } = await setup();
    const draft = await calendar.events.create(eventInput({ title: 'Late Show', status: 'draft' }), as(admin));
    expect(draft.slug).toBe('');
    const published = await calendar.events.patch({ id: draft.id, status: 'publish' }, as(admin));
    expect(published.slug).toBe('late-show');
  });

  // §4.1 author: any existing user may be named; the default is the caller.
  it.each<[string, Principal, number | undefined, string]>([
    ['administrator', admin, undefined, '1'],
    ['contributor', contributor, undefined, '4'],
    ['administrator', admin, 3, '3'],
    ['contributor', contributor, 2, '2'],
  ])('%s naming author %s stores author %s', async (_name, principal, authorId, expected) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput(authorId ? { author: authorId } : {}), as(principal));
    expect(event.author).toBe(expected);
  });

  // §4.1.3: presentation flags; show_map and show_map_link default to false on create.
  it.each(['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'all_day'])('%s defaults to false', async (flag) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput(), as(admin));
    expect(at(event, flag)).toBe(false);
  });

  // §8.4(a): the WordPress boolean accepts true/false, 1/0 and those words or digits in any case.
  it.each<[string, unknown, boolean]>([
    ['show_map', true, true],
    ['show_map', 'TRUE', true],
    ['show_map_link', '1', true],
    ['show_map_link', 1, true],
    ['sticky', 'true', true],
    ['featured', 'True', true],
    ['hide_from_listings', true, true],
    ['featured', false, false],
    ['featured', 'false', false],
    ['sticky', '0', false],
    ['show_map', 0, false],
    ['show_map', 'FALSE', false],
  ])('%s = %j reads back %s', async (flag, value, expected) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput({ [flag]: value }), as(admin));
    expect(at(event, flag)).toBe(expected);
  });

  // §1.2 website: the permalink when never set, "" when set empty, else the URL.
  it.each<[string, Record<string, unknown>, (e: Json) => unknown]>([
    ['absent', {}, (e) => e.url],
    ['empty', { website: '' }, () => ''],
    ['a URL', { website: 'https://jazz.example/tickets' }, () => 'https://jazz.example/tickets'],
    ['a mailto URL', { website: 'mailto:box@jazz.example' }, () => 'mailto:box@jazz.example'],
  ])('website %s', async (_name, input, expected) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput(input), as(admin));
    expect(event.website).toBe(expected(event));
  });

  // §4.1.3 / §2.1.2: a hidden event is never listed but can be read singly.
  it('hide_from_listings keeps the event out of lists but readable', async () => {
    const { calendar } = await setup();
    const shown = await calendar.events.create(eventInput({ title: 'Shown' }), as(admin));
    const hidden = await calendar.events.create(eventInput({ title: 'Hidden', hide_from_listings: true }), as(admin));
    expect(await listedEventIds(calendar)).toEqual([shown.id]);
    expect((await calendar.events.get({ id: hidden.id }, anon)).hide_from_listings).toBe(true);
  });

  // §4.1 response: the created event without json_ld.
  it('answers with the stored event and no json_ld', async () => {
    const { calendar, venue, org1 } = await setup();
    const event = await calendar.events.create(eventInput({ venue: venue.id, organizer: org1.id }), as(admin));
    expect(event).not.toHaveProperty('json_ld');
    expect(event.title).toBe('Jazz Night');
    expect(venueIds(event.venue)).toEqual([venue.id]);
    expect(ids(event.organizer)).toEqual([org1.id]);
    // A single GET adds json_ld to the event and to each venue and organizer it embeds.
    const read = await calendar.events.get({ id: event.id }, as(admin));
    const { json_ld: _ignored, venue: readVenue, organizer: readOrganizers, ...rest } = read;
    const withoutJsonLd = ({ json_ld: _j, ...post }: Record<string, unknown>) => post;
    expect({ ...rest, venue: withoutJsonLd(readVenue as Record<string, unknown>), organizer: (readOrganizers as Record<string, unknown>[]).map(withoutJsonLd) }).toEqual(event);
  });
});

describe('end before start (§10.4)', () => {
  // §10.4: evcal refuses an end before the start with invalid_params naming end_date.
  it.each<[string, Record<string, unknown>]>([
    ['one hour earlier', { start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 19:00:00' }],
    ['one second earlier', { start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 19:59:59' }],
    ['a day earlier', { start_date: '2026-12-02', end_date: '2026-12-01' }],
    ['all day, end date before start date', { all_day: true, start_date: '2026-12-02', end_date: '2026-12-01' }],
  ])('create: %s', async (_name, dates) => {
    const { calendar } = await setup();
    await expectInvalid(calendar.events.create(eventInput(dates), as(admin)), 'end_date');
  });

  it('an end equal to the start is accepted', async () => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput({ start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 20:00:00' }), as(admin));
    expect([event.start_date, event.end_date]).toEqual(['2026-12-01 20:00:00', '2026-12-01 20:00:00']);
  });

  it.each<[string, 'update' | 'patch', Record<string, unknown>]>([
    ['update, both dates', 'update', { start_date: '2026-12-05 20:00:00', end_date: '2026-12-05 10:00:00' }],
    ['patch, both dates', 'patch', { start_date: '2026-12-05 20:00:00', end_date: '2026-12-05 10:00:00' }],
    ['update, lone start after the stored end', 'update', { start_date: '2026-12-02 09:00:00' }],
    ['patch, lone end before the stored start', 'patch', { end_date: '2026-12-01 08:00:00' }],
  ])('%s is refused and nothing changes', async (_name, method, dates) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput(), as(admin));
    await expectInvalid(calendar.events[method]({ id: event.id, ...dates }, as(admin)), 'end_date');
    const after = await calendar.events.get({ id: event.id }, as(admin));
    expect([after.start_date, after.end_date]).toEqual(['2026-12-01 20:00:00', '2026-12-01 23:00:00']);
  });
});

describe('update with POST/PUT semantics (§4.2)', () => {
  // §4.2 table: omitted fields are reset; §10.2 omitted organizers are unlinked.
  it.each<[string, (e: Json) => unknown, unknown]>([
    ['status', (e) => e.status, 'publish'],
    ['all_day', (e) => e.all_day, false],
    ['show_map', (e) => e.show_map, false],
    ['show_map_link', (e) => e.show_map_link, false],
    ['sticky', (e) => e.sticky, false],
    ['featured', (e) => e.featured, false],
    ['hide_from_listings', (e) => e.hide_from_listings, false],
    ['cost', (e) => e.cost, ''],
    ['cost_details', (e) => e.cost_details, EMPTY_COST_DETAILS],
    ['website', (e) => e.website, ''],
    ['image', (e) => e.image, false],
    ['timezone', (e) => e.timezone, 'America/New_York'],
    ['organizer (§10.2)', (e) => e.organizer, []],
  ])('an omitted %s is reset', async (_field, read, expected) => {
    const { calendar, event } = await fullEvent();
    const updated = await calendar.events.update({ id: event.id }, as(admin));
    expect(read(updated)).toEqual(expected);
    // The reset is stored, not only answered.
    expect(read(await calendar.events.get({ id: event.id }, as(admin)))).toEqual(expected);
  });

  // §4.2 table: these are left unchanged when omitted; §10.2 the venue is kept.
  it.each<[string, (e: Json) => unknown]>([
    ['title', (e) => e.title],
    ['description', (e) => e.description],
    ['excerpt', (e) => e.excerpt],
    ['slug', (e) => e.slug],
    ['author', (e) => e.author],
    ['date', (e) => e.date],
    ['date_utc', (e) => e.date_utc],
    ['categories', (e) => ids(e.categories)],
    ['tags', (e) => ids(e.tags)],
    ['venue (§10.2)', (e) => venueIds(e.venue)],
  ])('an omitted %s is kept', async (_field, read) => {
    const { calendar, event } = await fullEvent();
    const updated = await calendar.events.update({ id: event.id }, as(admin));
    expect(read(updated)).toEqual(read(event));
    expect(read(await calendar.events.get({ id: event.id }, as(admin)))).toEqual(read(event));
  });

  it('§10.2: omitting organizer unlinks every organizer and keeps the venue, through every update route', async () => {
    for (const route of ['update', 'updateBySlug'] as const) {
      const { calendar, event, venue } = await fullEvent();
      const key = route === 'update' ? { id: event.id } : { slug: event.slug };
      const updated = await calendar.events[route]({ ...key, title: 'Renamed' }, as(admin));
      expect(updated.organizer, route).toEqual([]);
      expect(venueIds(updated.venue), route).toEqual([venue.id]);
      const stored = await calendar.events.get({ id: event.id }, as(admin));
      expect(stored.organizer, route).toEqual([]);
      expect(venueIds(stored.venue), route).toEqual([venue.id]);
    }
  });

  // §4.2 / §4.1.1: the status an update without `status` stores, by caller.
  it.each<[string, Principal, string, string]>([
    ['administrator, draft', admin, 'draft', 'publish'],
    ['administrator, private', admin, 'private', 'publish'],
    ['contributor, own draft', contributor, 'draft', 'draft'],
    ['contributor, own pending', contributor, 'pending', 'draft'],
  ])('%s becomes %s', async (_name, principal, initial, expected) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput({ status: initial }), as(principal));
    expect(event.status).toBe(initial);
    expect((await calendar.events.update({ id: event.id }, as(principal))).status).toBe(expected);
  });

  it('updating a trashed event restores it', async () => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput(), as(admin));
    await calendar.events.delete({ id: event.id }, as(admin));
    const restored = await calendar.events.update({ id: event.id, title: 'Back' }, as(admin));
    expect(restored.status).toBe('publish');
    expect(restored.slug).toBe('jazz-night');
    expect((await calendar.events.get({ id: event.id }, anon)).title).toBe('Back');
  });

  // evcal: a lone start_date or end_date on update is applied with the stored other date.
  it.each<[string, 'update' | 'patch', Record<string, unknown>, [string, string]]>([
    ['update, lone start', 'update', { start_date: '2026-12-01 21:00:00' }, ['2026-12-01 21:00:00', '2026-12-01 23:00:00']],
    ['update, lone end', 'update', { end_date: '2026-12-02 01:00:00' }, ['2026-12-01 20:00:00', '2026-12-02 01:00:00']],
    ['patch, lone start', 'patch', { start_date: '2026-11-30 18:00:00' }, ['2026-11-30 18:00:00', '2026-12-01 23:00:00']],
    ['update, both', 'update', { start_date: '2026-12-03 10:00:00', end_date: '2026-12-03 12:00:00' }, ['2026-12-03 10:00:00', '2026-12-03 12:00:00']],
    ['update, lone start, all day', 'update', { start_date: '2026-11-30 18:00:00', all_day: true }, ['2026-11-30 00:00:00', '2026-12-01 23:59:59']],
  ])('%s', async (_name, method, dates, [start, end]) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput(), as(admin));
    const updated = await calendar.events[method]({ id: event.id, ...dates }, as(admin));
    expect([updated.start_date, updated.end_date]).toEqual([start, end]);
    const stored = await calendar.events.get({ id: event.id }, as(admin));
    expect([stored.start_date, stored.end_date]).toEqual([start, end]);
  });

  // evcal: changing only the timezone keeps the local wall clock and recomputes the UTC instants.
  it.each<[string, 'update' | 'patch', Record<string, unknown>, string, [string, string], string]>([
    ['patch to Europe/Rome', 'patch', { timezone: 'Europe/Rome' }, 'Europe/Rome', ['2026-12-01 19:00:00', '2026-12-01 22:00:00'], 'CET'],
    ['update to Europe/Rome', 'update', { timezone: 'Europe/Rome' }, 'Europe/Rome', ['2026-12-01 19:00:00', '2026-12-01 22:00:00'], 'CET'],
    ['patch to UTC+2', 'patch', { timezone: 'UTC+2' }, 'UTC+2', ['2026-12-01 18:00:00', '2026-12-01 21:00:00'], 'UTC+2'],
    ['update omitting timezone (reset to the site zone)', 'update', {}, 'America/New_York', ['2026-12-02 01:00:00', '2026-12-02 04:00:00'], 'EST'],
  ])('%s', async (_name, method, change, zone, [utcStart, utcEnd], abbr) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput({ timezone: 'Asia/Tokyo' }), as(admin));
    expect(event.utc_start_date).toBe('2026-12-01 11:00:00');
    const updated = await calendar.events[method]({ id: event.id, ...change }, as(admin));
    expect(updated).toMatchObject({
      timezone: zone,
      timezone_abbr: abbr,
      start_date: '2026-12-01 20:00:00',
      end_date: '2026-12-01 23:00:00',
      utc_start_date: utcStart,
      utc_end_date: utcEnd,
    });
  });

  // §4.2 checks and §5 permissions.
  it.each<[string, CalendarErrorCode, (c: Awaited<ReturnType<typeof setup>>, id: number) => Promise<unknown>]>([
    ['no such event', 'event_not_found', (s) => s.calendar.events.update({ id: 9_999, title: 'x' }, as(admin))],
    ['id 0', 'event_not_found', (s) => s.calendar.events.update({ id: 0, title: 'x' }, as(admin))],
    ['the id of a venue', 'not_an_event', (s) => s.calendar.events.update({ id: s.venue.id, title: 'x' }, as(admin))],
    ['anonymous', 'unauthenticated', (s, id) => s.calendar.events.update({ id, title: 'x' }, anon)],
    ['subscriber', 'forbidden', (s, id) => s.calendar.events.update({ id, title: 'x' }, as(subscriber))],
    ["contributor on the administrator's event", 'forbidden', (s, id) => s.calendar.events.patch({ id, title: 'x' }, as(contributor))],
    ["author on the administrator's event", 'forbidden', (s, id) => s.calendar.events.update({ id, title: 'x' }, as(author))],
    ['unknown slug', 'invalid_params', (s) => s.calendar.events.updateBySlug({ slug: 'no-such-event', title: 'x' }, as(admin))],
    ['unknown slug on patch', 'invalid_params', (s) => s.calendar.events.patchBySlug({ slug: 'no-such-event', title: 'x' }, as(admin))],
    ['invalid value', 'invalid_params', (s, id) => s.calendar.events.update({ id, website: 'nope' }, as(admin))],
  ])('%s is %s', async (_name, code, call) => {
    const s = await setup();
    const event = await s.calendar.events.create(eventInput(), as(admin));
    await refusal(call(s, event.id as number), code);
    expect((await s.calendar.events.get({ id: event.id }, anon)).title).toBe('Jazz Night');
  });

  it.each<[string, Principal]>([
    ['an editor', editor],
    ['the author', author],
  ])("%s may update the author's published event", async (_name, principal) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput(), as(author));
    const updated = await calendar.events.update({ id: event.id, title: 'Renamed' }, as(principal));
    expect(updated.title).toBe('Renamed');
    expect(updated).not.toHaveProperty('json_ld');
  });
});

describe('update with PATCH semantics (§4.7, evcal)', () => {
  const FIELDS = [
    'status', 'description', 'excerpt', 'slug', 'author', 'date', 'date_utc', 'image', 'all_day',
    'start_date', 'end_date', 'utc_start_date', 'utc_end_date', 'timezone', 'timezone_abbr', 'cost', 'cost_details',
    'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'categories', 'tags', 'venue', 'organizer',
  ];

  it.each(FIELDS)('a patch that does not send %s leaves it unchanged', async (field) => {
    const { calendar, event } = await fullEvent();
    const patched = await calendar.events.patch({ id: event.id, title: 'Renamed' }, as(admin));
    expect(patched.title).toBe('Renamed');
    expect(at(patched, field)).toEqual(at(event, field));
    // A single GET adds json_ld to embedded venues and organizers; the rest is the same.
    const dropJsonLd = (v: unknown): unknown => (Array.isArray(v) ? v.map(dropJsonLd)
      : v && typeof v === 'object' && 'json_ld' in v ? (({ json_ld: _j, ...rest }) => rest)(v as Record<string, unknown>) : v);
    expect(dropJsonLd(at(await calendar.events.get({ id: event.id }, as(admin)), field))).toEqual(at(event, field));
  });

  it.each<[string, unknown, unknown]>([
    ['featured', false, false],
    ['sticky', false, false],
    ['cost', '20€', '20€'],
    ['website', 'https://other.example', 'https://other.example'],
    ['status', 'pending', 'pending'],
    ['timezone', 'Asia/Tokyo', 'Asia/Tokyo'],
  ])('a patch that sends %s changes it and nothing else', async (field, value, expected) => {
    const { calendar, event } = await fullEvent();
    const patched = await calendar.events.patch({ id: event.id, [field]: value }, as(admin));
    expect(at(patched, field)).toEqual(expected);
    const derived: Record<string, string[]> = {
      cost: ['cost_details'], timezone: ['timezone_abbr', 'utc_start_date', 'utc_end_date'],
    };
    for (const other of FIELDS.filter((f) => f !== field && !(derived[field] ?? []).includes(f))) {
      expect(at(patched, other), other).toEqual(at(event, other));
    }
  });
});

describe('explicitly empty links and terms (§10.9, §4.1.5)', () => {
  // §10.9: on any update method, an empty venue/organizer unlinks; empty categories/tags clear.
  const EMPTIES = [[], 0, ''] as const;
  const cases = (['update', 'patch'] as const).flatMap((method) => [
    ...EMPTIES.map((empty) => [method, 'venue', empty] as const),
    ...EMPTIES.map((empty) => [method, 'organizer', empty] as const),
    ...([[], ''] as const).map((empty) => [method, 'categories', empty] as const),
    ...([[], ''] as const).map((empty) => [method, 'tags', empty] as const),
  ]);

  it.each(cases)('%s with %s = %j empties it', async (method, field, empty) => {
    const { calendar, event } = await fullEvent();
    expect(event[field]).not.toEqual([]);
    const updated = await calendar.events[method]({ id: event.id, [field]: empty }, as(admin));
    expect(updated[field]).toEqual([]);
    expect((await calendar.events.get({ id: event.id }, as(admin)))[field]).toEqual([]);
  });

  it.each(['venue', 'organizer', 'categories', 'tags'])('an empty %s on create is no link', async (field) => {
    const { calendar } = await setup();
    const event = await calendar.events.create(eventInput({ [field]: [] }), as(admin));
    expect(at(event, field)).toEqual([]);
  });

  // §4.6: a single venue id replaces the previous venue; an organizer list replaces the set.
  it.each(['update', 'patch'] as const)('%s with other links replaces the previous ones', async (method) => {
    const { calendar, event, venue2, org2 } = await fullEvent();
    const updated = await calendar.events[method]({ id: event.id, venue: venue2.id, organizer: [org2.id] }, as(admin));
    expect(venueIds(updated.venue)).toEqual([venue2.id]);
    expect(ids(updated.organizer)).toEqual([org2.id]);
  });
});

describe('delete (§4.3)', () => {
  it('moves the event to the trash and answers with it, without json_ld', async () => {
    const { calendar, venue, org1, category } = await setup();
    const event = await calendar.events.create(eventInput({ venue: venue.id, organizer: org1.id, categories: [category.id] }), as(admin));
    const trashed = await calendar.events.delete({ id: event.id }, as(admin));
    expect(trashed).toMatchObject({ id: event.id, status: 'trash', slug: 'jazz-night__trashed' });
    expect(trashed).not.toHaveProperty('json_ld');
    // Meta and links are kept; linked records are untouched.
    expect(venueIds(trashed.venue)).toEqual([venue.id]);
    expect(ids(trashed.organizer)).toEqual([org1.id]);
    expect(ids(trashed.categories)).toEqual([category.id]);
    expect((await calendar.venues.get({ id: venue.id }, anon)).status).toBe('publish');
    expect((await calendar.organizers.get({ id: org1.id }, anon)).status).toBe('publish');
  });

  // §4.3 / §3.1 step 4: after trashing, reads and deletes refuse; nothing is deleted for good.
  it.each<[string, CalendarErrorCode, (c: ReturnType<typeof makeCalendar>, id: number) => Promise<unknown>]>([
    ['delete again', 'event_in_trash', (c, id) => c.events.delete({ id }, as(admin))],
    ['delete again by slug', 'event_in_trash', (c) => c.events.deleteBySlug({ slug: 'jazz-night__trashed' }, as(admin))],
    ['read by an administrator', 'event_trashed', (c, id) => c.events.get({ id }, as(admin))],
    ['read anonymously', 'event_trashed', (c, id) => c.events.get({ id }, anon)],
  ])('trashed event: %s is %s', async (_name, code, call) => {
    const calendar = makeCalendar();
    const event = await calendar.events.create(eventInput(), as(admin));
    await calendar.events.delete({ id: event.id }, as(admin));
    await refusal(call(calendar, event.id as number), code);
  });

  it('a trashed event is kept (listed with status=trash) and hidden from default lists', async () => {
    const calendar = makeCalendar();
    const event = await calendar.events.create(eventInput(), as(admin));
    await calendar.events.delete({ id: event.id }, as(admin));
    expect(await listedEventIds(calendar)).toEqual([]);
    expect(await listedEventIds(calendar, { status: 'trash' })).toEqual([event.id]);
  });

  it.each<[string, Principal | undefined, Principal, CalendarErrorCode | undefined]>([
    ['administrator deletes an author\'s event', admin, author, undefined],
    ['author deletes own published event', author, author, undefined],
    ['contributor deletes own draft', contributor, contributor, undefined],
    ['anonymous', undefined, admin, 'unauthenticated'],
    ['subscriber', subscriber, admin, 'forbidden'],
    ["contributor deletes the administrator's event", contributor, admin, 'forbidden'],
    ["author deletes an editor's event", author, editor, 'forbidden'],
  ])('%s', async (_name, caller, owner, code) => {
    const calendar = makeCalendar();
    const event = await calendar.events.create(eventInput(), as(owner));
    const del = calendar.events.delete({ id: event.id }, caller ? as(caller) : anon);
    if (code) {
      await refusal(del, code);
      expect((await calendar.events.get({ id: event.id }, as(admin))).status).toBe(event.status);
    } else {
      expect((await del).status).toBe('trash');
    }
  });

  it.each<[string, CalendarErrorCode, number | 'venue']>([
    ['no such event', 'event_not_found', 9_999],
    ['id 0', 'event_not_found', 0],
    ['the id of a venue', 'not_an_event', 'venue'],
  ])('%s is %s', async (_name, code, id) => {
    const { calendar, venue } = await setup();
    await refusal(calendar.events.delete({ id: id === 'venue' ? venue.id : id }, as(admin)), code);
  });

  it('by slug: unknown slug is invalid_params, a known one trashes', async () => {
    const calendar = makeCalendar();
    const event = await calendar.events.create(eventInput(), as(admin));
    await expectInvalid(calendar.events.deleteBySlug({ slug: 'nope' }, as(admin)), 'slug');
    expect((await calendar.events.deleteBySlug({ slug: 'jazz-night' }, as(admin))).id).toBe(event.id);
  });
});
