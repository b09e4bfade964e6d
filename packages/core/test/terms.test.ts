// Categories and tags: the term routes (§4.8), and terms named on event writes (§4.1.5 with
// evcal's decision §10.3), in behaviour.md.
import { describe, expect, it } from 'vitest';
import type { Calendar, CalendarErrorCode, Principal, TermOperations } from '@evcal/core';
import {
  admin, as, author, contributor, ctxOf, editor, eventInput, expectInvalid, makeCalendar, refusal, type Json, type Role,
} from './helpers';

type Taxonomy = 'categories' | 'tags';
const TAXONOMIES: Taxonomy[] = ['categories', 'tags'];
const terms = (calendar: Calendar, taxonomy: Taxonomy): TermOperations => calendar[taxonomy];

/** Every term of the taxonomy (empty ones included), by name. */
async function allTerms(calendar: Calendar, taxonomy: Taxonomy): Promise<Json[]> {
  const result = await terms(calendar, taxonomy).list({ per_page: 50, hide_empty: false }, as(admin));
  return result.body[taxonomy] as Json[];
}
const names = (list: unknown) => (list as Json[]).map((t) => t.name);

describe('permissions (§4.8, §5)', () => {
  // §4.8: categories need "publish events" (author+); tags need manage_categories (editor+).
  const ROLES: [Taxonomy, Role, CalendarErrorCode | 'ok'][] = [
    ['categories', 'anonymous', 'unauthenticated'],
    ['categories', 'subscriber', 'forbidden'],
    ['categories', 'contributor', 'forbidden'],
    ['categories', 'author', 'ok'],
    ['categories', 'editor', 'ok'],
    ['categories', 'administrator', 'ok'],
    ['tags', 'anonymous', 'unauthenticated'],
    ['tags', 'contributor', 'forbidden'],
    ['tags', 'author', 'forbidden'],
    ['tags', 'editor', 'ok'],
    ['tags', 'administrator', 'ok'],
  ];

  it.each(ROLES)('%s: create as %s: %s', async (taxonomy, role, outcome) => {
    const calendar = makeCalendar();
    const create = terms(calendar, taxonomy).create({ name: 'Live Music' }, ctxOf(role));
    if (outcome === 'ok') expect((await create).value.name).toBe('Live Music');
    else await refusal(create, outcome);
    expect(names(await allTerms(calendar, taxonomy))).toEqual(outcome === 'ok' ? ['Live Music'] : []);
  });

  it.each(ROLES)('%s: update as %s: %s', async (taxonomy, role, outcome) => {
    const calendar = makeCalendar();
    const term = (await terms(calendar, taxonomy).create({ name: 'Live Music' }, as(admin))).value;
    const update = terms(calendar, taxonomy).update({ id: term.id, name: 'Renamed' }, ctxOf(role));
    if (outcome === 'ok') await update;
    else await refusal(update, outcome);
    expect(names(await allTerms(calendar, taxonomy))).toEqual([outcome === 'ok' ? 'Renamed' : 'Live Music']);
  });

  it.each(ROLES)('%s: delete as %s: %s', async (taxonomy, role, outcome) => {
    const calendar = makeCalendar();
    const term = (await terms(calendar, taxonomy).create({ name: 'Live Music' }, as(admin))).value;
    const del = terms(calendar, taxonomy).delete({ id: term.id }, ctxOf(role));
    if (outcome === 'ok') await del;
    else await refusal(del, outcome);
    expect(names(await allTerms(calendar, taxonomy))).toEqual(outcome === 'ok' ? [] : ['Live Music']);
  });

  // §0 step 6: validation before permission.
  it.each(TAXONOMIES)('%s: an anonymous create without a name is missing_params', async (taxonomy) => {
    const calendar = makeCalendar();
    await refusal(terms(calendar, taxonomy).create({}, ctxOf('anonymous')), 'missing_params');
  });
});

