// Where a create's time goes on SQLite, in context: the time inside better-sqlite3's run, all
// and get calls (wall time of the native calls, per statement text) against the CPU of whole
// creates through the calendar, on a copy of a seeded file; three rounds of N creates after
// 300 warm-up ones (the first round still pays for JIT and the freshly packed pages the seed
// leaves, which split on their first insert).
//   node bench/sqlite/create-native.mjs <seeded file, e.g. bench/.cache/sqlite-…-n10000.db> [n events of the file]
//   N=<creates a round>; WARMUP=<creates before the rounds> (default 300); CKPT=<wal_autocheckpoint pages> (default 0: no checkpoints); TEMP=1: temp_store = memory
//   on the whole connection; CACHE=<cache_size>; MMAP=<mmap_size>
import { createCalendar } from '@evcal/core';
import { BENCH_NOW_MS, benchEvents } from '../lib/dataset.mjs';
import { openSqliteCopy } from '../lib/stores.mjs';

const [src, n = '10000'] = process.argv.slice(2);
let inNative = 0;
const perStatement = new Map();
const { storage, close } = await openSqliteCopy(src, 'create-native', (sqlite) => {
  sqlite.pragma(`wal_autocheckpoint = ${process.env.CKPT ?? 0}`);
  if (process.env.TEMP) sqlite.pragma('temp_store = memory');
  if (process.env.CACHE) sqlite.pragma(`cache_size = ${process.env.CACHE}`);
  if (process.env.MMAP) sqlite.pragma(`mmap_size = ${process.env.MMAP}`);
  // The time inside better-sqlite3's run, all and get, per statement text.
  const proto = Object.getPrototypeOf(sqlite.prepare('select 1'));
  for (const method of ['run', 'all', 'get']) {
    const original = proto[method];
    proto[method] = function (...args) {
      const t = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const ms = performance.now() - t;
        inNative += ms;
        const key = this.source.replace(/\s+/g, ' ').slice(0, 70);
        perStatement.set(key, (perStatement.get(key) ?? 0) + ms);
      }
    };
  }
});
const calendar = createCalendar({ storage, timezone: 'UTC', now: () => BENCH_NOW_MS });
const admin = { principal: { id: 1, role: 'administrator' } };
const newEvent = benchEvents(Number(n));
const N = Number(process.env.N ?? 2000);
let k = 0;
for (let i = 0; i < Number(process.env.WARMUP ?? 300); i++) await calendar.events.create(newEvent(k++), admin);
for (let round = 0; round < 3; round++) {
  inNative = 0;
  perStatement.clear();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await calendar.events.create(newEvent(k++), admin);
  const cpu = process.cpuUsage(cpu0);
  console.log(`CPU ${((cpu.user + cpu.system) / N).toFixed(0)} µs, wall ${((performance.now() - t0) * 1000 / N).toFixed(0)} µs, in better-sqlite3 ${(inNative * 1000 / N).toFixed(0)} µs a create`);
}
for (const [sql, ms] of [...perStatement].sort((a, b) => b[1] - a[1])) console.log(`${(ms * 1000 / N).toFixed(1).padStart(7)} µs  ${sql}`);
await close();
