import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../calendar/calendar';

const admin = { principal: { id: 1, role: 'administrator' } };

describe('scheduled posts', () => {
  it('publishes a future event once its publish date has passed, and not before', async () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const calendar = createCalendar({ storage: createMemoryStorage(), now: () => now });
    const created = await calendar.events.create({
      title: 'Announced later', status: 'publish', date_utc: '2026-11-23 12:00:00',
      start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 22:00:00',
    }, admin);
    expect(created.status).toBe('future');
    expect((await calendar.events.list()).total).toBe(0);

    now = Date.UTC(2026, 10, 23, 11, 59); // 1 minute before: still scheduled
    expect((await calendar.events.get({ id: created.id }, admin)).status).toBe('future');

    now = Date.UTC(2026, 10, 23, 12, 1);
    const listed = await calendar.events.list();
    expect(listed.total).toBe(1);
    expect(listed.body.events[0]?.status).toBe('publish');
  });

  it('publishes scheduled venues and organizers too', async () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const calendar = createCalendar({ storage: createMemoryStorage(), now: () => now });
    const venue = await calendar.venues.create({ venue: 'Hall', status: 'future', date_utc: '2026-11-22 13:00:00' }, admin);
    expect(venue.status).toBe('future');
    now = Date.UTC(2026, 10, 22, 14);
    expect((await calendar.venues.get({ id: venue.id })).status).toBe('publish');
  });
});
