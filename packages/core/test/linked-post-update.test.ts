// Venues and organizers updated and deleted (§4.5, with §10.8: deleting unlinks them from
// events), and linked from event writes (§4.6), in behaviour.md.
import { describe, expect, it } from 'vitest';
import type { Calendar, CalendarErrorCode, LinkedPostOperations, Principal } from '@evcal/core';
import { POSTER, admin, anon, as, author, contributor, ctxOf, editor, eventInput, expectInvalid, ids, makeCalendar, refusal, venueIds, type Json, type Role, at } from './helpers';

type Kind = 'venue' | 'organizer';

const KINDS: Kind[] = ['venue', 'organizer'];

const ops = (calendar: Calendar, kind: Kind): LinkedPostOperations => (kind === 'venue' ? calendar.venues : calendar.organizers);

/** The smallest valid create input of a kind. */
const named = (kind: Kind, name: string, extra: Json = {}): Json => ({ [kind]: name, ...extra });

describe('update (§4.5)', () => {
  async function seeded(kind: Kind) {
    const calendar = makeCalendar();
    const fields = kind === 'venue'
      ? { description: 'Basement club.', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', phone: '555', website: 'https://blue.example', show_map: 'false', show_map_link: 'false', image: POSTER.id }
      : { description: 'DJ.', phone: '555', website: 'https://jane.example', email: 'jane@example.com', image: POSTER.id };
    const post = (await ops(calendar, kind).create(named(kind, 'Name', { status: 'draft', ...fields }), as(admin))).value;
    return { calendar, post };
  }

  // §4.5: fields left alone when omitted.
  it.each<[Kind, string]>([
    ['venue', 'venue'], ['venue', 'description'], ['venue', 'address'], ['venue', 'city'], ['venue', 'state'],
    ['venue', 'zip'], ['venue', 'phone'], ['venue', 'website'],
    ['organizer', 'organizer'], ['organizer', 'description'], ['organizer', 'phone'], ['organizer', 'website'], ['organizer', 'email'],
  ])('%s: an omitted %s is kept', async (kind, field) => {
    const { calendar, post } = await seeded(kind);
    const updated = (await ops(calendar, kind).update({ id: post.id }, as(admin))).value;
    expect(at(updated, field)).toEqual(at(post, field));
  });

  // §4.5: fields reset when omitted (status scale-back, map flags true, image removed, stateprovince recomputed).
  it.each<[Kind, string, unknown]>([
    ['venue', 'status', 'publish'],
    ['venue', 'show_map', true],
    ['venue', 'show_map_link', true],
    ['venue', 'image', undefined],
    ['venue', 'stateprovince', undefined],
    ['organizer', 'status', 'publish'],
    ['organizer', 'image', undefined],
  ])('%s: an omitted %s is reset', async (kind, field, expected) => {
    const { calendar, post } = await seeded(kind);
    expect(at(post, field)).not.toEqual(expected);
    const updated = (await ops(calendar, kind).update({ id: post.id }, as(admin))).value;
    expect(at(updated, field)).toEqual(expected);
    expect(at((await ops(calendar, kind).get({ id: post.id }, as(admin))).value, field)).toEqual(expected);
  });

  it('venue: stateprovince is recomputed from the state, province and country sent', async () => {
    const { calendar, post } = await seeded('venue');
    const updated = (await calendar.venues.update({ id: post.id, province: 'Ontario', country: 'Canada' }, as(admin))).value;
    expect(updated.stateprovince).toBe('Ontario');
  });

  // evcal: PATCH changes only what is sent.
  it.each<[Kind, string]>([
    ['venue', 'status'], ['venue', 'show_map'], ['venue', 'show_map_link'], ['venue', 'image'], ['venue', 'stateprovince'], ['venue', 'city'],
    ['organizer', 'status'], ['organizer', 'image'], ['organizer', 'email'],
  ])('%s: a patch keeps an unsent %s', async (kind, field) => {
    const { calendar, post } = await seeded(kind);
    const patched = (await ops(calendar, kind).patch({ id: post.id, phone: '999' }, as(admin))).value;
    expect(patched.phone).toBe('999');
    expect(at(patched, field)).toEqual(at(post, field));
  });

  it.each<[Kind, string, Role, CalendarErrorCode]>([
    ['venue', 'unknown id', 'administrator', 'invalid_params'],
    ['venue', 'anonymous', 'anonymous', 'unauthenticated'],
    ['venue', "contributor on the administrator's venue", 'contributor', 'forbidden'],
    ['organizer', 'unknown id', 'administrator', 'invalid_params'],
    ['organizer', "author on the administrator's organizer", 'author', 'forbidden'],
  ])('%s: %s is %s', async (kind, name, role, code) => {
    const { calendar, post } = await seeded(kind);
    const id = name === 'unknown id' ? 9_999 : post.id;
    await refusal(ops(calendar, kind).update({ id, phone: '000' }, ctxOf(role)), code);
    expect((await ops(calendar, kind).get({ id: post.id }, as(admin))).value.phone).toBe('555');
  });
});

describe('delete (§4.5, §10.8)', () => {
  it.each(KINDS)('%s: moves the post to the trash; deleting again is %s_in_trash', async (kind) => {
    const calendar = makeCalendar();
    const post = (await ops(calendar, kind).create(named(kind, 'Blue Room'), as(admin))).value;
    const trashed = (await ops(calendar, kind).delete({ id: post.id }, as(admin))).value;
    expect(trashed).toMatchObject({ id: post.id, status: 'trash', slug: 'blue-room__trashed' });
    // Still there for editors (§3.2), and a second delete is refused.
    expect((await ops(calendar, kind).get({ id: post.id }, as(editor))).value.status).toBe('trash');
    await refusal(ops(calendar, kind).delete({ id: post.id }, as(admin)), `${kind}_in_trash`);
    await refusal(ops(calendar, kind).deleteBySlug({ slug: 'blue-room__trashed' }, as(admin)), `${kind}_in_trash`);
  });

  it.each<[Kind, Role, CalendarErrorCode]>([
    ['venue', 'anonymous', 'unauthenticated'],
    ['venue', 'contributor', 'forbidden'],
    ['organizer', 'subscriber', 'forbidden'],
    ['organizer', 'author', 'forbidden'],
  ])("%s: deleting the administrator's post as %s is %s", async (kind, role, code) => {
    const calendar = makeCalendar();
    const post = (await ops(calendar, kind).create(named(kind, 'Blue Room'), as(admin))).value;
    await refusal(ops(calendar, kind).delete({ id: post.id }, ctxOf(role)), code);
    expect((await ops(calendar, kind).get({ id: post.id }, anon)).value.status).toBe('publish');
  });

  it.each(KINDS)('%s: an unknown id is invalid_params', async (kind) => {
    const calendar = makeCalendar();
    await expectInvalid(ops(calendar, kind).delete({ id: 9_999 }, as(admin)), 'id');
  });

  // §10.8: trashing a venue or organizer removes it from every event; other links stay.
  it('deleting a venue unlinks it from every event', async () => {
    const calendar = makeCalendar();
    const hall = (await calendar.venues.create({ venue: 'Hall' }, as(admin))).value;
    const other = (await calendar.venues.create({ venue: 'Other' }, as(admin))).value;
    const e1 = (await calendar.events.create(eventInput({ venue: hall.id }), as(admin))).value;
    const e2 = (await calendar.events.create(eventInput({ venue: hall.id, status: 'draft' }), as(admin))).value;
    const e3 = (await calendar.events.create(eventInput({ venue: other.id }), as(admin))).value;
    await calendar.venues.delete({ id: hall.id }, as(admin));
    for (const e of [e1, e2]) expect((await calendar.events.get({ id: e.id }, as(admin))).value.venue).toEqual([]);
    expect(venueIds((await calendar.events.get({ id: e3.id }, as(admin))).value.venue)).toEqual([other.id]);
    const listed = await calendar.venues.list({ event: e1.id }, as(admin));
    expect(listed.total).toBe(0);
  });

  it('deleting an organizer unlinks it from every event and keeps the others in order', async () => {
    const calendar = makeCalendar();
    const [a, b, c] = [
      (await calendar.organizers.create({ organizer: 'A' }, as(admin))).value,
      (await calendar.organizers.create({ organizer: 'B' }, as(admin))).value,
      (await calendar.organizers.create({ organizer: 'C' }, as(admin))).value,
    ];
    const event = (await calendar.events.create(eventInput({ organizer: [c.id, b.id, a.id] }), as(admin))).value;
    await calendar.organizers.delete({ id: b.id }, as(admin));
    expect(ids((await calendar.events.get({ id: event.id }, as(admin))).value.organizer)).toEqual([c.id, a.id]);
    await calendar.organizers.deleteBySlug({ slug: 'c' }, as(admin));
    expect(ids((await calendar.events.get({ id: event.id }, as(admin))).value.organizer)).toEqual([a.id]);
  });
});

describe('linking from event writes (§4.6)', () => {
  async function setup() {
    const calendar = makeCalendar();
    const hall = (await calendar.venues.create({ venue: 'Hall', city: 'Rome' }, as(admin))).value;
    const club = (await calendar.venues.create({ venue: 'Club' }, as(admin))).value;
    const jane = (await calendar.organizers.create({ organizer: 'Jane' }, as(admin))).value;
    const john = (await calendar.organizers.create({ organizer: 'John' }, as(admin))).value;
    return { calendar, hall, club, jane, john };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  // §4.6 accepted venue values; evcal: a list of ids links them all (the venue is then an array).
  it.each<[string, (s: Setup) => unknown, (s: Setup) => number[]]>([
    ['an id', (s) => s.hall.id, (s) => [s.hall.id as number]],
    ['a numeric string', (s) => String(s.hall.id), (s) => [s.hall.id as number]],
    ['an {id} object', (s) => ({ id: s.hall.id }), (s) => [s.hall.id as number]],
    ['an {id} object with other keys (ignored)', (s) => ({ id: s.hall.id, venue: 'Ignored', city: 'Paris' }), (s) => [s.hall.id as number]],
    ['a list of one id', (s) => [s.hall.id], (s) => [s.hall.id as number]],
    ['a list of ids (evcal: all linked)', (s) => [s.club.id, s.hall.id], (s) => [s.club.id as number, s.hall.id as number]],
    ['a list of {id} objects (evcal: all linked)', (s) => [{ id: s.hall.id }, { id: s.club.id }], (s) => [s.hall.id as number, s.club.id as number]],
  ])('venue as %s', async (_name, value, expected) => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({ venue: value(s) }), as(admin))).value;
    expect(venueIds(event.venue)).toEqual(expected(s));
    expect(Array.isArray(event.venue)).toBe(expected(s).length > 1);
    // The linked venue is untouched by extra keys.
    expect((await s.calendar.venues.get({ id: s.hall.id }, anon)).value.city).toBe('Rome');
  });

  // §4.6 accepted organizer values: single shapes and lists mixing ids, {id} and inline data, in order.
  it.each<[string, (s: Setup) => unknown, (s: Setup, created: number[]) => number[]]>([
    ['an id', (s) => s.jane.id, (s) => [s.jane.id as number]],
    ['a numeric string', (s) => String(s.john.id), (s) => [s.john.id as number]],
    ['an {id} object', (s) => ({ id: s.jane.id }), (s) => [s.jane.id as number]],
    ['a list of ids, in the given order', (s) => [s.john.id, s.jane.id], (s) => [s.john.id as number, s.jane.id as number]],
    ['a mixed list', (s) => [{ id: s.john.id }, { organizer: 'New Org' }, s.jane.id], (s, created) => [s.john.id as number, created[0]!, s.jane.id as number]],
  ])('organizer as %s', async (_name, value, expected) => {
    const s = await setup();
    const before = (await s.calendar.organizers.list({ per_page: 50 }, as(admin))).body.organizers as Json[];
    const event = (await s.calendar.events.create(eventInput({ organizer: value(s) }), as(admin))).value;
    const after = (await s.calendar.organizers.list({ per_page: 50 }, as(admin))).body.organizers as Json[];
    const created = ids(after).filter((id) => !ids(before).includes(id));
    expect(ids(event.organizer)).toEqual(expected(s, created));
    expect(Array.isArray(event.organizer)).toBe(true);
  });

  // §4.6 inline creation: the object creates a record with the caller's rights (status scaled back).
  it.each<[string, Principal, Json, string]>([
    ['administrator, no status', admin, {}, 'publish'],
    ['author, status draft', author, { status: 'draft' }, 'draft'],
    ['contributor, status publish', contributor, { status: 'publish' }, 'pending'],
    ['contributor, no status', contributor, {}, 'draft'],
  ])('inline venue by %s', async (_name, principal, extra, status) => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({ venue: { venue: 'Garage', city: 'Turin', state: 'TO', ...extra } }), as(principal))).value;
    const venue = event.venue as Json;
    expect(venue).toMatchObject({ venue: 'Garage', city: 'Turin', status, author: String(principal.id), stateprovince: 'TO' });
    expect((await s.calendar.venues.get({ id: Number(venue.id) }, as(admin))).value).toMatchObject({ venue: 'Garage', status });
  });

  it('an inline organizer is created and linked', async () => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({ organizer: { organizer: 'Promo Ltd', email: 'hi@promo.example' } }), as(admin))).value;
    const [org] = event.organizer as Json[];
    expect(org).toMatchObject({ organizer: 'Promo Ltd', email: 'hi@promo.example', status: 'publish' });
  });

  // §4.6 with §4.4: inline data naming an existing record reuses it.
  it.each<[Kind, unknown]>([
    ['venue', { venue: 'hall' }],
    ['organizer', [{ organizer: 'JANE' }]],
  ])('inline %s duplicate %j reuses the existing record', async (kind, value) => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({ [kind]: value }), as(admin))).value;
    const expected = kind === 'venue' ? s.hall.id : s.jane.id;
    expect(kind === 'venue' ? venueIds(event.venue) : ids(event.organizer)).toEqual([expected]);
    expect((await ops(s.calendar, kind).list({ per_page: 50 }, as(admin))).total).toBe(2);
  });

  // §4.6 validation failures: invalid_params naming venue/organizer, and nothing is created.
  it.each<[Kind, string, (s: Setup) => unknown]>([
    ['venue', 'an unknown id', () => 9_999],
    ['venue', 'the id of an organizer', (s) => s.jane.id],
    ['venue', 'an {id} that is not a venue', (s) => ({ id: s.jane.id })],
    ['venue', 'inline data without a name', () => ({ city: 'Rome' })],
    ['venue', 'inline data with an empty name', () => ({ venue: '' })],
    ['venue', 'inline data with a bad website', () => ({ venue: 'Garage', website: 'nope' })],
    ['venue', 'a nested list', () => [[1, 2]]],
    ['venue', 'a word', () => 'somewhere'],
    ['organizer', 'an unknown id', () => 9_999],
    ['organizer', 'the id of a venue', (s) => s.hall.id],
    ['organizer', 'a list with an unknown id', (s) => [s.jane.id, 9_999]],
    ['organizer', 'inline data without a name', () => ({ email: 'a@b.example' })],
    ['organizer', 'a list with bad inline data', (s) => [s.jane.id, { organizer: 'X', website: 'bad url' }]],
  ])('%s as %s is invalid_params', async (kind, _name, value) => {
    const s = await setup();
    await expectInvalid(s.calendar.events.create(eventInput({ [kind]: value(s) }), as(admin)), kind);
    expect((await ops(s.calendar, kind).list({ per_page: 50 }, as(admin))).total).toBe(2);
    expect((await s.calendar.events.list({ per_page: 50 }, as(admin))).total).toBe(0);
  });

  // §4.6: a non-empty value replaces the links on update.
  it('a single venue id replaces the previous venue; an organizer list replaces the set', async () => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({ venue: s.hall.id, organizer: [s.jane.id] }), as(admin))).value;
    const updated = (await s.calendar.events.update({ id: event.id, venue: s.club.id, organizer: [s.john.id, { organizer: 'Extra' }] }, as(admin))).value;
    expect(venueIds(updated.venue)).toEqual([s.club.id]);
    expect((updated.organizer as Json[]).map((o) => o.organizer)).toEqual(['John', 'Extra']);
  });
});
