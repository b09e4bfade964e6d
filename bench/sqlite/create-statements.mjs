// Per-statement SQL time of the benchmark's create on a copy of the seeded SQLite file (as bench/inprocess.mjs runs it).
// Usage: node bench/sqlite/create-statements.mjs <seeded file, e.g. bench/.cache/sqlite-…-n10000.db> 10000
//   (a seeded file exists once `node bench/inprocess.mjs --storage sqlite --n 10000` has run; CKPT=<pages> sets wal_autocheckpoint, N the number of creates)
import { createCalendar } from '@evcal/core';
import { createSqlStorage, withStatementCache, loadBetterSqlite3 } from '@evcal/sql';
import { Kysely, SqliteDialect } from 'kysely';
import { copyFileSync, rmSync } from 'node:fs';
import { BENCH_NOW_MS, benchEvents } from '../lib/dataset.mjs';
const Database = await loadBetterSqlite3();
const [src, n] = [process.argv[2], Number(process.argv[3])];
const f = '/tmp/create-trace3.db'; for (const x of [f, f + '-wal', f + '-shm']) rmSync(x, { force: true });
copyFileSync(src, f);
const sqlite = new Database(f); sqlite.pragma('journal_mode = WAL'); sqlite.pragma('synchronous = NORMAL');
if (process.env.CKPT) sqlite.pragma(`wal_autocheckpoint = ${process.env.CKPT}`);
if (process.env.CACHE) sqlite.pragma(`cache_size = ${process.env.CACHE}`);
const log = [];
const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log: (e) => log.push(e) });
const storage = createSqlStorage({ db, dialect: 'sqlite' });
const calendar = createCalendar({ storage, timezone: 'UTC', now: () => BENCH_NOW_MS });
const admin = { principal: { id: 1, role: 'administrator' } };
const newEvent = benchEvents(n);
for (let i = 0; i < 200; i++) await calendar.events.create(newEvent(i), admin);
const N = Number(process.env.N ?? 2000); log.length = 0; const c0 = process.cpuUsage(); const t0 = performance.now();
const times = [];
for (let i = 0; i < N; i++) { const t = performance.now(); await calendar.events.create(newEvent(1000 + i), admin); times.push(performance.now() - t); }
const cpu = process.cpuUsage(c0); times.sort((a, b) => a - b);
console.log('per create: wall', ((performance.now() - t0) / N).toFixed(3), 'ms, p50', times[N >> 1].toFixed(3), 'ms, cpu', ((cpu.user + cpu.system) / N / 1000).toFixed(3), 'ms, sql', (log.reduce((s, e) => s + e.queryDurationMillis, 0) / N).toFixed(3), 'ms,', (log.length / N).toFixed(1), 'statements');
const agg = new Map();
for (const e of log) { const k = e.query.sql.replace(/\s+/g, ' ').slice(0, 70); const a = agg.get(k) ?? [0, 0, []]; a[0]++; a[1] += e.queryDurationMillis; a[2].push(e.queryDurationMillis); agg.set(k, a); }
for (const [k, [cnt, ms, all]] of [...agg].sort((a, b) => b[1][1] - a[1][1]).slice(0, 16)) { all.sort((a, b) => a - b); console.log(String(cnt).padStart(6), (ms / N * 1000).toFixed(1).padStart(7), 'µs/create, median', (all[all.length >> 1] * 1000).toFixed(0).padStart(4), 'µs', k); }
await storage.close();