describe('create (§4.8)', () => {
  it.each(TAXONOMIES)('%s: name is required', async (taxonomy) => {
    const calendar = makeCalendar();
    const error = await refusal(terms(calendar, taxonomy).create({ description: 'x' }, as(admin)), 'missing_params');
    expect(error.details.params).toEqual(['name']);
  });

  // §4.8: name and slug are non-empty strings when present. (An empty description is accepted
  // and clears it: evcal's decision, docs/compatibility.md.)
  it.each<[Taxonomy, string, unknown]>([
    ['categories', 'name', ''],
    ['categories', 'slug', ''],
    ['categories', 'parent', 9_999],
    ['categories', 'parent', 'music'],
    ['tags', 'name', ''],
    ['tags', 'slug', ''],
  ])('%s: %s = %j is invalid_params', async (taxonomy, field, value) => {
    const calendar = makeCalendar();
    await terms(calendar, 'categories').create({ name: 'Music', slug: 'music' }, as(admin));
    await expectInvalid(terms(calendar, taxonomy).create({ name: 'New', [field]: value }, as(admin)), field);
  });

  it.each(TAXONOMIES)('%s: an empty description clears it (evcal decision)', async (taxonomy) => {
    const calendar = makeCalendar();
    const created = (await terms(calendar, taxonomy).create({ name: 'New', description: 'Words' }, as(admin))).value;
    expect(created.description).toBe('Words');
    const cleared = (await terms(calendar, taxonomy).update({ id: created.id, description: '' }, as(admin))).value;
    expect(cleared.description).toBe('');
  });

  // §4.8 slugs: derived from the name, sanitised, uniquified when taken (not an error).
  it.each<[Taxonomy, Json[], Json]>([
    ['categories', [{ name: 'Live Music' }], { slug: 'live-music' }],
    ['categories', [{ name: 'Jazz', slug: 'Smooth Jazz' }], { slug: 'smooth-jazz' }],
    ['categories', [{ name: 'Jazz', slug: 'jazz' }, { name: 'Other', slug: 'jazz' }], { name: 'Other', slug: 'jazz-2' }],
    ['tags', [{ name: 'Outdoor Fun' }], { slug: 'outdoor-fun' }],
    ['tags', [{ name: 'A', slug: 'x' }, { name: 'B', slug: 'x' }], { name: 'B', slug: 'x-2' }],
  ])('%s: %j gives %j', async (taxonomy, inputs, expected) => {
    const calendar = makeCalendar();
    let last: Json = {};
    for (const input of inputs) last = (await terms(calendar, taxonomy).create(input, as(admin))).value;
    expect(last).toMatchObject(expected);
  });

  it.each(TAXONOMIES)('%s: the response is the stored term, unused (count 0)', async (taxonomy) => {
    const calendar = makeCalendar();
    const term = (await terms(calendar, taxonomy).create({ name: 'Live Music', description: 'Bands.' }, as(admin))).value;
    expect(term).toMatchObject({ name: 'Live Music', slug: 'live-music', description: 'Bands.', count: 0 });
    expect((await terms(calendar, taxonomy).get({ id: term.id }, ctxOf('anonymous'))).value).toEqual(term);
  });

  // §4.8 duplicates: the same name at the same level is term_exists with the existing id.
  it.each<[Taxonomy, string]>([
    ['categories', 'A term with the name provided already exists with this parent.'],
    ['tags', 'A term with the name provided already exists in this taxonomy.'],
  ])('%s: a duplicate name is term_exists', async (taxonomy, message) => {
    const calendar = makeCalendar();
    const first = (await terms(calendar, taxonomy).create({ name: 'Live Music' }, as(admin))).value;
    const error = await refusal(terms(calendar, taxonomy).create({ name: 'Live Music', slug: 'other' }, as(admin)), 'term_exists');
    expect(error.message).toBe(message);
    expect(error.details.termId).toBe(first.id);
    expect(await allTerms(calendar, taxonomy)).toHaveLength(1);
  });

  it('categories: the same name under another parent is allowed; under the same parent it is not', async () => {
    const calendar = makeCalendar();
    const music = (await calendar.categories.create({ name: 'Music' }, as(admin))).value;
    const theatre = (await calendar.categories.create({ name: 'Theatre' }, as(admin))).value;
    const a = (await calendar.categories.create({ name: 'Kids', parent: music.id }, as(admin))).value;
    const b = (await calendar.categories.create({ name: 'Kids', parent: theatre.id }, as(admin))).value;
    const c = (await calendar.categories.create({ name: 'Kids' }, as(admin))).value;
    expect([a.parent, b.parent, c.parent]).toEqual([music.id, theatre.id, 0]);
    expect(new Set([a.slug, b.slug, c.slug]).size).toBe(3);
    const error = await refusal(calendar.categories.create({ name: 'Kids', parent: music.id }, as(admin)), 'term_exists');
    expect(error.details.termId).toBe(a.id);
  });

  it('tags: a parent is taxonomy_not_hierarchical', async () => {
    const calendar = makeCalendar();
    const tag = (await calendar.tags.create({ name: 'Outdoor' }, as(admin))).value;
    await refusal(calendar.tags.create({ name: 'Child', parent: tag.id }, as(admin)), 'taxonomy_not_hierarchical');
    await refusal(calendar.tags.update({ id: tag.id, parent: 0 }, as(admin)), 'taxonomy_not_hierarchical');
  });
});

