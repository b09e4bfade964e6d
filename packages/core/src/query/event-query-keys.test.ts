import { describe, expect, it } from 'vitest';
import { EVENT_QUERY_FILTERS, EVENT_QUERY_KEYS, splitEventQuery, type EventQueryCoverage } from './event-query-keys';
import type { EventQuery } from './query-types';

/** A shortcut answering statuses, the hidden flag and the start of events, and any sort and paging. */
const WINDOW = {
  records: true, statuses: true, excludeHidden: true, start: true, sort: true, limit: true, offset: true,
  ownedBy: false, ids: false, end: false, search: false, categoryIds: false, tagIds: false, venueIds: false, organizerIds: false,
  featured: false, parentId: false, ticketed: false, geo: false, modified: false,
} as const satisfies EventQueryCoverage;

const base: EventQuery = {
  records: 'listed', statuses: ['publish'], excludeHidden: true, start: { gte: 0 },
  sort: [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }], limit: 10,
};

describe('splitEventQuery', () => {
  it('gives a shortcut the whole query when it answers every key present', () => {
    const split = splitEventQuery(base, WINDOW);
    expect(split.complete).toBe(true);
    expect(split.residual).toEqual({});
    expect(split.indexable).toEqual(base);
    expect(split.necessary).toEqual({ records: 'listed', statuses: ['publish'], excludeHidden: true, start: { gte: 0 } });
  });

  it('leaves the keys a shortcut does not answer residual: a modification bound is not a date window', () => {
    const split = splitEventQuery({ ...base, modified: { gt: 5 } }, WINDOW);
    expect(split.complete).toBe(false);
    expect(split.residual).toEqual({ modified: { gt: 5 } });
    expect(split.necessary.start).toEqual({ gte: 0 });
  });

  it('ignores keys present with an undefined value', () => {
    expect(splitEventQuery({ ...base, modified: undefined, search: undefined }, WINDOW).complete).toBe(true);
  });

  it('keeps a condition a present key widens out of the necessary ones', () => {
    const split = splitEventQuery({ ...base, ownedBy: { authorId: 3, statuses: ['draft'] } }, WINDOW);
    expect(split.residual).toEqual({ ownedBy: { authorId: 3, statuses: ['draft'] } });
    expect(split.necessary).not.toHaveProperty('statuses');
    expect(split.necessary.start).toEqual({ gte: 0 });
  });

  it('fails closed on a key core does not know: residual, and no condition is necessary', () => {
    const split = splitEventQuery({ ...base, nearHoliday: true } as EventQuery, WINDOW);
    expect(split.complete).toBe(false);
    expect(split.residual).toEqual({ nearHoliday: true });
    expect(split.necessary).toEqual({});
  });

  it('does not take inherited names for keys', () => {
    const split = splitEventQuery({ ...base, toString: 'x' } as unknown as EventQuery, WINDOW);
    expect(split.residual).toEqual({ toString: 'x' });
  });

  it('lists every filter (paging and sort aside)', () => {
    expect(EVENT_QUERY_FILTERS).toEqual(Object.keys(EVENT_QUERY_KEYS).filter((k) => !['sort', 'limit', 'offset'].includes(k)));
  });
});
