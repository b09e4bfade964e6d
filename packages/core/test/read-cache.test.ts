// A single read of an event is rendered once per state and view (event-render.ts `readEvent`):
// read again, it is parsed from the kept text, which its representation carries (`bytes`) for
// bindings to send as it is.
// Whatever is kept, each caller gets an object of its own, equal to a fresh rendering, and a
// change to the event or to what it embeds, or another view of it, is rendered anew.
import { describe, expect, it } from 'vitest';
import { createCalendar, type Calendar, type Principal } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';

const NOW = Date.parse('2026-11-22T06:30:00Z');
const ADMIN: Principal = { id: 1, role: 'administrator' };
const EVENT: Parameters<Calendar['events']['create']>[0] = {
  title: 'Gig', description: '<p>Live <b>music</b></p>', start_date: '2027-01-02 20:00:00', end_date: '2027-01-02 23:00:00',
  status: 'publish', venue: { venue: 'Hall', city: 'Rome' }, organizer: [{ organizer: 'Ada' }], categories: ['Music'], tags: ['Free'],
};

async function calendarWith(renderCache?: number): Promise<{ calendar: Calendar; id: number; venue: number }> {
  const calendar = createCalendar({ storage: createMemoryStorage(), now: () => NOW, ...(renderCache === undefined ? {} : { renderCache }) });
  const created = (await calendar.events.create(EVENT, { principal: ADMIN })).value;
  return { calendar, id: created.id as number, venue: (created.venue as { id: number }).id };
}

describe('a single event read', () => {
  it('read again is equal to a fresh rendering, carries its text, and is an object of its own', async () => {
    const { calendar, id } = await calendarWith();
    const { calendar: uncached } = await calendarWith(0);
    const fresh = await uncached.events.get({ id });
    const first = (await calendar.events.get({ id })).value;
    const again = await calendar.events.get({ id });
    expect(first).toEqual(fresh.value);
    expect(again.value).toEqual(fresh.value);
    expect(again.validator).toBe(fresh.validator);
    // What a binding sends is the text of exactly this object.
    expect(new TextDecoder().decode(again.bytes)).toBe(JSON.stringify(fresh.value));
    expect(fresh.bytes).toBeUndefined();
    // A caller that changes its copy changes nobody else's.
    (first as { title: string }).title = 'Changed by a caller';
    expect((await calendar.events.get({ id })).value.title).toBe('Gig');
    expect(again.value).not.toBe(first);
  });

  it('follows changes to the event and to what it embeds', async () => {
    const { calendar, id, venue } = await calendarWith();
    const before = await calendar.events.get({ id });
    await calendar.venues.patch({ id: venue, city: 'Milan' }, { principal: ADMIN });
    const moved = await calendar.events.get({ id });
    expect((moved.value.venue as { city: string }).city).toBe('Milan');
    expect(moved.validator).not.toBe(before.validator);
    await calendar.events.patch({ id, title: 'Renamed' }, { principal: ADMIN });
    expect((await calendar.events.get({ id })).value.title).toBe('Renamed');
  });

  it('is kept per view: a protected event with a draft venue, with and without its password, anonymous and as its editor', async () => {
    const cached = await calendarWith();
    const uncached = await calendarWith(0);
    const views: Array<[Record<string, unknown>, Principal | undefined]> = [
      [{}, undefined], [{ password: 's3cret' }, undefined], [{ password: 'wrong' }, undefined], [{}, ADMIN], [{ context: 'edit' }, ADMIN],
    ];
    const read = async ({ calendar, id }: { calendar: Calendar; id: number }, input: Record<string, unknown>, principal: Principal | undefined) => {
      try {
        const { value: body, validator } = await calendar.events.get({ id, ...input }, principal ? { principal } : {});
        return { body, validator };
      } catch (error) {
        return { error: (error as { code?: string }).code };
      }
    };
    // The event is protected, and its venue a draft: anonymous readers do not see the venue.
    for (const t of [cached, uncached]) {
      await t.calendar.events.patch({ id: t.id, password: 's3cret' }, { principal: ADMIN });
      await t.calendar.venues.patch({ id: t.venue, status: 'draft' }, { principal: ADMIN });
    }
    // Twice over, in the same order: each view kept apart from the others.
    for (const round of [1, 2]) {
      for (const [input, principal] of views) {
        expect(await read(cached, input, principal), `round ${round}: ${JSON.stringify(input)} ${principal ? 'admin' : 'anonymous'}`)
          .toEqual(await read(uncached, input, principal));
      }
    }
  });

  it('asked again unchanged, is answered from what was kept: the storage is asked for its change counter alone', async () => {
    const storage = createMemoryStorage();
    const reads = { events: 0, venues: 0 };
    const get = storage.events.get.bind(storage.events);
    storage.events.get = (eventId) => {
      reads.events++;
      return get(eventId);
    };
    const venues = storage.venues.getMany.bind(storage.venues);
    storage.venues.getMany = (ids) => {
      reads.venues++;
      return venues(ids);
    };
    const calendar = createCalendar({ storage, now: () => NOW });
    const id = (await calendar.events.create(EVENT, { principal: ADMIN })).value.id as number;
    Object.assign(reads, { events: 0, venues: 0 });
    await calendar.events.get({ id });
    await calendar.events.get({ id });
    expect(reads).toEqual({ events: 1, venues: 1 });
    const first = await calendar.events.getJson({ id });
    const again = await calendar.events.getJson({ id });
    expect(reads).toEqual({ events: 1, venues: 1 });
    expect(again.bytes).toBe(first.bytes);
    expect(again.validator).toBe((await calendar.events.get({ id })).validator);
    expect(again.value).toEqual(JSON.parse(new TextDecoder().decode(first.bytes)));
    // A write anywhere: read again.
    await calendar.tags.create({ name: 'Unrelated' }, { principal: ADMIN });
    await calendar.events.getJson({ id });
    expect(reads.events).toBe(2);
  });
});