describe('update (§4.8)', () => {
  // §4.8: only the fields sent change.
  it.each<[Taxonomy, Json, Json]>([
    ['categories', { name: 'Renamed' }, { name: 'Renamed', slug: 'live-music', description: 'Bands.' }],
    ['categories', { description: 'Other.' }, { name: 'Live Music', slug: 'live-music', description: 'Other.' }],
    ['categories', { slug: 'gigs' }, { name: 'Live Music', slug: 'gigs', description: 'Bands.' }],
    ['tags', { name: 'Renamed' }, { name: 'Renamed', slug: 'live-music', description: 'Bands.' }],
    ['tags', { slug: 'Fancy Slug' }, { name: 'Live Music', slug: 'fancy-slug', description: 'Bands.' }],
  ])('%s: sending %j', async (taxonomy, change, expected) => {
    const calendar = makeCalendar();
    const term = (await terms(calendar, taxonomy).create({ name: 'Live Music', description: 'Bands.' }, as(admin))).value;
    const updated = (await terms(calendar, taxonomy).update({ id: term.id, ...change }, as(admin))).value;
    expect(updated).toMatchObject({ id: term.id, ...expected });
    expect((await terms(calendar, taxonomy).get({ id: term.id }, as(admin))).value).toMatchObject(expected);
  });

  it('categories: moving a category under another one', async () => {
    const calendar = makeCalendar();
    const music = (await calendar.categories.create({ name: 'Music' }, as(admin))).value;
    const jazz = (await calendar.categories.create({ name: 'Jazz' }, as(admin))).value;
    expect((await calendar.categories.update({ id: jazz.id, parent: music.id }, as(admin))).value.parent).toBe(music.id);
  });

  it.each(TAXONOMIES)('%s: a slug used by another term is duplicate_term_slug', async (taxonomy) => {
    const calendar = makeCalendar();
    await terms(calendar, taxonomy).create({ name: 'Jazz' }, as(admin));
    const blues = (await terms(calendar, taxonomy).create({ name: 'Blues' }, as(admin))).value;
    const error = await refusal(terms(calendar, taxonomy).update({ id: blues.id, slug: 'jazz' }, as(admin)), 'duplicate_term_slug');
    expect(error.message).toBe('The slug \u201cjazz\u201d is already in use by another term.');
    expect((await terms(calendar, taxonomy).get({ id: blues.id }, as(admin))).value.slug).toBe('blues');
  });

  // §4.8 / §3.3: an unknown term id is invalid_params (param id) on every route.
  it.each<[Taxonomy, 'get' | 'update' | 'delete']>([
    ['categories', 'get'], ['categories', 'update'], ['categories', 'delete'],
    ['tags', 'get'], ['tags', 'update'], ['tags', 'delete'],
  ])('%s: %s of an unknown id is invalid_params', async (taxonomy, method) => {
    const calendar = makeCalendar();
    const other = (await terms(calendar, taxonomy === 'tags' ? 'categories' : 'tags').create({ name: 'Elsewhere' }, as(admin))).value;
    for (const id of [9_999, other.id]) {
      await expectInvalid(terms(calendar, taxonomy)[method]({ id, name: 'x' }, as(admin)), 'id');
    }
  });
});

