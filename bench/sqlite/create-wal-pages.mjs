// Which B-trees (tables and indexes) the WAL pages a create writes belong to: N creates through
// the calendar on a copy of a seeded file with checkpoints off, then the page numbers of their
// WAL frames looked up in SQLite's dbstat table.
//   node bench/sqlite/create-wal-pages.mjs <seeded file> [n events of the file]   (N=<creates>, default 50)
import { createCalendar } from '@evcal/core';
import { createSqlStorage, withStatementCache, loadBetterSqlite3 } from '@evcal/sql';
import { Kysely, SqliteDialect } from 'kysely';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_NOW_MS, benchEvents } from '../lib/dataset.mjs';

const Database = await loadBetterSqlite3();
const [src, n = '10000'] = process.argv.slice(2);
const file = join(tmpdir(), `evcal-create-wal-${process.pid}.db`);
copyFileSync(src, file);
const sqlite = new Database(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('wal_autocheckpoint = 0');
const pageSize = sqlite.pragma('page_size', { simple: true });
const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
const storage = createSqlStorage({ db, dialect: 'sqlite', sqliteDatabase: sqlite, searchMerge: { after: 1e9, quietMs: 1e9 } });
const calendar = createCalendar({ storage, timezone: 'UTC', now: () => BENCH_NOW_MS });
const admin = { principal: { id: 1, role: 'administrator' } };
const newEvent = benchEvents(Number(n));
for (let i = 0; i < 20; i++) await calendar.events.create(newEvent(i), admin);
const before = readFileSync(`${file}-wal`).length;
const N = Number(process.env.N ?? 50);
for (let i = 0; i < N; i++) await calendar.events.create(newEvent(100 + i), admin);
const wal = readFileSync(`${file}-wal`);
const owner = new Map(sqlite.prepare('select pageno, name from dbstat').all().map((r) => [r.pageno, r.name]));
const pages = new Map();
let frames = 0;
// Each frame: a 24-byte header (page number first) and the page.
for (let at = before; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
  frames++;
  const name = owner.get(wal.readUInt32BE(at)) ?? '(free or new)';
  pages.set(name, (pages.get(name) ?? 0) + 1);
}
console.log(`${(frames / N).toFixed(1)} WAL pages of ${pageSize} bytes a create`);
for (const [name, count] of [...pages].sort((a, b) => b[1] - a[1])) console.log(`${(count / N).toFixed(2).padStart(6)}  ${name}`);
await storage.close();
for (const x of [file, `${file}-wal`, `${file}-shm`]) rmSync(x, { force: true });
