import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../calendar/calendar';
import type { Authorize } from './capabilities';

const admin = { principal: { id: 1, role: 'administrator' } };
const contributor = { principal: { id: 4, role: 'contributor' } };
const event = { title: 'Gig', start_date: '2031-05-06 20:00', end_date: '2031-05-06 23:00' };

async function calendarWith(authorize: Authorize) {
  const calendar = createCalendar({ storage: createMemoryStorage(), authorize });
  await calendar.importDataset({ events: [{ id: 300, ...event, status: 'publish', author: 1 }, { id: 301, ...event, title: 'Other', status: 'publish', author: 1 }] });
  return calendar;
}

describe('the authorize option', () => {
  it('can refuse what the role table allows, for one record', async () => {
    const calendar = await calendarWith((c) => (c.action === 'edit_post' && c.post?.id === 300 ? false : c.allowed));
    await expect(calendar.events.patch({ id: 300, title: 'x' }, admin)).rejects.toMatchObject({ code: 'forbidden' });
    expect((await calendar.events.patch({ id: 301, title: 'y' }, admin)).value.title).toBe('y');
  });

  it('can grant a capability the role lacks', async () => {
    const calendar = await calendarWith((c) => (c.action === 'publish_events' && c.principal?.id === 4 ? true : c.allowed));
    expect((await calendar.events.create({ ...event, status: 'publish' }, contributor)).value.status).toBe('publish');
  });

  it('decides single reads', async () => {
    const calendar = await calendarWith((c) => (c.action === 'read_post' && c.principal === undefined && c.post?.id === 301 ? false : c.allowed));
    expect((await calendar.events.get({ id: 300 })).value.id).toBe(300);
    await expect(calendar.events.get({ id: 301 })).rejects.toMatchObject({ code: 'event_not_accessible' });
  });

  it('receives the role table\'s answer', async () => {
    const seen: Array<[string, boolean]> = [];
    const calendar = await calendarWith((c) => {
      if (c.action === 'edit_events') seen.push([c.principal?.role ?? 'anonymous', c.allowed]);
      return c.allowed;
    });
    await calendar.events.create(event, contributor).catch(() => undefined);
    await calendar.events.create(event).catch(() => undefined);
    expect(seen).toEqual(expect.arrayContaining([['contributor', true], ['anonymous', false]]));
  });
});
