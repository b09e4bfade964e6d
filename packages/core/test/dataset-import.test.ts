// importDataset: how records claim their ids, and what an import reads (each linked record once).
import { describe, expect, it } from 'vitest';
import { createCalendar, isCalendarError, type Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { admin, NOW } from './helpers';

const event = (i: number, extra: Record<string, unknown> = {}) => ({
  title: `Event ${i}`, status: 'publish', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00', ...extra,
});

async function importError(calendar: ReturnType<typeof createCalendar>, dataset: unknown): Promise<{ code: string; path: unknown }> {
  const error = await calendar.importDataset(dataset).then(() => undefined, (e: unknown) => e);
  if (!isCalendarError(error)) throw new Error(`expected an invalid_dataset error, got ${String(error)}`);
  return { code: error.code, path: error.details.path };
}

describe('importDataset: ids', () => {
  it('a record without an id gets one above every id the dataset gives, wherever it comes in the file', async () => {
    const calendar = createCalendar({ storage: createMemoryStorage(), now: () => NOW });
    await calendar.importDataset({ venues: [{ venue: 'Hall' }, { id: 500, venue: 'Barn' }], events: [event(1), event(2, { id: '700' })] });
    const venues = (await calendar.venues.list({ per_page: 50 }, { principal: admin })).body.venues as { id: number; venue: string }[];
    const hall = venues.find((v) => v.venue === 'Hall')!;
    expect(venues.find((v) => v.venue === 'Barn')!.id).toBe(500);
    expect(hall.id).toBeGreaterThan(700);
    const events = (await calendar.events.list({ per_page: 50, start_date: '2026-01-01' }, { principal: admin })).body.events as { id: number; title: string }[];
    expect(events.find((e) => e.title === 'Event 2')!.id).toBe(700);
    expect(events.find((e) => e.title === 'Event 1')!.id).toBeGreaterThan(700);
    // And later creates number above them all.
    const created = (await calendar.events.create({ ...event(3), status: 'publish' as const }, { principal: admin })).value;
    expect(created.id).toBeGreaterThan(Math.max(hall.id, ...events.map((e) => e.id)));
  });

  it('an id given twice is refused at its second record, across sections of the same kind', async () => {
    const calendar = createCalendar({ storage: createMemoryStorage(), now: () => NOW });
    expect(await importError(calendar, { venues: [{ id: 40, venue: 'Hall' }], events: [event(1, { id: 41 }), event(2, { id: 40 })] }))
      .toEqual({ code: 'invalid_dataset', path: 'events[1].id' });
    expect(await importError(calendar, { categories: [{ id: 9, name: 'A' }], tags: [{ id: 9, name: 'B' }] }))
      .toEqual({ code: 'invalid_dataset', path: 'tags[0].id' });
    // Nothing of a refused dataset was written.
    expect((await calendar.venues.list({ per_page: 50 }, { principal: admin })).body.venues).toEqual([]);
  });

  it('an id a stored record has is refused, given as a number or as digits', async () => {
    const calendar = createCalendar({ storage: createMemoryStorage(), now: () => NOW });
    await calendar.importDataset({ organizers: [{ id: 60, organizer: 'Ada' }], tags: [{ id: 7, name: 'Jazz' }] });
    expect(await importError(calendar, { events: [event(1, { id: 60 })] })).toEqual({ code: 'invalid_dataset', path: 'events[0].id' });
    expect(await importError(calendar, { events: [event(1, { id: '60' })] })).toEqual({ code: 'invalid_dataset', path: 'events[0].id' });
    expect(await importError(calendar, { categories: [{ id: 7, name: 'Music' }] })).toEqual({ code: 'invalid_dataset', path: 'categories[0].id' });
  });
});

/** `storage`, counting the reads by id of each collection. */
function countingReads(storage: Storage): { storage: Storage; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const count = (name: string, collection: object) => new Proxy(collection, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'get' || key === 'getMany') return (...args: unknown[]) => {
        reads.set(name, (reads.get(name) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
      return value.bind(target);
    },
  });
  const wrap = (s: Storage): Storage => new Proxy(s, {
    get(target, key) {
      if (key === 'transaction') return <T>(fn: (tx: Storage) => Promise<T>) => target.transaction((tx) => fn(wrap(tx) as never));
      const value = Reflect.get(target, key, target) as unknown;
      if (['events', 'venues', 'organizers', 'categories', 'tags'].includes(key as string)) return count(key as string, value as object);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { storage: wrap(storage), reads };
}

describe('importDataset: reads', () => {
  // The ids are read (as absent) before the records are written: the events find their terms,
  // venue and organizers only because each insert made the import read again.
  it('reads each category, tag, venue and organizer once, however many events name them', async () => {
    const dataset = (n: number) => ({
      categories: [{ id: 1, name: 'Music' }, { id: 2, name: 'Jazz', parent: 1 }],
      tags: [{ id: 3, name: 'Free' }],
      venues: [{ id: 10, venue: 'Hall' }],
      organizers: [{ id: 20, organizer: 'Ada' }, { id: 21, organizer: 'Bo' }],
      events: Array.from({ length: n }, (_, i) => event(i, { id: 100 + i, categories: [1, 2], tags: [3], venue: 10, organizer: [20, 21] })),
    });
    const readsFor = async (n: number) => {
      const counted = countingReads(createMemoryStorage());
      await createCalendar({ storage: counted.storage, now: () => NOW }).importDataset(dataset(n));
      return Object.fromEntries(['categories', 'tags', 'venues', 'organizers'].map((k) => [k, counted.reads.get(k) ?? 0]));
    };
    const few = await readsFor(2);
    const many = await readsFor(40);
    expect(many).toEqual(few);
    // The events were stored with their links.
    const counted = countingReads(createMemoryStorage());
    const calendar = createCalendar({ storage: counted.storage, now: () => NOW });
    await calendar.importDataset(dataset(3));
    const got = (await calendar.events.get({ id: 102 }, { principal: admin })).value as unknown as { categories: { id: number }[]; organizer: { id: number }[]; venue: { id: number } };
    expect(got.categories.map((c) => c.id).sort()).toEqual([1, 2]);
    expect(got.organizer.map((o) => o.id)).toEqual([20, 21]);
    expect(got.venue.id).toBe(10);
  });
});

describe('importDataset in chunks', () => {
  const dataset = () => ({
    categories: [{ id: 3, name: 'Jazz' }, { name: 'Blues' }],
    venues: [{ venue: 'Hall' }, { id: 500, venue: 'Barn' }],
    events: [event(1), event(2, { id: 700, categories: [3] }), event(3), event(4, { venue: [500] }), event(5), event(6, { id: 702 }), event(7)],
  });
  const everything = async (calendar: ReturnType<typeof createCalendar>) => {
    const body = (await calendar.exportDataset()) as unknown as Record<string, Array<Record<string, unknown>>>;
    // Records without an id in the dataset compared by what they hold (which ids they got is the sequence's affair).
    const named = (list: Array<Record<string, unknown>>, key: string) => Object.fromEntries(list.map(({ id, revision, ...rest }) => [rest[key], { ...rest, ...(Number(id) >= 500 || Number(id) === 3 ? { id } : {}) }]));
    return { categories: named(body.categories!, 'name'), venues: named(body.venues!, 'venue'), events: named(body.events!, 'title') };
  };

  it('commits every `records` records; stopped part-way and run again, it ends as one import would, nothing twice', async () => {
    const whole = createCalendar({ storage: createMemoryStorage(), now: () => NOW });
    await whole.importDataset(dataset());

    const storage = createMemoryStorage();
    const calendar = createCalendar({ storage, now: () => NOW });
    const stopped = await calendar.importDataset(dataset(), {
      chunks: { records: 3 },
      onProgress: (done) => {
        if (done === 8) throw new Error('stopped');
      },
    }).then(() => undefined, (e: unknown) => e);
    expect((stopped as Error).message).toBe('stopped');
    // Two chunks of three committed: the terms and venues, and the first two events.
    expect((await calendar.exportDataset()).events.map((e) => e.title).sort()).toEqual(['Event 1', 'Event 2']);

    const progress: number[] = [];
    await calendar.importDataset(dataset(), { chunks: { records: 3 }, onProgress: (done) => progress.push(done) });
    expect(progress[0]).toBe(6);
    expect(await everything(calendar)).toEqual(await everything(whole));
    expect((await calendar.exportDataset()).events).toHaveLength(7);
    // Done: the same dataset once more is a new import, refused as always (its records are there).
    expect((await importError(calendar, dataset())).code).toBe('invalid_dataset');
  });
});
