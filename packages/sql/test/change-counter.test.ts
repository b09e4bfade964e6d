// The change counter on PostgreSQL (sql-storage.ts, `sharedRead`): a list's validator needs it
// for every request, and each read is a round trip. The callers of one turn of the event loop
// share one read, sent after they all asked; each caller gets a value read after it asked.
import { afterEach, describe, expect, it } from 'vitest';
import type { StorageTransaction } from '@evcal/core/adapter';
import { eventRecord } from '@evcal/storage-test-suite';
import { openPostgres, POSTGRES_URL, type OpenedDatabase } from './databases';

const opened: OpenedDatabase[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.storage.close();
});

async function open(schema?: string): Promise<OpenedDatabase> {
  const o = await openPostgres(schema);
  opened.push(o);
  return o;
}

/** The reads of the counter among the statements `o` ran. */
const counterReads = (o: OpenedDatabase) => o.queries.filter((q) => /^select "value" from .*"evcal_sequences"/.test(q)).length;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.skipIf(!POSTGRES_URL)('postgres: the change counter', () => {
  it('is read once for the callers of one turn', async () => {
    const o = await open();
    o.queries.length = 0;
    const values = await Promise.all(Array.from({ length: 20 }, () => o.storage.lastChange()));
    expect(new Set(values).size).toBe(1);
    expect(counterReads(o)).toBe(1);
  });

  it('is read again for the callers that asked after a read was sent', async () => {
    const o = await open();
    o.queries.length = 0;
    const first = o.storage.lastChange();
    // The read is sent at the end of the turn it was asked in (its setImmediate, in the same
    // check phase as the first nextTurn's): after the second, it is on its way.
    await nextTurn();
    await nextTurn();
    const later = Array.from({ length: 10 }, () => o.storage.lastChange());
    await Promise.all([first, ...later]);
    expect(counterReads(o)).toBe(2);
  });

  it('gives every caller a value read after it asked: a write committed before is counted', async () => {
    const o = await open();
    const other = await open(o.schema);
    for (let i = 0; i < 20; i++) {
      // A read on its way while another process commits a write, then a caller asks.
      const onItsWay = o.storage.lastChange();
      await nextTurn();
      await nextTurn();
      const committed = await other.storage.transaction(async (tx) => {
        await tx.events.insert(eventRecord(100 + i));
        return (tx as StorageTransaction).change;
      });
      const asked = await o.storage.lastChange();
      await onItsWay;
      expect(asked).toBeGreaterThanOrEqual(committed);
    }
  });
});