describe('delete (§4.8)', () => {
  it.each(TAXONOMIES)('%s: deletes for good, answers with the term as it was, and events lose it', async (taxonomy) => {
    const calendar = makeCalendar();
    const keep = (await terms(calendar, taxonomy).create({ name: 'Keep' }, as(admin))).value;
    const term = (await terms(calendar, taxonomy).create({ name: 'Live Music' }, as(admin))).value;
    const event = (await calendar.events.create(eventInput({ [taxonomy]: [term.id, keep.id] }), as(admin))).value;
    const deleted = (await terms(calendar, taxonomy).delete({ id: term.id }, as(admin))).value;
    expect(deleted).toMatchObject({ id: term.id, name: 'Live Music', slug: 'live-music', count: 1 });
    expect(deleted).not.toHaveProperty('_links');
    await expectInvalid(terms(calendar, taxonomy).get({ id: term.id }, as(admin)), 'id');
    expect(names(await allTerms(calendar, taxonomy))).toEqual(['Keep']);
    expect(names((await calendar.events.get({ id: event.id }, as(admin))).value[taxonomy])).toEqual(['Keep']);
  });

  it('categories: children of a deleted category stay', async () => {
    const calendar = makeCalendar();
    const music = (await calendar.categories.create({ name: 'Music' }, as(admin))).value;
    const jazz = (await calendar.categories.create({ name: 'Jazz', parent: music.id }, as(admin))).value;
    await calendar.categories.delete({ id: music.id }, as(admin));
    expect((await calendar.categories.get({ id: jazz.id }, as(admin))).value.name).toBe('Jazz');
  });
});

