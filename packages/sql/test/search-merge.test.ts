// SQLite's search index merged after writes (migration 0012, search-index.ts): searches are
// exact whether an event is pending or merged, updates and deletes of either kind keep the
// FTS5 index consistent, several processes may merge one file at once, and what a crash left
// pending is found by searches and merged later.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { matchesEventQuery, type EventQuery, type Storage } from '@evcal/core/adapter';
import { eventRecord } from '@evcal/storage-test-suite';
import { createSqlStorage, loadBetterSqlite3, migrate, type SearchIndexerOptions } from '../src/index';
import { pendingTexts } from '../src/search-index';
import { WORDS } from './support/search-words';
import { sqliteFile } from './temp-files';

const Database = await loadBetterSqlite3();
const WRITER = join(dirname(fileURLToPath(import.meta.url)), 'support', 'search-writer.ts');
const NEVER: SearchIndexerOptions = { after: Number.MAX_SAFE_INTEGER, quietMs: 2 ** 30 };

interface Opened {
  readonly storage: Storage;
  readonly db: Kysely<any>;
}
const opened: Opened[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.storage.close()));
});

async function open(file: string, searchMerge: SearchIndexerOptions = NEVER): Promise<Opened> {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  const o = { storage: createSqlStorage({ db, dialect: 'sqlite', destroyOnClose: true, searchMerge }), db };
  opened.push(o);
  return o;
}

async function close(o: Opened): Promise<void> {
  opened.splice(opened.indexOf(o), 1);
  await o.storage.close();
}


const query = (search?: string[]): EventQuery => ({
  records: 'listed', excludeHidden: true, statuses: ['publish'], sort: [{ field: 'id', direction: 'asc' }], ...(search ? { search } : {}),
} as EventQuery);

/** The ids a search finds, and those core's reference engine finds among all events. */
async function searched(storage: Storage, words: string[]): Promise<{ found: number[]; expected: number[] }> {
  const all = (await storage.events.list(query())).items;
  const expected = all.filter((e) => matchesEventQuery(e, query(words), { venue: () => undefined })).map((e) => e.id);
  const found = (await storage.events.list(query(words))).items.map((e) => e.id);
  return { found, expected };
}

/** Every word's search (and one of two words) equals the reference engine's. */
async function expectExact(storage: Storage): Promise<void> {
  for (const words of [...WORDS.map((w) => [w]), ['alpha', 'bravo']]) {
    const { found, expected } = await searched(storage, words);
    expect(found, words.join(' ')).toEqual(expected);
  }
}

const pendingCount = async (db: Kysely<any>) => Number((await sql<{ n: number }>`select count(*) as n from evcal_search_pending`.execute(db)).rows[0]!.n);

/**
 * FTS5's own check of the index. `content`: also that it holds exactly the text of every event
 * (true only when nothing is pending).
 */
async function integrityCheck(db: Kysely<any>, content: boolean): Promise<void> {
  await sql`insert into evcal_events_search (evcal_events_search, rank) values ('integrity-check', ${content ? 1 : 0})`.execute(db);
}

