// Which B-trees (tables and indexes) the WAL pages a create writes belong to: N creates through
// the calendar on a copy of a seeded file with checkpoints off, then the page numbers of their
// WAL frames looked up in SQLite's dbstat table.
//   node bench/sqlite/create-wal-pages.mjs <seeded file> [n events of the file]   (N=<creates>, default 50)
import { createCalendar } from '@evcal/core';
import { readFileSync } from 'node:fs';
import { BENCH_NOW_MS, benchEvents } from '../lib/dataset.mjs';
import { openSqliteCopy } from '../lib/stores.mjs';

const [src, n = '10000'] = process.argv.slice(2);
const { file, sqlite, storage, close } = await openSqliteCopy(src, 'create-wal', (db) => db.pragma('wal_autocheckpoint = 0'));
const pageSize = sqlite.pragma('page_size', { simple: true });
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
await close();
