// Event creates (§4.1) and the end-before-start rule (§10.4, behaviour.md).
import { describe, expect, it } from 'vitest';
import type { CalendarErrorCode, Principal } from '@evcal/core';
import { admin, anon, as, author, contributor, eventInput, expectInvalid, ids, listedEventIds, refusal, subscriber, venueIds, type Json, at } from './helpers';
import { setup } from './support/event-fixtures';

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
    const created = (await calendar.events.create(eventInput({ [field]: 'Some words' }), as(admin))).value;
    expect(at(created, field)).toContain('Some words');
    const cleared = (await calendar.events.patch({ id: created.id, [field]: '' }, as(admin))).value;
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
      expect((await create).value.image).toMatchObject({ url: 'https://cdn.example.com/a/poster.jpg', extension: 'jpg' });
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
    const event = (await calendar.events.create(eventInput(status ? { status } : {}), as(principal))).value;
    expect(event.status).toBe(expected);
  });

  // §4.1.1: publish with a future publish date is scheduled; the date is kept as given.
  it.each([
    ['publish', '2026-12-24 10:00:00', 'future'],
    ['future', '2026-12-24 10:00:00', 'future'],
    ['publish', '2026-11-01 10:00:00', 'publish'],
  ])('status %s with date %s stores %s', async (status, date, expected) => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput({ status, date }), as(admin))).value;
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
    for (const input of inputs) last = (await calendar.events.create(eventInput(input), as(admin))).value;
    expect(last.slug).toBe(expected);
  });

  it('a draft gets its slug from the title when it is published', async () => {
    const { calendar } = await setup();
    const draft = (await calendar.events.create(eventInput({ title: 'Late Show', status: 'draft' }), as(admin))).value;
    expect(draft.slug).toBe('');
    const published = (await calendar.events.patch({ id: draft.id, status: 'publish' }, as(admin))).value;
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
    const event = (await calendar.events.create(eventInput(authorId ? { author: authorId } : {}), as(principal))).value;
    expect(event.author).toBe(expected);
  });

  // §4.1.3: presentation flags; show_map and show_map_link default to false on create.
  it.each(['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'all_day'])('%s defaults to false', async (flag) => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
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
    const event = (await calendar.events.create(eventInput({ [flag]: value }), as(admin))).value;
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
    const event = (await calendar.events.create(eventInput(input), as(admin))).value;
    expect(event.website).toBe(expected(event));
  });

  // §4.1.3 / §2.1.2: a hidden event is never listed but can be read singly.
  it('hide_from_listings keeps the event out of lists but readable', async () => {
    const { calendar } = await setup();
    const shown = (await calendar.events.create(eventInput({ title: 'Shown' }), as(admin))).value;
    const hidden = (await calendar.events.create(eventInput({ title: 'Hidden', hide_from_listings: true }), as(admin))).value;
    expect(await listedEventIds(calendar)).toEqual([shown.id]);
    expect((await calendar.events.get({ id: hidden.id }, anon)).value.hide_from_listings).toBe(true);
  });

  // §4.1 response: the created event without json_ld.
  it('answers with the stored event and no json_ld', async () => {
    const { calendar, venue, org1 } = await setup();
    const event = (await calendar.events.create(eventInput({ venue: venue.id, organizer: org1.id }), as(admin))).value;
    expect(event).not.toHaveProperty('json_ld');
    expect(event.title).toBe('Jazz Night');
    expect(venueIds(event.venue)).toEqual([venue.id]);
    expect(ids(event.organizer)).toEqual([org1.id]);
    // A single GET adds json_ld to the event and to each venue and organizer it embeds.
    const read = (await calendar.events.get({ id: event.id }, as(admin))).value;
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
    const event = (await calendar.events.create(eventInput({ start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 20:00:00' }), as(admin))).value;
    expect([event.start_date, event.end_date]).toEqual(['2026-12-01 20:00:00', '2026-12-01 20:00:00']);
  });

  it.each<[string, 'update' | 'patch', Record<string, unknown>]>([
    ['update, both dates', 'update', { start_date: '2026-12-05 20:00:00', end_date: '2026-12-05 10:00:00' }],
    ['patch, both dates', 'patch', { start_date: '2026-12-05 20:00:00', end_date: '2026-12-05 10:00:00' }],
    ['update, lone start after the stored end', 'update', { start_date: '2026-12-02 09:00:00' }],
    ['patch, lone end before the stored start', 'patch', { end_date: '2026-12-01 08:00:00' }],
  ])('%s is refused and nothing changes', async (_name, method, dates) => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    await expectInvalid(calendar.events[method]({ id: event.id, ...dates }, as(admin)), 'end_date');
    const after = (await calendar.events.get({ id: event.id }, as(admin))).value;
    expect([after.start_date, after.end_date]).toEqual(['2026-12-01 20:00:00', '2026-12-01 23:00:00']);
  });
});
