// Named prepared statements on PostgreSQL (prepared-statements.ts): statements with parameters
// are prepared once per connection under a name that is a hash of their text, and run by name
// afterwards; when the server no longer has one the client believes prepared (a pooler in
// transaction mode handed it another connection), preparing turns itself off for the pool, a
// read is answered anyway and a write fails as a conflict, to be run again.
import { afterEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { isStorageConflict } from '@evcal/core/adapter';
import { eventRecord } from '@evcal/storage-test-suite';
import { openPostgres, POSTGRES_URL, type OpenedDatabase } from './databases';

const opened: OpenedDatabase[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.storage.close();
});

async function open(prepare?: boolean) {
  const clients: pg.PoolClient[] = [];
  const off: Error[] = [];
  // One connection: every statement runs where the one before it ran.
  const o = await openPostgres(undefined, { poolSize: 1, onClient: (c) => clients.push(c), watch: { ...(prepare === undefined ? {} : { prepare }), onPreparingOff: (e) => off.push(e) } });
  opened.push(o);
  return { ...o, clients, off };
}

/** The statements evcal prepared on each connection the pool opened (asked on that connection). */
async function preparedOn(clients: readonly pg.PoolClient[]): Promise<string[][]> {
  return Promise.all(clients.map(async (c) => (await c.query<{ name: string }>('select name from pg_prepared_statements order by name')).rows.map((r) => r.name)));
}

async function writeEvents(o: OpenedDatabase, from: number, n: number) {
  for (let id = from; id < from + n; id++) {
    await o.storage.transaction(async (tx) => {
      await tx.events.insert(eventRecord(id, { slug: `e-${id}`, revision: tx.change }));
    });
  }
}

describe.skipIf(!POSTGRES_URL)('prepared statements (PostgreSQL)', () => {
  it('prepares a statement with parameters once per connection, named by its text, and runs it by name after (none with prepare: false)', async () => {
    const o = await open();
    await writeEvents(o, 1, 3);
    const first = (await preparedOn(o.clients)).flat();
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((name) => /^evcal_[0-9a-f]{32}$/.test(name))).toBe(true);
    // More of the same writes and reads prepare nothing new: they run what is prepared.
    await writeEvents(o, 4, 5);
    expect((await o.storage.events.get(2))?.slug).toBe('e-2');
    const writesAgain = (await preparedOn(o.clients)).flat().filter((name) => !first.includes(name));
    await writeEvents(o, 9, 5);
    expect((await preparedOn(o.clients)).flat().filter((name) => !first.includes(name))).toEqual(writesAgain);
    expect(o.off).toEqual([]);
    // And nothing with prepare: false.
    const unprepared = await open(false);
    await writeEvents(unprepared, 1, 3);
    expect((await unprepared.storage.events.get(1))?.slug).toBe('e-1');
    expect((await preparedOn(unprepared.clients)).flat()).toEqual([]);
  });

  it('turns preparing off when the server lost a prepared statement: a read is answered, a write fails as a conflict and succeeds again', async () => {
    const o = await open();
    await writeEvents(o, 1, 2);
    expect((await o.storage.events.get(1))?.slug).toBe('e-1');
    // What a pooler does to a client: the server connection it gets next has none of its statements.
    for (const c of o.clients) await c.query('deallocate all');
    expect((await o.storage.events.get(1))?.slug).toBe('e-1');
    expect(o.off).toHaveLength(1);
    expect((o.off[0] as { code?: string }).code).toBe('26000');
    // Off for good: nothing is prepared again.
    await writeEvents(o, 3, 2);
    expect((await preparedOn(o.clients)).flat()).toEqual([]);
  });

  it('fails a write whose prepared statement was lost as a conflict, which runs again unnamed', async () => {
    const o = await open();
    await writeEvents(o, 1, 2);
    for (const c of o.clients) await c.query('deallocate all');
    const failed = await writeEvents(o, 3, 1).then(() => undefined, (error: unknown) => error);
    expect(isStorageConflict(failed)).toBe(true);
    expect(o.off).toHaveLength(1);
    await writeEvents(o, 3, 1);
    expect((await o.storage.events.get(3))?.slug).toBe('e-3');
  });
});
