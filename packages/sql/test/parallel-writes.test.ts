// PostgreSQL write transactions that run side by side (parallel-writes.ts, docs/storage.md):
// two storages on one schema stand for two servers. Each test holds one transaction open at a
// chosen point while another runs: with every write queued behind the change counter's row,
// as before, the second could not commit while the first is open (each of these tests then
// waits forever and fails on vitest's time-out).
import { afterEach, describe, expect, it } from 'vitest';
import type { Storage } from '@evcal/core/adapter';
import { changeEntry as entry, eventRecord, termRecord, venueRecord } from '@evcal/storage-test-suite';
import { openPostgres, POSTGRES_URL, type OpenedDatabase } from './databases';

const opened: OpenedDatabase[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.storage.close();
});

/** Two storages (two servers) on one fresh schema. */
async function twoServers(): Promise<[Storage, Storage]> {
  const a = await openPostgres();
  opened.push(a);
  const b = await openPostgres(a.schema);
  opened.push(b);
  return [a.storage, b.storage];
}

/** A promise and its resolve, to hold a transaction open until told. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => { open = resolve; });
  return { wait, open };
}

describe.skipIf(!POSTGRES_URL)('postgres: write transactions in parallel', { timeout: 30_000 }, () => {
  it('commits a write to one record while a write to another is still open', async () => {
    const [a, b] = await twoServers();
    await a.events.insert(eventRecord(1));
    await a.events.insert(eventRecord(2));
    const held = gate();
    const written = gate();
    const first = a.transaction(async (tx) => {
      const event = (await tx.events.get(1))!;
      await tx.events.replace({ ...event, title: 'first', revision: tx.change });
      written.open();
      await held.wait;
      return tx.change;
    });
    await written.wait;
    // The other server's write commits while the first is open.
    const second = await b.transaction(async (tx) => {
      const event = (await tx.events.get(2))!;
      await tx.events.replace({ ...event, title: 'second', revision: tx.change });
      return tx.change;
    });
    expect((await b.events.get(2))!.title).toBe('second');
    held.open();
    const firstNumber = await first;
    expect(firstNumber).not.toBe(second);
    expect([(await a.events.get(1))!.revision, (await a.events.get(2))!.revision]).toEqual([firstNumber, second]);
  });

  it('numbers the change log in commit order: an entry that commits late comes after, and a reader never skips it', async () => {
    const [a, b] = await twoServers();
    const held = gate();
    const appended = gate();
    const late = a.transaction(async (tx) => {
      await tx.changes.append([entry(tx.change, 0, { id: 1 })]);
      appended.open();
      await held.wait;
      return tx.change;
    });
    await appended.wait;
    const early = await b.transaction(async (tx) => {
      await tx.changes.append([entry(tx.change, 0, { id: 2 })]);
      return tx.change;
    });
    // The late one began first: it holds the smaller number.
    const lateNumber = await Promise.race([late, Promise.resolve(undefined)]);
    expect(lateNumber).toBeUndefined();
    // A reader now reads to the counter: the early one's entry, at position 1.
    const committed = await b.lastChange();
    const read = await b.changes.read({ change: 0, seq: 0 }, 10);
    expect(read.map((e) => [e.change, e.id])).toEqual([[committed, 2]]);
    held.open();
    const lateChange = await late;
    expect(lateChange).toBeLessThan(early);
    // The late commit's entry comes after the reader's position: following the log from there, it is not skipped.
    const next = await a.changes.read({ change: committed + 1, seq: 0 }, 10);
    expect(next.map((e) => e.id)).toEqual([1]);
    expect(next[0]!.change).toBe(await a.lastChange());
    expect(next[0]!.change).toBeGreaterThan(committed);
    // Its revision stays the number it stamped.
    expect(next[0]!.revision).toBe(lateChange);
  });

  it('gives a record only newer revisions: a transaction that read it after a later-numbered write takes a new number', async () => {
    const [a, b] = await twoServers();
    await a.venues.insert(venueRecord(1, { phone: '0' }));
    const begun = gate();
    const go = gate();
    // This transaction begins (and claims its number) before the other one.
    const older = a.transaction(async (tx) => {
      begun.open();
      await go.wait;
      const venue = (await tx.venues.get(1))!;
      await tx.venues.replace({ ...venue, phone: `${venue.phone}+a`, revision: tx.change });
      return { read: venue.revision, wrote: tx.change };
    });
    await begun.wait;
    const newer = await b.transaction(async (tx) => {
      const venue = (await tx.venues.get(1))!;
      await tx.venues.replace({ ...venue, phone: `${venue.phone}+b`, revision: tx.change });
      return tx.change;
    });
    go.open();
    const result = await older;
    expect(result.read).toBe(newer);
    expect(result.wrote).toBeGreaterThan(newer);
    const venue = (await a.venues.get(1))!;
    expect([venue.phone, venue.revision]).toEqual(['0+b+a', result.wrote]);
  });

  it('fails as a conflict a transaction that stamped its number before reading a newer record', async () => {
    const [a, b] = await twoServers();
    await a.venues.insert(venueRecord(1));
    await a.venues.insert(venueRecord(2));
    const stamped = gate();
    const go = gate();
    const older = a.transaction(async (tx) => {
      await tx.venues.replace({ ...(await tx.venues.get(2))!, revision: tx.change });
      stamped.open();
      await go.wait;
      await tx.venues.get(1);
    });
    await stamped.wait;
    await b.transaction(async (tx) => tx.venues.replace({ ...(await tx.venues.get(1))!, phone: 'b', revision: tx.change }));
    go.open();
    await expect(older).rejects.toMatchObject({ code: 'conflict' });
  });

  it('holds a record a write refers to: other writes go on, its removal waits and then takes off the link that write committed', async () => {
    const [a, b] = await twoServers();
    await a.categories.insert(termRecord(5));
    const read = gate();
    const go = gate();
    const create = a.transaction(async (tx) => {
      const [term] = await tx.categories.getMany([5]);
      read.open();
      await go.wait;
      await tx.events.insert(eventRecord(1, { categoryIds: [term!.id], revision: tx.change }));
    });
    await read.wait;
    // Unrelated writes commit meanwhile.
    await b.transaction(async (tx) => tx.events.insert(eventRecord(9, { revision: tx.change })));
    const removal = b.transaction(async (tx) => {
      const unlinked = await tx.events.unlink('category', 5, tx.change);
      await tx.categories.delete(5);
      return unlinked;
    });
    go.open();
    await create;
    // The removal waited for the write that read the term, and saw its link.
    expect(await removal).toEqual([1]);
    expect((await a.events.get(1))!.categoryIds).toEqual([]);
    expect(await a.categories.get(5)).toBeUndefined();
  });
});