describe('sqlite search merged after writes', () => {
  it('finds an event created a moment ago (pending) and after the merge', async () => {
    const file = sqliteFile();
    const a = await open(file);
    await a.storage.events.insert(eventRecord(1, { title: 'Golden Jam' }));
    expect(await pendingCount(a.db)).toBe(1);
    expect((await a.storage.events.list(query(['golden', 'jam']))).items.map((e) => e.id)).toEqual([1]);
    await close(a); // merges
    const b = await open(file);
    expect(await pendingCount(b.db)).toBe(0);
    await integrityCheck(b.db, true);
    expect((await b.storage.events.list(query(['golden', 'jam']))).items.map((e) => e.id)).toEqual([1]);
    expect((await b.storage.events.list(query(['golden', 'jazz']))).items).toEqual([]);
  });

  it('merges once enough events were written, and after writes go quiet', async () => {
    const enough = await open(sqliteFile(), { after: 3, quietMs: 2 ** 30 });
    for (const id of [1, 2]) await enough.storage.events.insert(eventRecord(id, { title: `alpha ${id}` }));
    expect(await pendingCount(enough.db)).toBe(2);
    await enough.storage.events.insert(eventRecord(3, { title: 'alpha 3' }));
    await vi.waitFor(async () => expect(await pendingCount(enough.db)).toBe(0));
    await integrityCheck(enough.db, true);
    expect((await enough.storage.events.list(query(['alpha']))).items.map((e) => e.id)).toEqual([1, 2, 3]);

    const quiet = await open(sqliteFile(), { after: 1000, quietMs: 20 });
    await quiet.storage.events.insert(eventRecord(1, { title: 'bravo' }));
    await vi.waitFor(async () => expect(await pendingCount(quiet.db)).toBe(0));
    await integrityCheck(quiet.db, true);
    expect((await quiet.storage.events.list(query(['bravo']))).items.map((e) => e.id)).toEqual([1]);
  });

  it('merges from the pending rows out, not by walking the events (as planned with statistics taken when nothing was pending)', async () => {
    const file = sqliteFile();
    const a = await open(file);
    for (let id = 1; id <= 400; id++) await a.storage.events.insert(eventRecord(id, { title: `event ${id}`, modifiedUtc: `2030-01-${String(1 + (id % 28)).padStart(2, '0')} ${String(id % 24).padStart(2, '0')}:${String(id % 60).padStart(2, '0')}:00` }));
    await close(a); // merges
    const b = await open(file);
    await sql`analyze`.execute(b.db);
    await b.storage.events.insert(eventRecord(401, { title: 'the newest' }));
    expect(await pendingCount(b.db)).toBe(1);
    const plan = await sql<{ detail: string }>`explain query plan ${pendingTexts(401)}`.execute(b.db);
    // The pending table is the outer loop; each event is one lookup by id.
    expect(plan.rows.map((r) => r.detail)).toEqual([
      expect.stringMatching(/^SEARCH p USING INTEGER PRIMARY KEY/),
      expect.stringMatching(/^SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/),
    ]);
  });

  it('keeps the index consistent through updates and deletes of pending and of merged events', async () => {
    const file = sqliteFile();
    const a = await open(file);
    for (let id = 1; id <= 6; id++) await a.storage.events.insert(eventRecord(id, { title: `${WORDS[id % 6]} ${id}` }));
    // Pending: never in the index, so an update or delete must not remove anything from it.
    await a.storage.events.replace(eventRecord(1, { title: 'foxtrot replaced' }));
    await a.storage.events.delete(2);
    await expectExact(a.storage);
    await integrityCheck(a.db, false);
    await close(a);

    const b = await open(file);
    expect(await pendingCount(b.db)).toBe(0);
    await integrityCheck(b.db, true);
    // Merged: the index holds their text, which the next merge must remove.
    await b.storage.events.replace(eventRecord(3, { title: 'alpha replaced' }));
    await b.storage.events.delete(4);
    await b.storage.events.replace(eventRecord(5, { title: 'charlie' }));
    await b.storage.events.replace(eventRecord(5, { title: 'delta echo' }));
    await b.storage.events.delete(6);
    await b.storage.events.insert(eventRecord(6, { title: 'bravo again' }));
    expect(await pendingCount(b.db)).toBe(4);
    await expectExact(b.storage);
    expect((await b.storage.events.list(query(['charlie']))).items).toEqual([]);
    await integrityCheck(b.db, false);
    await close(b);

    const c = await open(file);
    expect(await pendingCount(c.db)).toBe(0);
    await integrityCheck(c.db, true);
    await expectExact(c.storage);
  });

  it('two processes writing and merging one file at once leave an exact, consistent index', async () => {
    const file = sqliteFile();
    await close(await open(file));
    const outputs = await Promise.all([writer(file, 1, 60, 'merge'), writer(file, 1001, 60, 'merge')]);
    expect(outputs.map((o) => o.trim())).toEqual(['done', 'done']);
    const o = await open(file);
    expect(await pendingCount(o.db)).toBe(0);
    await integrityCheck(o.db, true);
    await expectExact(o.storage);
    expect((await o.storage.events.list(query())).total).toBe(2 * (60 - 12));
  });

  it('after a crash with events pending, searches are exact and the next merge takes them', async () => {
    const file = sqliteFile();
    await close(await open(file));
    expect((await writer(file, 1, 40, 'crash')).trim()).toBe('written');
    const o = await open(file);
    expect(await pendingCount(o.db)).toBeGreaterThan(0);
    await integrityCheck(o.db, false);
    await expectExact(o.storage);
    await close(o);
    const p = await open(file);
    expect(await pendingCount(p.db)).toBe(0);
    await integrityCheck(p.db, true);
    await expectExact(p.storage);
  });
});

/** Runs search-writer.ts in a process of its own; its output (a crash's too). */
function writer(file: string, first: number, count: number, mode: 'merge' | 'crash'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@evcal/source', '--import', 'tsx', WRITER, file, String(first), String(count), mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (mode === 'crash' ? signal === 'SIGKILL' : code === 0) resolve(out);
      else reject(new Error(`search-writer ${mode} ended with ${code ?? signal}: ${err}`));
    });
  });
}
