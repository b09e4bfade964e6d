// The categories and tags filters of the event list (behaviour.md "Parameters" and "Filters"):
// each reference names a term by slug, then id, then name (the oldest of that name); a category
// includes its descendants; a reference naming no term is 400. Categories are resolved from the
// one read of every category that their descendants need, tags by lookup: both must agree.
import { describe, expect, it } from 'vitest';
import type { Calendar } from '@evcal/core';
import { admin, anon, as, eventInput, expectInvalid, listedEventIds, makeCalendar } from './helpers';

type Taxonomy = 'categories' | 'tags';

async function termId(calendar: Calendar, taxonomy: Taxonomy, input: Record<string, unknown>): Promise<number> {
  return (await calendar[taxonomy].create(input, as(admin))).value.id as number;
}

/** A calendar whose terms make each rule of the resolution decide which events are listed. */
async function seeded(taxonomy: Taxonomy) {
  const calendar = makeCalendar();
  const music = await termId(calendar, taxonomy, { name: 'Música', slug: 'music' });
  // A term whose slug is another term's id: the slug wins.
  const numericSlug = await termId(calendar, taxonomy, { name: 'By number', slug: String(music) });
  // Two categories of the same name (under different parents): the name names the older. Tags
  // cannot share a name.
  const olderTalk = await termId(calendar, taxonomy, { name: 'Talks', slug: 'talks-a' });
  const newerTalk = await termId(calendar, taxonomy, taxonomy === 'categories' ? { name: 'Talks', slug: 'talks-b', parent: await termId(calendar, taxonomy, { name: 'Series' }) } : { name: 'Talk series', slug: 'talks-b' });
  const event = async (title: string, term: number) =>
    (await calendar.events.create(eventInput({ title, [taxonomy]: [term] }), as(admin))).value.id as number;
  return {
    calendar, music, numericSlug, olderTalk, newerTalk,
    events: {
      music: await event('Concert', music),
      numericSlug: await event('Numbered', numericSlug),
      olderTalk: await event('Lecture', olderTalk),
      newerTalk: await event('Panel', newerTalk),
    },
  };
}

describe.each<Taxonomy>(['categories', 'tags'])('the %s filter', (taxonomy) => {
  it('names a term by slug, by id, and by name with case and accents folded', async () => {
    const s = await seeded(taxonomy);
    expect(await listedEventIds(s.calendar, { [taxonomy]: 'music' })).toEqual([s.events.music]);
    expect(await listedEventIds(s.calendar, { [taxonomy]: String(s.olderTalk) })).toEqual([s.events.olderTalk]);
    expect(await listedEventIds(s.calendar, { [taxonomy]: 'MUSICA' })).toEqual([s.events.music]);
  });

  it('reads a reference as a slug before an id, and a name as its oldest term', async () => {
    const s = await seeded(taxonomy);
    expect(await listedEventIds(s.calendar, { [taxonomy]: String(s.music) })).toEqual([s.events.numericSlug]);
    expect(await listedEventIds(s.calendar, { [taxonomy]: 'talks' })).toEqual([s.events.olderTalk]);
    expect(await listedEventIds(s.calendar, { [taxonomy]: ['talks-b', 'music'] })).toEqual([s.events.music, s.events.newerTalk].sort((a, b) => a - b));
  });

  it('refuses a reference that names no term, even beside one that does', async () => {
    const s = await seeded(taxonomy);
    await expectInvalid(s.calendar.events.list({ [taxonomy]: 'nothing' }, anon), taxonomy);
    await expectInvalid(s.calendar.events.list({ [taxonomy]: ['music', '99999'] }, anon), taxonomy);
  });
});

describe('the categories filter and child categories', () => {
  it('lists the events of a category and of every category below it, and no tag of that slug', async () => {
    const calendar = makeCalendar();
    const arts = await termId(calendar, 'categories', { name: 'Arts' });
    const music = await termId(calendar, 'categories', { name: 'Music', parent: arts });
    const jazz = await termId(calendar, 'categories', { name: 'Jazz', parent: music });
    const sport = await termId(calendar, 'categories', { name: 'Sport' });
    await termId(calendar, 'tags', { name: 'Music tag', slug: 'sport' });
    const listedIn = async (category: number) =>
      (await calendar.events.create(eventInput({ title: `In ${category}`, categories: [category] }), as(admin))).value.id as number;
    const [inArts, inMusic, inJazz, inSport] = [await listedIn(arts), await listedIn(music), await listedIn(jazz), await listedIn(sport)];
    expect(await listedEventIds(calendar, { categories: 'arts' })).toEqual([inArts, inMusic, inJazz]);
    expect(await listedEventIds(calendar, { categories: 'music' })).toEqual([inMusic, inJazz]);
    expect(await listedEventIds(calendar, { categories: ['jazz', 'sport'] })).toEqual([inJazz, inSport]);
    // The page embeds the categories the filter read, with their counts of published events.
    const page = await calendar.events.list({ categories: 'music' }, anon);
    const embedded = (page.body.events as { categories: { slug: string; count: number; parent: number }[] }[]).map((e) => e.categories[0]);
    expect(embedded).toEqual([
      expect.objectContaining({ slug: 'music', count: 1, parent: arts }),
      expect.objectContaining({ slug: 'jazz', count: 1, parent: music }),
    ]);
  });
});
