// Event updates with POST/PUT and PATCH semantics (§4.2, §4.7), explicitly empty links and terms
// (§10.9, §4.1.5), and delete (§4.3) (behaviour.md).
import { describe, expect, it } from 'vitest';
import type { CalendarErrorCode, Principal } from '@evcal/core';
import { admin, anon, as, author, contributor, editor, eventInput, expectInvalid, ids, listedEventIds, makeCalendar, refusal, subscriber, venueIds, type Json, at } from './helpers';
import { setup, fullEvent, EMPTY_COST_DETAILS } from './support/event-fixtures';

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
    const updated = (await calendar.events.update({ id: event.id }, as(admin))).value;
    expect(read(updated)).toEqual(expected);
    // The reset is stored, not only answered.
    expect(read((await calendar.events.get({ id: event.id }, as(admin))).value)).toEqual(expected);
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
    const updated = (await calendar.events.update({ id: event.id }, as(admin))).value;
    expect(read(updated)).toEqual(read(event));
    expect(read((await calendar.events.get({ id: event.id }, as(admin))).value)).toEqual(read(event));
  });

  it('§10.2: omitting organizer unlinks every organizer and keeps the venue, through every update route', async () => {
    for (const route of ['update', 'updateBySlug'] as const) {
      const { calendar, event, venue } = await fullEvent();
      const key = route === 'update' ? { id: event.id } : { slug: event.slug };
      const updated = (await calendar.events[route]({ ...key, title: 'Renamed' }, as(admin))).value;
      expect(updated.organizer, route).toEqual([]);
      expect(venueIds(updated.venue), route).toEqual([venue.id]);
      const stored = (await calendar.events.get({ id: event.id }, as(admin))).value;
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
    const event = (await calendar.events.create(eventInput({ status: initial }), as(principal))).value;
    expect(event.status).toBe(initial);
    expect((await calendar.events.update({ id: event.id }, as(principal))).value.status).toBe(expected);
  });

  it('updating a trashed event restores it', async () => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    await calendar.events.delete({ id: event.id }, as(admin));
    const restored = (await calendar.events.update({ id: event.id, title: 'Back' }, as(admin))).value;
    expect(restored.status).toBe('publish');
    expect(restored.slug).toBe('jazz-night');
    expect((await calendar.events.get({ id: event.id }, anon)).value.title).toBe('Back');
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
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    const updated = (await calendar.events[method]({ id: event.id, ...dates }, as(admin))).value;
    expect([updated.start_date, updated.end_date]).toEqual([start, end]);
    const stored = (await calendar.events.get({ id: event.id }, as(admin))).value;
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
    const event = (await calendar.events.create(eventInput({ timezone: 'Asia/Tokyo' }), as(admin))).value;
    expect(event.utc_start_date).toBe('2026-12-01 11:00:00');
    const updated = (await calendar.events[method]({ id: event.id, ...change }, as(admin))).value;
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
    const event = (await s.calendar.events.create(eventInput(), as(admin))).value;
    await refusal(call(s, event.id as number), code);
    expect((await s.calendar.events.get({ id: event.id }, anon)).value.title).toBe('Jazz Night');
  });

  it.each<[string, Principal]>([
    ['an editor', editor],
    ['the author', author],
  ])("%s may update the author's published event", async (_name, principal) => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput(), as(author))).value;
    const updated = (await calendar.events.update({ id: event.id, title: 'Renamed' }, as(principal))).value;
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
    const patched = (await calendar.events.patch({ id: event.id, title: 'Renamed' }, as(admin))).value;
    expect(patched.title).toBe('Renamed');
    expect(at(patched, field)).toEqual(at(event, field));
    // A single GET adds json_ld to embedded venues and organizers; the rest is the same.
    const dropJsonLd = (v: unknown): unknown => (Array.isArray(v) ? v.map(dropJsonLd)
      : v && typeof v === 'object' && 'json_ld' in v ? (({ json_ld: _j, ...rest }) => rest)(v as Record<string, unknown>) : v);
    expect(dropJsonLd(at((await calendar.events.get({ id: event.id }, as(admin))).value, field))).toEqual(at(event, field));
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
    const patched = (await calendar.events.patch({ id: event.id, [field]: value }, as(admin))).value;
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
    const updated = (await calendar.events[method]({ id: event.id, [field]: empty }, as(admin))).value;
    expect(updated[field]).toEqual([]);
    expect((await calendar.events.get({ id: event.id }, as(admin))).value[field]).toEqual([]);
  });

  it.each(['venue', 'organizer', 'categories', 'tags'])('an empty %s on create is no link', async (field) => {
    const { calendar } = await setup();
    const event = (await calendar.events.create(eventInput({ [field]: [] }), as(admin))).value;
    expect(at(event, field)).toEqual([]);
  });

  // §4.6: a single venue id replaces the previous venue; an organizer list replaces the set.
  it.each(['update', 'patch'] as const)('%s with other links replaces the previous ones', async (method) => {
    const { calendar, event, venue2, org2 } = await fullEvent();
    const updated = (await calendar.events[method]({ id: event.id, venue: venue2.id, organizer: [org2.id] }, as(admin))).value;
    expect(venueIds(updated.venue)).toEqual([venue2.id]);
    expect(ids(updated.organizer)).toEqual([org2.id]);
  });
});

