// The operations' TypeScript surface: inputs typed from the argument declarations and results
// typed from the representation schemas. The `@ts-expect-error` lines are checked by
// `npm run typecheck` (a wrong input that compiled would fail it); the runtime assertions show
// that what the types promise is what comes back.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EventJson, EventListJson, ListResult, TermJson, VenueJson } from '@evcal/core';
import { admin, as, makeCalendar } from './helpers';

describe('typed operations', () => {
  it('types results as the wire representations', async () => {
    const calendar = makeCalendar();
    const created = (await calendar.events.create(
      { title: 'Typed', status: 'publish', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', venue: { venue: 'Blue Room', city: 'Rome' } },
      as(admin),
    )).value;
    expectTypeOf(created).toMatchTypeOf<EventJson>();
    expectTypeOf(created.title).toEqualTypeOf<string>();
    expect(created.title).toBe('Typed');

    const list = await calendar.events.list({ per_page: 5 }, as(admin));
    expectTypeOf(list).toEqualTypeOf<ListResult<EventListJson>>();
    expect(list.body.events.map((e) => e.id)).toContain(created.id);

    const venue = (await calendar.venues.get({ id: Array.isArray(created.venue) ? 0 : created.venue.id }, as(admin))).value;
    expectTypeOf(venue).toMatchTypeOf<VenueJson>();
    expect(venue.venue).toBe('Blue Room');

    const category = (await calendar.categories.create({ name: 'Jazz' }, as(admin))).value;
    expectTypeOf(category).toMatchTypeOf<TermJson>();
    expect(category.slug).toBe('jazz');
  });

  it('refuses wrong inputs at compile time (and the same values at run time)', async () => {
    const calendar = makeCalendar();
    // @ts-expect-error title is a string
    await expect(calendar.events.create({ title: 42, start_date: 'tomorrow', end_date: 'tomorrow' }, as(admin))).rejects.toThrow();
    // @ts-expect-error per_page is a number (or numeric string)
    await expect(calendar.events.list({ per_page: { n: 1 } })).rejects.toThrow();
    // @ts-expect-error show_map is a flag, not a list
    await expect(calendar.venues.create({ venue: 'X', show_map: [1] }, as(admin))).rejects.toThrow();
    // @ts-expect-error no such argument
    await calendar.events.get({ id: 1, colour: 'red' }).catch(() => undefined);
  });
});
