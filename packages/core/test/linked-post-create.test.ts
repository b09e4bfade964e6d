// Venues and organizers created (§4.4, behaviour.md): validation, duplicate avoidance, and the
// slugs of those created through the API.
import { describe, expect, it } from 'vitest';
import type { Calendar, CalendarErrorCode, LinkedPostOperations } from '@evcal/core';
import { admin, anon, as, contributor, ctxOf, editor, expectInvalid, makeCalendar, refusal, type Json, type Role, at } from './helpers';

type Kind = 'venue' | 'organizer';

const KINDS: Kind[] = ['venue', 'organizer'];

const ops = (calendar: Calendar, kind: Kind): LinkedPostOperations => (kind === 'venue' ? calendar.venues : calendar.organizers);

/** The smallest valid create input of a kind. */
const named = (kind: Kind, name: string, extra: Json = {}): Json => ({ [kind]: name, ...extra });

describe('create (§4.4)', () => {
  // §4.4: the name is required and non-empty.
  it.each(KINDS)('%s: a missing name is missing_params, an empty one invalid_params', async (kind) => {
    const calendar = makeCalendar();
    const missing = await refusal(ops(calendar, kind).create({ description: 'x' }, as(admin)), 'missing_params');
    expect(missing.details.params).toEqual([kind]);
    await expectInvalid(ops(calendar, kind).create(named(kind, ''), as(admin)), kind);
  });

  // §4.4 field validation.
  it.each<[Kind, string, unknown]>([
    ['venue', 'website', 'not a url'],
    ['venue', 'website', 'example.com'],
    ['venue', 'status', 'bogus'],
    ['venue', 'author', 99],
    ['venue', 'image', 999],
    ['organizer', 'website', 'not a url'],
    ['organizer', 'status', 'bogus'],
    ['organizer', 'author', 99],
    ['organizer', 'image', 999],
  ])('%s: %s = %j is invalid_params', async (kind, field, value) => {
    const calendar = makeCalendar();
    await expectInvalid(ops(calendar, kind).create(named(kind, 'Name', { [field]: value }), as(admin)), field);
  });

  it.each<[Kind, string, string]>([
    ['organizer', 'email', 'not-an-email'],
    ['organizer', 'phone', '+1 555 0199'],
    ['organizer', 'website', 'https://jane.example'],
    ['venue', 'phone', 'call us'],
    ['venue', 'zip', '62701'],
    ['venue', 'website', 'https://blueroom.example'],
  ])('%s: %s = %j is stored as given', async (kind, field, value) => {
    const calendar = makeCalendar();
    const created = (await ops(calendar, kind).create(named(kind, 'Name', { [field]: value }), as(admin))).value;
    expect(at(created, field)).toBe(value);
  });

  // §4.4 / §5: contributors and above may create; the status is scaled back as for events (§4.1.1).
  it.each<[Kind, Role, string | undefined, CalendarErrorCode | string]>([
    ['venue', 'anonymous', undefined, 'unauthenticated'],
    ['venue', 'subscriber', undefined, 'forbidden'],
    ['venue', 'contributor', undefined, 'draft'],
    ['venue', 'contributor', 'publish', 'pending'],
    ['venue', 'author', undefined, 'publish'],
    ['venue', 'administrator', 'draft', 'draft'],
    ['organizer', 'anonymous', undefined, 'unauthenticated'],
    ['organizer', 'subscriber', undefined, 'forbidden'],
    ['organizer', 'contributor', undefined, 'draft'],
    ['organizer', 'contributor', 'future', 'pending'],
    ['organizer', 'editor', undefined, 'publish'],
  ])('%s by %s with status %s: %s', async (kind, role, status, expected) => {
    const calendar = makeCalendar();
    const create = ops(calendar, kind).create(named(kind, 'Name', status ? { status } : {}), ctxOf(role));
    if (expected === 'unauthenticated' || expected === 'forbidden') {
      await refusal(create, expected);
    } else {
      expect((await create).value.status).toBe(expected);
    }
  });

  // §4.4: the response is the object without json_ld.
  it.each(KINDS)('%s: the response has no json_ld', async (kind) => {
    const calendar = makeCalendar();
    const created = (await ops(calendar, kind).create(named(kind, 'Name'), as(admin))).value;
    expect(created).not.toHaveProperty('json_ld');
    expect(at(created, kind)).toBe('Name');
    expect(created.id).toEqual(expect.any(Number));
  });

  // §4.4 map defaults and §8.4(c) truthy strings; evcal also accepts JSON booleans.
  it.each<[string, unknown, boolean]>([
    ['absent', undefined, true],
    ['"true"', 'true', true],
    ['"1"', '1', true],
    ['"yes"', 'yes', true],
    ['"on"', 'on', true],
    ['"false"', 'false', false],
    ['"0"', '0', false],
    ['"no"', 'no', false],
    ['"anything"', 'anything', false],
    ['JSON true', true, true],
    ['JSON false', false, false],
  ])('venue show_map and show_map_link %s read back %s', async (_name, value, expected) => {
    const calendar = makeCalendar();
    const input = named('venue', 'Hall', value === undefined ? {} : { show_map: value, show_map_link: value });
    const venue = (await calendar.venues.create(input, as(admin))).value;
    expect([venue.show_map, venue.show_map_link]).toEqual([expected, expected]);
  });

  // §4.4 derived stateprovince (key dropped when empty, §1.3).
  it.each<[string, Json, string | undefined]>([
    ['state, no country', { state: 'IL' }, 'IL'],
    ['state, country US', { state: 'IL', country: 'US' }, 'IL'],
    ['state, country United States', { state: 'NY', country: 'United States' }, 'NY'],
    ['state and province, country Germany', { state: 'Bavaria', province: 'Oberbayern', country: 'Germany' }, 'Oberbayern'],
    ['province only', { province: 'Ontario', country: 'Canada' }, 'Ontario'],
    ['state, foreign country, no province', { state: 'NSW', country: 'Australia' }, undefined],
    ['state and province, no country', { state: 'IL', province: 'Cook' }, 'IL'],
    ['nothing', { city: 'Rome' }, undefined],
    ['explicit stateprovince wins', { state: 'IL', stateprovince: 'Illinois' }, 'Illinois'],
  ])('stateprovince: %s', async (_name, fields, expected) => {
    const calendar = makeCalendar();
    const venue = (await calendar.venues.create(named('venue', 'Hall', fields), as(admin))).value;
    expect(venue.stateprovince).toBe(expected);
    if (expected === undefined) expect(venue).not.toHaveProperty('stateprovince');
  });
});

