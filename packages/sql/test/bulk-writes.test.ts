// Bulk writes in statements of at most WRITE_CHUNK rows (chunks.ts): inside a write
// transaction SQLite keeps, in memory, a copy of every page a statement changes until the
// statement ends, so publishing thousands of due posts or unlinking a venue from thousands of
// events must not do it in one statement. The results are those of one statement.
import type { StorageTransaction } from '@evcal/core/adapter';
import { eventRecord, termRecord, venueRecord } from '@evcal/storage-test-suite';
import { describe, expect, it } from 'vitest';
import { WRITE_CHUNK } from '../src/chunks';
import { openPostgres, openSqlite, POSTGRES_URL, type OpenedDatabase } from './databases';

const storages: Array<[string, () => Promise<OpenedDatabase>, boolean]> = [
  ['sqlite', () => openSqlite(), true],
  ['postgres', () => openPostgres(), Boolean(POSTGRES_URL)],
];
const EVENTS = 2 * WRITE_CHUNK + 500;

for (const [name, open, available] of storages) {
  describe.skipIf(!available)(`${name}: bulk writes`, { timeout: 120_000 }, () => {
    it('changes the status of and unlinks more events than one statement changes, with the counts kept', async () => {
      const { storage, queries } = await open();
      try {
        const ids = Array.from({ length: EVENTS }, (_, i) => i + 1);
        await storage.transaction(async (tx) => {
          await tx.categories.insert(termRecord(7, { name: 'Music', slug: 'music' }));
          await tx.venues.insert(venueRecord(5));
          for (const id of ids) await tx.events.insert(eventRecord(id, { status: 'future', slug: `e${id}`, categoryIds: [7], venueIds: [5] }));
        });
        // One event already published: not changed, not returned.
        await storage.transaction((tx) => tx.events.setStatus([2], 'future', 'publish', (tx as StorageTransaction).change));

        queries.length = 0;
        const published = await storage.transaction((tx) => tx.events.setStatus([...ids].reverse(), 'future', 'publish', (tx as StorageTransaction).change));
        expect(published).toEqual(ids.filter((id) => id !== 2));
        expect(queries.filter((q) => /^update ("\w+"\.)?"evcal_events" set "status"/i.test(q.trim()))).toHaveLength(3);
        expect((await storage.events.countByTerm('category', [7], ['publish'])).get(7)).toBe(EVENTS);
        expect((await storage.events.countByTerm('category', [7], ['future'])).get(7)).toBe(0);

        queries.length = 0;
        const revision = await storage.transaction(async (tx) => {
          expect(await tx.events.unlink('venue', 5, (tx as StorageTransaction).change)).toEqual(ids);
          return (tx as StorageTransaction).change;
        });
        expect(queries.filter((q) => /^delete from ("\w+"\.)?"evcal_event_links"/i.test(q.trim()))).toHaveLength(3);
        const events = await storage.events.getMany(ids);
        expect(events.every((e) => e.venueIds.length === 0 && e.revision === revision && e.categoryIds[0] === 7)).toBe(true);
        expect((await storage.events.countByTerm('category', [7], ['publish'])).get(7)).toBe(EVENTS);
      } finally {
        await storage.close();
      }
    });
  });
}