describe('terms named on event writes (§4.1.5, §10.3)', () => {
  async function setup() {
    const calendar = makeCalendar();
    const music = (await calendar.categories.create({ name: 'Live Music' }, as(admin))).value;
    const theatre = (await calendar.categories.create({ name: 'Theatre', slug: 'stage' }, as(admin))).value;
    const outdoor = (await calendar.tags.create({ name: 'Outdoor Fun' }, as(admin))).value;
    const kids = (await calendar.tags.create({ name: 'Kids', slug: 'for-children' }, as(admin))).value;
    return { calendar, music, theatre, outdoor, kids };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  // §4.1.5 / §10.3: ids, slugs and names resolve to existing terms; unknown names are created;
  // unknown ids are skipped. Embedded terms come ordered by name (§1.5.1).
  it.each<[Taxonomy, string, (s: Setup) => unknown, string[], number]>([
    ['categories', 'an id', (s) => [s.theatre.id], ['Theatre'], 0],
    ['categories', 'a numeric string id', (s) => [String(s.theatre.id)], ['Theatre'], 0],
    ['categories', 'a slug', () => ['stage'], ['Theatre'], 0],
    ['categories', 'a name', () => ['Live Music'], ['Live Music'], 0],
    ['categories', 'a CSV of slug and name', () => 'stage, Live Music', ['Live Music', 'Theatre'], 0],
    ['categories', 'a CSV with a new name', () => 'live-music,Brand New', ['Brand New', 'Live Music'], 1],
    ['categories', 'a mixed list', (s) => [s.theatre.id, 'Jazz Night', 'live-music'], ['Jazz Night', 'Live Music', 'Theatre'], 1],
    ['categories', 'an unknown id (skipped)', (s) => [9_999, s.music.id], ['Live Music'], 0],
    ['categories', 'the same term twice', (s) => [s.music.id, 'live-music', 'Live Music'], ['Live Music'], 0],
    ['tags', 'an id', (s) => [s.kids.id], ['Kids'], 0],
    ['tags', 'a slug (§10.3)', () => ['for-children'], ['Kids'], 0],
    ['tags', 'a derived slug (§10.3)', () => 'outdoor-fun', ['Outdoor Fun'], 0],
    ['tags', 'a name', () => ['Outdoor Fun'], ['Outdoor Fun'], 0],
    ['tags', 'a CSV of id, slug and new name', (s) => `${s.kids.id}, outdoor-fun, Rainy Day`, ['Kids', 'Outdoor Fun', 'Rainy Day'], 1],
    ['tags', 'an unknown id (skipped)', () => ['9999'], [], 0],
  ])('%s as %s', async (taxonomy, _name, value, expected, created) => {
    const s = await setup();
    const before = await allTerms(s.calendar, taxonomy);
    const event = (await s.calendar.events.create(eventInput({ [taxonomy]: value(s) }), as(admin))).value;
    expect(names(event[taxonomy])).toEqual(expected);
    const after = await allTerms(s.calendar, taxonomy);
    expect(after.length - before.length).toBe(created);
    // §10.3: no term is ever named after a resolved id.
    expect(after.map((t) => t.name).filter((n) => /^\d+$/.test(String(n)))).toEqual([]);
  });

  it('a created term gets a slug from its name and is counted', async () => {
    const s = await setup();
    await s.calendar.events.create(eventInput({ categories: 'Jazz Night' }), as(admin));
    const created = (await allTerms(s.calendar, 'categories')).find((t) => t.name === 'Jazz Night');
    expect(created).toMatchObject({ slug: 'jazz-night', count: 1, parent: 0 });
  });

  // §4.1.5 with evcal's decision (issue 6, docs/compatibility.md): naming a new term on an event
  // needs the right to manage terms of that taxonomy — categories: author and above; tags: editor
  // and above — exactly as the term routes; without it the write is refused and nothing is created.
  it.each<[Taxonomy, string, Principal, boolean]>([
    ['categories', 'Brand New Category', contributor, false],
    ['categories', 'Brand New Category', author, true],
    ['tags', 'Brand New Tag', author, false],
    ['tags', 'Brand New Tag', editor, true],
  ])('%s: naming the unknown %s as %j creates it: %s', async (taxonomy, name, principal, creates) => {
    const s = await setup();
    const before = await allTerms(s.calendar, taxonomy);
    const write = s.calendar.events.create(eventInput({ [taxonomy]: [name] }), as(principal));
    if (creates) {
      expect(names((await write).value[taxonomy])).toEqual([name]);
      expect(names(await allTerms(s.calendar, taxonomy))).toContain(name);
    } else {
      await refusal(write, 'forbidden');
      expect(await allTerms(s.calendar, taxonomy)).toHaveLength(before.length);
    }
  });

  it.each<[Taxonomy, (s: Setup) => unknown, string]>([
    ['categories', (s) => [s.music.id], 'Live Music'],
    ['tags', () => 'for-children', 'Kids'],
  ])('%s: a contributor may assign existing terms', async (taxonomy, value, name) => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({ [taxonomy]: value(s) }), as(contributor))).value;
    expect(names(event[taxonomy])).toEqual([name]);
  });

  // §4.1.5 on update: omitted is unchanged, a new list replaces, an empty value clears.
  it.each<[string, 'update' | 'patch', Json, string[], string[]]>([
    ['update, omitted', 'update', {}, ['Live Music', 'Theatre'], ['Kids']],
    ['patch, omitted', 'patch', {}, ['Live Music', 'Theatre'], ['Kids']],
    ['update, replaced', 'update', { categories: ['stage'], tags: 'Outdoor Fun' }, ['Theatre'], ['Outdoor Fun']],
    ['patch, replaced', 'patch', { categories: 'live-music', tags: [] }, ['Live Music'], []],
    ['update, cleared', 'update', { categories: '', tags: '' }, [], []],
  ])('%s', async (_name, method, change, categories, tags) => {
    const s = await setup();
    const event = (await s.calendar.events.create(eventInput({ categories: [s.music.id, s.theatre.id], tags: [s.kids.id] }), as(admin))).value;
    const updated = (await s.calendar.events[method]({ id: event.id, ...change }, as(admin))).value;
    expect([names(updated.categories), names(updated.tags)]).toEqual([categories, tags]);
  });

  // §1.5.1: count is the number of published events using the term.
  it('embedded terms count published events only', async () => {
    const s = await setup();
    await s.calendar.events.create(eventInput({ categories: [s.music.id] }), as(admin));
    await s.calendar.events.create(eventInput({ categories: [s.music.id], status: 'draft' }), as(admin));
    const third = (await s.calendar.events.create(eventInput({ categories: [s.music.id] }), as(admin))).value;
    expect((third.categories as Json[])[0]!.count).toBe(2);
    expect((await s.calendar.categories.get({ id: s.music.id }, as(admin))).value.count).toBe(2);
  });
});

describe('include and exclude name terms by id (§2.3)', () => {
  it.each(TAXONOMIES)('%s: a numeric value is an id, even when a term has that slug', async (taxonomy) => {
    const calendar = makeCalendar();
    const a = (await terms(calendar, taxonomy).create({ name: 'First' }, as(admin))).value;
    const b = (await terms(calendar, taxonomy).create({ name: 'Second', slug: String(a.id) }, as(admin))).value;
    expect(b.slug).toBe(String(a.id));
    const included = await terms(calendar, taxonomy).list({ include: String(a.id), hide_empty: false }, as(admin));
    expect(names(included.body[taxonomy])).toEqual(['First']);
    const excluded = await terms(calendar, taxonomy).list({ exclude: String(a.id), hide_empty: false }, as(admin));
    expect(names(excluded.body[taxonomy])).toEqual(['Second']);
    // A slug still names its term.
    const bySlug = await terms(calendar, taxonomy).list({ include: 'first', hide_empty: false }, as(admin));
    expect(names(bySlug.body[taxonomy])).toEqual(['First']);
  });
});