describe('duplicate avoidance (§4.4)', () => {
  // §4.4: same name (and description when given), not trashed: the existing post is reused.
  it.each<[Kind, Json, Json, boolean]>([
    ['venue', { venue: 'Blue Room' }, { venue: 'Blue Room' }, true],
    ['venue', { venue: 'Blue Room' }, { venue: 'BLUE ROOM' }, true],
    ['venue', { venue: 'Blue Room', description: 'Club' }, { venue: 'Blue Room', description: 'Club' }, true],
    ['venue', { venue: 'Blue Room', description: 'Club' }, { venue: 'Blue Room' }, true],
    ['venue', { venue: 'Blue Room', description: 'Club' }, { venue: 'Blue Room', description: 'Bar' }, false],
    ['venue', { venue: 'Blue Room' }, { venue: 'Red Room' }, false],
    ['organizer', { organizer: 'Jane Doe' }, { organizer: 'jane doe' }, true],
    ['organizer', { organizer: 'Jane Doe', description: 'DJ' }, { organizer: 'Jane Doe', description: 'Singer' }, false],
    ['organizer', { organizer: 'Jane Doe' }, { organizer: 'John Doe' }, false],
  ])('%s: %j then %j reuses: %s', async (kind, first, second, reused) => {
    const calendar = makeCalendar();
    const a = (await ops(calendar, kind).create(first, as(admin))).value;
    const b = (await ops(calendar, kind).create(second, as(admin))).value;
    expect(b.id === a.id).toBe(reused);
    const list = await ops(calendar, kind).list({ per_page: 50 }, as(admin));
    expect(list.total).toBe(reused ? 1 : 2);
  });

  it.each(KINDS)('%s: a reused post gets the submitted fields', async (kind) => {
    const calendar = makeCalendar();
    const fields = kind === 'venue' ? { city: 'Rome', phone: '111' } : { email: 'a@example.com', phone: '111' };
    const changed = kind === 'venue' ? { city: 'Milan', phone: '222' } : { email: 'b@example.com', phone: '222' };
    const first = (await ops(calendar, kind).create(named(kind, 'Same', fields), as(admin))).value;
    const second = (await ops(calendar, kind).create(named(kind, 'Same', changed), as(editor))).value;
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject(changed);
    expect((await ops(calendar, kind).get({ id: first.id }, as(admin))).value).toMatchObject(changed);
  });

  // evcal: the existing post's fields are only overwritten when the caller may edit it.
  it.each(KINDS)("%s: a contributor reusing an administrator's post leaves it unchanged", async (kind) => {
    const calendar = makeCalendar();
    const fields = kind === 'venue' ? { city: 'Rome' } : { email: 'a@example.com' };
    const changed = kind === 'venue' ? { city: 'Milan' } : { email: 'b@example.com' };
    const first = (await ops(calendar, kind).create(named(kind, 'Same', fields), as(admin))).value;
    const second = (await ops(calendar, kind).create(named(kind, 'Same', changed), as(contributor))).value;
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({ ...fields, status: 'publish', author: '1' });
    expect((await ops(calendar, kind).get({ id: first.id }, anon)).value).toMatchObject(fields);
  });

  it.each(KINDS)('%s: a trashed post with the same name is not reused', async (kind) => {
    const calendar = makeCalendar();
    const first = (await ops(calendar, kind).create(named(kind, 'Same'), as(admin))).value;
    await ops(calendar, kind).delete({ id: first.id }, as(admin));
    const second = (await ops(calendar, kind).create(named(kind, 'Same'), as(admin))).value;
    expect(second.id).not.toBe(first.id);
    expect(second.status).toBe('publish');
  });
});

describe('slugs of venues and organizers created through the API (§4.4)', () => {
  it.each(KINDS)('%s: a draft gets its slug from its name at once, and keeps it (with __trashed) in the trash', async (kind) => {
    const calendar = makeCalendar();
    const draft = (await ops(calendar, kind).create(named(kind, 'Draft Venue', { status: 'draft' }), as(admin))).value;
    expect([draft.status, draft.slug]).toEqual(['draft', 'draft-venue']);
    const trashed = (await ops(calendar, kind).delete({ id: draft.id }, as(admin))).value;
    expect(trashed.slug).toBe('draft-venue__trashed');
  });

  it.each(KINDS)('%s: inline in an event write, a draft named twice gets distinct slugs', async (kind) => {
    const calendar = makeCalendar();
    const first = (await ops(calendar, kind).create(named(kind, 'Same', { status: 'draft', description: 'one' }), as(admin))).value;
    const second = (await ops(calendar, kind).create(named(kind, 'Same', { status: 'draft', description: 'two' }), as(admin))).value;
    expect([first.slug, second.slug]).toEqual(['same', 'same-2']);
  });
});
