// calendar.idempotent without HTTP: the answer is kept by the write's own transaction (a record
// that cannot be written takes the write with it, and the reverse), a repeat answers the kept
// text without running the write, every operation of the write runs in that transaction, the
// key's rule, and the bounded clean-up of expired records by later keyed writes.
import { createCalendar, isCalendarError, type Calendar } from '@evcal/core';
import { storageError, type Storage, type StorageTransaction } from '@evcal/core/adapter';
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { admin, as, eventInput, NOW } from './helpers';

const A = as(admin);
const create = (cal: Calendar) => (ctx: Parameters<Calendar['events']['create']>[1]) => cal.events.create(eventInput({ title: 'Gig' }), ctx);

/** A storage whose idempotency inserts fail as an unreachable database does. */
function failingRecords(storage: Storage): Storage {
  return {
    ...storage,
    transaction: (fn) => storage.transaction((tx) => {
      const self: StorageTransaction = {
        ...tx,
        idempotency: { ...tx.idempotency, insert: async () => { throw storageError('unavailable', new Error('gone')); } },
        transaction: (inner) => inner(self),
      };
      return fn(self);
    }),
  };
}

async function eventCount(cal: Calendar): Promise<number> {
  return (await cal.config.storage.events.list({ records: 'stored', statuses: ['publish', 'draft', 'trash'], excludeHidden: false, sort: [{ field: 'id', direction: 'asc' }] })).total;
}

describe('calendar.idempotent', () => {
  it('keeps the answer in the write\'s transaction: a record that cannot be kept leaves no event', async () => {
    const cal = createCalendar({ storage: failingRecords(createMemoryStorage()), now: () => NOW });
    const error = await cal.idempotent({ key: 'k', fingerprint: 'f' }, A, create(cal), (r) => JSON.stringify(r.value)).then(() => undefined, (e: unknown) => e);
    expect(isCalendarError(error) && error.code).toBe('unavailable');
    expect(await eventCount(cal)).toBe(0);
    expect(await cal.config.storage.idempotency.get('user:1', 'k')).toBeUndefined();
  });

  it('answers a repeat with the kept text, without running the write', async () => {
    const cal = createCalendar({ storage: createMemoryStorage(), now: () => NOW });
    let runs = 0;
    const write = async (ctx: Parameters<Calendar['events']['create']>[1]) => {
      runs++;
      return cal.events.create(eventInput({ title: 'Gig' }), ctx);
    };
    const first = await cal.idempotent({ key: 'k', fingerprint: 'f' }, A, write, (r) => `kept ${r.value.id}`);
    if (first.replayed) throw new Error('the first call replayed');
    const again = await cal.idempotent({ key: 'k', fingerprint: 'f' }, A, write, (r) => `kept ${r.value.id}`);
    expect(again).toEqual({ replayed: true, answer: `kept ${first.result.value.id}` });
    expect(runs).toBe(1);
    expect(await cal.config.storage.idempotency.get('user:1', 'k')).toEqual({
      scope: 'user:1', key: 'k', fingerprint: 'f', answer: `kept ${first.result.value.id}`, created: NOW, expires: NOW + 86_400_000,
    });
    const reused = await cal.idempotent({ key: 'k', fingerprint: 'other' }, A, write, String).then(() => undefined, (e: unknown) => e);
    expect(isCalendarError(reused) && reused.code).toBe('idempotency_key_reused');
    const anonymous = await cal.idempotent({ key: 'k', fingerprint: 'f' }, {}, write, String).then(() => undefined, (e: unknown) => e);
    // Anonymous callers have a scope of their own (and may not create events here).
    expect(isCalendarError(anonymous) && anonymous.code).toBe('unauthenticated');
    expect(runs).toBe(2);
  });

  it('runs every operation of the write in one transaction: the keyed write and its record commit once', async () => {
    const storage = createMemoryStorage();
    const cal = createCalendar({ storage, now: () => NOW });
    const before = await storage.lastChange();
    await cal.idempotent({ key: 'k', fingerprint: 'f' }, A, async (ctx) => {
      const venue = (await cal.venues.create({ venue: 'Hall' }, ctx)).value;
      return cal.events.create(eventInput({ title: 'Gig', venue: venue.id }), ctx);
    }, () => '');
    expect(await storage.lastChange()).toBe(before + 1);
  });

  it('refuses keys that break the rule', async () => {
    const cal = createCalendar({ storage: createMemoryStorage(), now: () => NOW });
    for (const key of ['', 'x'.repeat(256), 'caf\u00e9', 'line\nbreak']) {
      const error = await cal.idempotent({ key, fingerprint: 'f' }, A, create(cal), String).then(() => undefined, (e: unknown) => e);
      expect(isCalendarError(error) && error.code).toBe('invalid_idempotency_key');
    }
    expect(await eventCount(cal)).toBe(0);
  });

  it('removes expired records with later keyed writes, at most 20 a write, oldest first', async () => {
    let clock = NOW;
    const cal = createCalendar({ storage: createMemoryStorage(), now: () => clock, idempotency: { ttlSeconds: 60 } });
    for (let i = 0; i < 25; i++) await cal.idempotent({ key: `old-${i}`, fingerprint: 'f' }, A, create(cal), String);
    clock += 61_000;
    await cal.idempotent({ key: 'new', fingerprint: 'f' }, A, create(cal), String);
    const kept = async (i: number) => (await cal.config.storage.idempotency.get('user:1', `old-${i}`)) !== undefined;
    expect(await Promise.all(Array.from({ length: 25 }, (_, i) => kept(i)))).toEqual(Array.from({ length: 25 }, (_, i) => i >= 20));
  });

  it('refuses an idempotency time to live that is not a positive number', () => {
    expect(() => createCalendar({ storage: createMemoryStorage(), idempotency: { ttlSeconds: 0 } })).toThrow(/idempotency.ttlSeconds/);
  });
});
