// Group commit on SQLite (group-commit.ts, `grouped`): write transactions that queue while one
// runs share the next SQLite transaction, each in a savepoint of its own. A write that fails is
// undone alone and the others commit; a write is answered only once its group has committed.
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorageTransaction } from '@evcal/core/adapter';
import { eventRecord } from '@evcal/storage-test-suite';
import { createSqlStorage, loadBetterSqlite3 } from '../src/index';
import { openSqlite, type OpenedDatabase } from './databases';
import { sqliteFile } from './temp-files';

const Database = await loadBetterSqlite3();

const opened: OpenedDatabase[] = [];
afterEach(async () => {
  // One after the other: two storages on one file closing at once took SQLite's busy timeout (5 s).
  for (const o of opened.splice(0)) await o.storage.close();
});

async function open(file = sqliteFile()): Promise<OpenedDatabase & { file: string }> {
  const o = await openSqlite(file);
  opened.push(o);
  return Object.assign(o, { file });
}

/** A write transaction inserting event `id`, answering its change number. */
const insert = (o: Pick<OpenedDatabase, 'storage'>, id: number) => o.storage.transaction(async (tx) => {
  await tx.events.insert(eventRecord(id));
  return (tx as StorageTransaction).change;
});

const settled = (promises: Promise<unknown>[]) => Promise.allSettled(promises);
/** A write that inserts event 13 and then fails. */
const failing = (o: Pick<OpenedDatabase, 'storage'>) => o.storage.transaction(async (tx) => {
  await tx.events.insert(eventRecord(13));
  throw new Error('refused after writing');
});

describe('SQLite group commit', () => {
  it('commits writes that queued together in one transaction, each with its own change number', async () => {
    const o = await open();
    await insert(o, 1);
    const before = await o.storage.lastChange();
    o.queries.length = 0;
    const changes = await Promise.all([2, 3, 4, 5].map((id) => insert(o, id)));
    expect(changes).toEqual([before + 1, before + 2, before + 3, before + 4]);
    expect(o.queries.filter((q) => /^commit$/i.test(q))).toHaveLength(1);
    // The first write needs no savepoint (undone, it takes the transaction with it).
    expect(o.queries.filter((q) => /^savepoint /i.test(q))).toHaveLength(3);
    expect(await o.storage.lastChange()).toBe(before + 4);
    expect((await o.storage.events.getMany([2, 3, 4, 5])).map((e) => e.revision === 1 && e.id)).toEqual([2, 3, 4, 5]);
  });

  it('undoes a failing write alone: the others of its group commit, and its change number is not used', async () => {
    const o = await open();
    await insert(o, 1);
    const before = await o.storage.lastChange();
    o.queries.length = 0;
    const results = await settled([insert(o, 2), failing(o), insert(o, 3), insert(o, 4)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused after writing'));
    // One transaction for all four; the failing write's change number went to the next one.
    expect(o.queries.filter((q) => /^commit$/i.test(q))).toHaveLength(1);
    expect(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))).toEqual([before + 1, before + 2, before + 3]);
    expect(await o.storage.lastChange()).toBe(before + 3);
    // Committed: another connection to the file sees the three, and not the failed one.
    const other = await open(o.file);

    expect((await other.storage.events.getMany([2, 3, 4, 13])).map((e) => e.id)).toEqual([2, 3, 4]);
    expect(await other.storage.lastChange()).toBe(before + 3);
  });

  it('undoes a failing first write with its transaction: the writes queued behind it commit in the next', async () => {
    const o = await open();
    await insert(o, 1);
    const before = await o.storage.lastChange();
    o.queries.length = 0;
    const results = await settled([failing(o), insert(o, 2), insert(o, 3)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))).toEqual([before + 1, before + 2]);
    expect(o.queries.filter((q) => /^(commit|rollback)$/i.test(q))).toEqual(['rollback', 'commit']);
    const other = await open(o.file);
    expect((await other.storage.events.getMany([2, 3, 13])).map((e) => e.id)).toEqual([2, 3]);
  });

  it('answers a write that wrote nothing without using a change number', async () => {
    const o = await open();
    await insert(o, 1);
    const before = await o.storage.lastChange();
    const [read, written] = await Promise.all([
      o.storage.transaction(async (tx) => (await tx.events.get(1))?.title),
      insert(o, 2),
    ]);
    expect(read).toBe('Event 1');
    expect(written).toBe(before + 1);
    expect(await o.storage.lastChange()).toBe(before + 1);
  });

  it('answers no write of a group as written when the group does not commit', async () => {
    const file = sqliteFile();
    await (await open(file)).storage.close();
    // The connection itself, to end the transaction under the group as SQLite does on its own
    // after SQLITE_FULL or an I/O error.
    const connection = new Database(file);
    const storage = createSqlStorage({ db: new Kysely<any>({ dialect: new SqliteDialect({ database: connection }) }), dialect: 'sqlite', destroyOnClose: true });
    const o = { storage };
    await insert(o, 1);
    const before = await storage.lastChange();
    const breaking = () => storage.transaction(async (tx) => {
      await tx.events.insert(eventRecord(12));
      connection.exec('rollback');
      return 'rolled back';
    });
    // Queued behind the breaking one, so in the same group.
    const results = await settled([insert(o, 2), breaking(), insert(o, 3)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<number>).value).toBe(before + 1);
    await storage.close();
    const other = await open(file);
    expect((await other.storage.events.getMany([2, 3, 12])).map((e) => e.id)).toEqual([3]);
    expect(await other.storage.lastChange()).toBe(before + 1);
  });
});

describe('SQLite write transactions keep their journals in memory', () => {
  /** A storage on a fresh file, its statements, and the better-sqlite3 connection under it. */
  async function openWatched(tempStore?: string) {
    const o = await open();
    await o.storage.close();
    opened.splice(opened.indexOf(o), 1);
    const queries: string[] = [];
    const connection = new Database(o.file);
    if (tempStore) connection.pragma(`temp_store = ${tempStore}`);
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: connection }), log: (e) => { if (e.level === 'query') queries.push(e.query.sql); } });
    const storage = createSqlStorage({ db, dialect: 'sqlite', destroyOnClose: true, sqliteDatabase: connection });
    opened.push({ storage, db, queries, reopen: () => { throw new Error('not reopened'); } });
    return { storage, queries, tempStore: () => connection.pragma('temp_store', { simple: true }) };
  }
  const around = (queries: string[]) => queries.filter((q) => /^(pragma temp_store|begin|commit|rollback)/i.test(q));

  it('sets temp_store = memory before BEGIN and gives the connection its own setting back after COMMIT or ROLLBACK', async () => {
    const w = await openWatched();
    expect(w.tempStore()).toBe(0);
    await insert(w, 1);
    await expect(failing(w)).rejects.toThrow('refused after writing');
    expect(around(w.queries)).toEqual([
      'pragma temp_store', 'pragma temp_store = 2', 'begin', 'commit', 'pragma temp_store = 0',
      'pragma temp_store = 2', 'begin', 'rollback', 'pragma temp_store = 0',
    ]);
    // Reads run on the connection's own setting (their temporary tables spill to files).
    expect(w.tempStore()).toBe(0);
    expect((await w.storage.events.getMany([1, 13])).map((e) => e.id)).toEqual([1]);
  });

  it('leaves a connection already set to memory as it is', async () => {
    const w = await openWatched('memory');
    await Promise.all([insert(w, 1), insert(w, 2)]);
    expect(around(w.queries)).toEqual(['pragma temp_store', 'begin', 'commit']);
    expect(w.tempStore()).toBe(2);
  });
});
