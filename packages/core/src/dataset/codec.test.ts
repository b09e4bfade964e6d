import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { createCalendar } from '../calendar/calendar';
import { datasetJsonBytes, decodeDataset, encodeDataset } from './codec';

const admin = { principal: { id: 1, role: 'administrator' } };

/** A calendar with one of everything, written through the API. */
async function populated() {
  const storage = createMemoryStorage();
  const calendar = createCalendar({ storage, timezone: 'Europe/Rome', now: () => Date.UTC(2026, 10, 22, 12) });
  const cat = (await calendar.categories.create({ name: 'Music' }, admin)).value;
  await calendar.categories.create({ name: 'Jazz', parent: cat.id }, admin);
  await calendar.tags.create({ name: 'Free' }, admin);
  await calendar.events.create({
    title: 'Gig & more', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', timezone: 'America/New_York',
    cost: ['10€', '20€'], categories: ['Jazz'], tags: ['free', 'New Tag'], featured: true, website: '',
    venue: { venue: 'Hall', city: 'Rome', geo_lat: 41.9, geo_lng: 12.5, image: 'https://img.example/hall.png' },
    organizer: [{ organizer: 'Ada', email: 'ada@example.com' }],
  }, admin);
  await calendar.events.create({ title: 'Draft', status: 'draft', start_date: '2026-12-02', end_date: '2026-12-02', all_day: true }, admin);
  const trashed = (await calendar.events.create({ title: 'Gone', start_date: '2026-12-03 10:00', end_date: '2026-12-03 11:00' }, admin)).value;
  await calendar.events.delete({ id: trashed.id }, admin);
  await calendar.tags.delete({ id: (await calendar.tags.create({ name: 'Deleted' }, admin)).value.id }, admin);
  return { storage, calendar };
}

describe('dataset codec', () => {
  it('decodes exactly what it encoded, ids and sequences included', async () => {
    const { storage } = await populated();
    const snapshot = storage.snapshot();
    const decoded = decodeDataset(JSON.parse(JSON.stringify(encodeDataset(snapshot))));
    const byId = <T extends { id: number }>(l: readonly T[]) => [...l].sort((a, b) => a.id - b.id);
    expect(byId(decoded.events)).toEqual(byId(snapshot.events));
    expect(byId(decoded.venues)).toEqual(byId(snapshot.venues));
    expect(byId(decoded.organizers)).toEqual(byId(snapshot.organizers));
    expect(byId(decoded.categories)).toEqual(byId(snapshot.categories));
    expect(byId(decoded.tags)).toEqual(byId(snapshot.tags));
    expect(decoded.sequences).toEqual(snapshot.sequences);
  });

  it('exports a dataset that importDataset loads back into the same calendar', async () => {
    const { calendar } = await populated();
    const exported = await calendar.exportDataset();
    const copy = createCalendar({ storage: createMemoryStorage(), timezone: 'Europe/Rome', now: () => Date.UTC(2026, 10, 22, 12) });
    await copy.importDataset(JSON.parse(JSON.stringify(exported)));
    expect(await copy.exportDataset()).toEqual(exported);
  });

  it('writes the bytes of JSON.stringify(encodeDataset(…)) with datasetJsonBytes, re-encoding only changed records', async () => {
    const { storage, calendar } = await populated();
    const cache = new WeakMap<object, Uint8Array>();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    const expected = () => JSON.stringify(encodeDataset(storage.snapshot()));
    expect(text(datasetJsonBytes(storage.snapshot()))).toBe(expected());
    expect(text(datasetJsonBytes(storage.snapshot(), cache))).toBe(expected());
    const venue = storage.snapshot().venues[0]!;
    expect(text(cache.get(venue)!)).toBe(JSON.stringify(encodeDataset({ ...storage.snapshot(), venues: [venue] }).venues[0]));
    // Changes replace records: the new ones are encoded, the cached bytes of the others reused.
    const first = storage.snapshot().events.find((e) => e.status === 'publish')!;
    await calendar.events.patch({ id: first.id, title: 'Renamed', cost: 'Free' }, admin);
    await calendar.venues.patch({ id: venue.id, city: 'Milano' }, admin);
    await calendar.tags.create({ name: 'Later' }, admin);
    expect(text(datasetJsonBytes(storage.snapshot(), cache))).toBe(expected());
    expect(text(datasetJsonBytes(storage.snapshot(), cache))).toContain('"Renamed"');
    expect(text(cache.get(venue)!)).not.toContain('Milano');
    // An empty calendar, and sections with one record.
    const empty = { events: [], venues: [], organizers: [], categories: [], tags: [], sequences: { post: 0, term: 0, change: 0 } };
    expect(text(datasetJsonBytes(empty, cache))).toBe(JSON.stringify(encodeDataset(empty)));
    const one = { ...empty, venues: [venue] };
    expect(text(datasetJsonBytes(one, cache))).toBe(JSON.stringify(encodeDataset(one)));
  });

  it('names the first bad record', () => {
    expect(() => decodeDataset({ events: [{ id: 1 }] })).toThrow(/events\[0\]/);
    expect(() => decodeDataset({ venues: [{ id: 1, venue: 'x', status: 'nope' }] })).toThrow(/venues\[0\]\.status/);
  });
});
