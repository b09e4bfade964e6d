import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../calendar/calendar';
import { storageError } from '../storage/storage-errors';
import type { Storage } from '../storage/storage';

const admin = { principal: { id: 1, role: 'administrator' } };

describe('scheduled posts', () => {
  it('publishes a future event once its publish date has passed, and not before', async () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const calendar = createCalendar({ storage: createMemoryStorage(), now: () => now });
    const created = (await calendar.events.create({
      title: 'Announced later', status: 'publish', date_utc: '2026-11-23 12:00:00',
      start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 22:00:00',
    }, admin)).value;
    expect(created.status).toBe('future');
    expect((await calendar.events.list()).total).toBe(0);

    now = Date.UTC(2026, 10, 23, 11, 59); // 1 minute before: still scheduled
    expect((await calendar.events.get({ id: created.id }, admin)).value.status).toBe('future');

    now = Date.UTC(2026, 10, 23, 12, 1);
    const listed = await calendar.events.list();
    expect(listed.total).toBe(1);
    expect(listed.body.events[0]?.status).toBe('publish');
  });

  it('publishes scheduled venues and organizers too', async () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const calendar = createCalendar({ storage: createMemoryStorage(), now: () => now });
    const venue = (await calendar.venues.create({ venue: 'Hall', status: 'future', date_utc: '2026-11-22 13:00:00' }, admin)).value;
    expect(venue.status).toBe('future');
    now = Date.UTC(2026, 10, 22, 14);
    expect((await calendar.venues.get({ id: venue.id })).value.status).toBe('publish');
  });

  it('runs a sweep that lost a race with another writer again, instead of failing the operation behind it', async () => {
    // On PostgreSQL an import's chunk counting the same terms can deadlock with the sweep's
    // update; the server breaks it by failing one transaction, which evcal reads as a conflict.
    let now = Date.UTC(2026, 10, 22, 12);
    const memory = createMemoryStorage();
    let lose = 0;
    let lost = 0;
    const storage: Storage = Object.assign(Object.create(memory) as Storage, {
      transaction: <T>(fn: Parameters<Storage['transaction']>[0]) => {
        if (lose === 0) return memory.transaction(fn) as Promise<T>;
        lose -= 1;
        lost += 1;
        return Promise.reject(storageError('conflict', new Error('deadlock detected')));
      },
    });
    const calendar = createCalendar({ storage, now: () => now });
    const created = (await calendar.events.create({
      title: 'Announced later', status: 'publish', date_utc: '2026-11-23 12:00:00',
      start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 22:00:00',
    }, admin)).value;
    now = Date.UTC(2026, 10, 23, 12, 1);
    lose = 1; // the sweep's transaction loses once
    const listed = await calendar.events.list();
    expect(lost).toBe(1);
    expect(listed.body.events.map((e) => [e.id, e.status])).toEqual([[created.id, 'publish']]);
  });
});

