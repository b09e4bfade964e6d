// createRecordBuilder, as @evcal/migrate uses it from outside core: through the public entry
// points only, records built inside a transaction of the caller's, nothing written by the builder.
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { createCalendar, createRecordBuilder, isCalendarError, type ClaimId } from '..';

function calendar() {
  return createCalendar({ storage: createMemoryStorage(), timezone: 'Europe/Rome', now: () => Date.UTC(2026, 10, 22, 12) });
}

const keep = (id: number): ClaimId => async () => id;

describe('createRecordBuilder', () => {
  it('builds records as an import does, and writes nothing itself', async () => {
    const cal = calendar();
    const build = createRecordBuilder(cal);
    const built = await cal.config.storage.transaction(async (tx) => {
      const term = await build.term(tx, 'category', { name: ' Jazz ', description: 'Live' }, 'category 3', keep(3));
      await tx.categories.insert(term);
      const venue = await build.linkedPost(tx, 'venue', { venue: 'Hall', status: 'publish' }, 'venue 4', keep(4));
      await tx.venues.insert(venue as never);
      const event = await build.event(tx, {
        title: 'Gig', status: 'publish', start_date: '2026-12-01 20:00', end_date: '2026-12-01 23:00', categories: [3], venue: [4],
      }, 'event 8', keep(8));
      return { term, venue, event };
    });
    expect(built.term).toMatchObject({ id: 3, name: 'Jazz', slug: 'jazz', description: 'Live', parent: 0 });
    expect(built.venue).toMatchObject({ id: 4, title: 'Hall', status: 'publish' });
    expect(built.event).toMatchObject({ id: 8, title: 'Gig', categoryIds: [3], venueIds: [4], timezone: 'Europe/Rome' });
    // The event was built, not stored: the caller decides whether to insert or replace it.
    expect(await cal.config.storage.events.get(8)).toBeUndefined();
    expect((await cal.categories.get({ id: 3 })).value.name).toBe('Jazz');
  });

  it('refuses a bad record with the dataset error naming its path', async () => {
    const cal = calendar();
    const error = await cal.config.storage.transaction((tx) => createRecordBuilder(cal).event(tx, {
      title: 'Gig', start_date: '2026-12-01 20:00', end_date: '2026-12-01 23:00', categories: [99],
    }, 'event 8', keep(8))).catch((e: unknown) => e);
    expect(isCalendarError(error) && error.code).toBe('invalid_dataset');
    expect((error as Error).message).toBe('Invalid dataset at event 8.categories: no category 99');
  });
});