describe('delete (§4.3)', () => {
  it('moves the event to the trash and answers with it, without json_ld', async () => {
    const { calendar, venue, org1, category } = await setup();
    const event = (await calendar.events.create(eventInput({ venue: venue.id, organizer: org1.id, categories: [category.id] }), as(admin))).value;
    const trashed = (await calendar.events.delete({ id: event.id }, as(admin))).value;
    expect(trashed).toMatchObject({ id: event.id, status: 'trash', slug: 'jazz-night__trashed' });
    expect(trashed).not.toHaveProperty('json_ld');
    // Meta and links are kept; linked records are untouched.
    expect(venueIds(trashed.venue)).toEqual([venue.id]);
    expect(ids(trashed.organizer)).toEqual([org1.id]);
    expect(ids(trashed.categories)).toEqual([category.id]);
    expect((await calendar.venues.get({ id: venue.id }, anon)).value.status).toBe('publish');
    expect((await calendar.organizers.get({ id: org1.id }, anon)).value.status).toBe('publish');
  });

  // §4.3 / §3.1 step 4: after trashing, reads and deletes refuse; nothing is deleted for good.
  it.each<[string, CalendarErrorCode, (c: ReturnType<typeof makeCalendar>, id: number) => Promise<unknown>]>([
    ['delete again', 'event_in_trash', (c, id) => c.events.delete({ id }, as(admin))],
    ['delete again by slug', 'event_in_trash', (c) => c.events.deleteBySlug({ slug: 'jazz-night__trashed' }, as(admin))],
    ['read by an administrator', 'event_trashed', (c, id) => c.events.get({ id }, as(admin))],
    ['read anonymously', 'event_trashed', (c, id) => c.events.get({ id }, anon)],
  ])('trashed event: %s is %s', async (_name, code, call) => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    await calendar.events.delete({ id: event.id }, as(admin));
    await refusal(call(calendar, event.id as number), code);
  });

  it('a trashed event is kept (listed with status=trash) and hidden from default lists', async () => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
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
    const event = (await calendar.events.create(eventInput(), as(owner))).value;
    const del = calendar.events.delete({ id: event.id }, caller ? as(caller) : anon);
    if (code) {
      await refusal(del, code);
      expect((await calendar.events.get({ id: event.id }, as(admin))).value.status).toBe(event.status);
    } else {
      expect((await del).value.status).toBe('trash');
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
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    await expectInvalid(calendar.events.deleteBySlug({ slug: 'nope' }, as(admin)), 'slug');
    expect((await calendar.events.deleteBySlug({ slug: 'jazz-night' }, as(admin))).value.id).toBe(event.id);
  });
});
