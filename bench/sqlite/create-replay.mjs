// Records the SQL of N benchmark creates through the calendar, then replays the same statements
// and parameters straight through better-sqlite3 on a fresh copy: what SQLite itself costs
// against what the create path costs around it.
//   node bench/sqlite/create-replay.mjs <seeded 10k file> 10000 [N]
import { createCalendar } from '@evcal/core';
import { createSqlStorage, withStatementCache, loadBetterSqlite3, migrate } from '@evcal/sql';
import { Kysely, SqliteDialect } from 'kysely';
import { copyFileSync, rmSync } from 'node:fs';
import { BENCH_NOW_MS, benchEvents } from '../lib/dataset.mjs';
const Database = await loadBetterSqlite3();
const [src, n, count] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4] ?? 1000)];
const fresh = (f) => { for (const x of [f, f + '-wal', f + '-shm']) rmSync(x, { force: true }); copyFileSync(src, f); const s = new Database(f); s.pragma('journal_mode = WAL'); s.pragma('synchronous = NORMAL'); s.pragma('wal_autocheckpoint = 0'); return s; };
const sqlite = fresh('/tmp/replay-a.db');
let log = null;
const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log: (e) => log?.push(e) });
await migrate(db);
const storage = createSqlStorage({ db, dialect: 'sqlite', searchMerge: { after: 1e9, quietMs: 1e9, batch: 2000 } });
const calendar = createCalendar({ storage, timezone: 'UTC', now: () => BENCH_NOW_MS });
const admin = { principal: { id: 1, role: 'administrator' } };
const newEvent = benchEvents(n);
for (let i = 0; i < 100; i++) await calendar.events.create(newEvent(i), admin);
log = [];
let c = process.cpuUsage(); let t = performance.now();
for (let i = 0; i < count; i++) await calendar.events.create(newEvent(1000 + i), admin);
let u = process.cpuUsage(c);
console.log('through the calendar', ((performance.now() - t) / count * 1000).toFixed(0), 'µs wall,', ((u.user + u.system) / count).toFixed(0), 'µs cpu a create;', (log.length / count).toFixed(1), 'statements');
const recorded = log.map((e) => [e.query.sql, e.query.parameters]);
await storage.close();
// Replayed on a fresh copy of the same file: every statement prepared first, then all of them
// run in order, timed (the warm-up creates are missing there, so ids and slugs are new anyway).
const raw = fresh('/tmp/replay-b.db');
const prepared = new Map(recorded.map(([text]) => [text, undefined]));
for (const text of prepared.keys()) prepared.set(text, raw.prepare(text));
const run = ([text, params]) => { const st = prepared.get(text); return st.reader ? st.all(...params) : st.run(...params); };
c = process.cpuUsage(); t = performance.now();
const per = new Map();
for (const q of recorded) { const t0 = performance.now(); run(q); const k = q[0].replace(/\s+/g, ' ').slice(0, 60); per.set(k, (per.get(k) ?? 0) + performance.now() - t0); }
u = process.cpuUsage(c);
console.log('the same SQL raw    ', ((performance.now() - t) / count * 1000).toFixed(0), 'µs wall,', ((u.user + u.system) / count).toFixed(0), 'µs cpu a create');
for (const [k, ms] of [...per].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log((ms / count * 1000).toFixed(1).padStart(8), 'µs', k);
