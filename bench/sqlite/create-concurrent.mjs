// Creates per second in process with C concurrent callers (on SQLite they share transactions: group commit), and the CPU per create.
//   node bench/sqlite/create-concurrent.mjs <storage> <n> <callers> <seconds>
import { createCalendar } from '@evcal/core';
import { BENCH_NOW_MS, benchEvents } from '../lib/dataset.mjs';
import { OPENERS } from '../lib/stores.mjs';
const [storageName, n, callers, seconds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5] ?? 3)];
const opened = await OPENERS[storageName](n, () => {});
const calendar = createCalendar({ storage: opened.storage, timezone: 'UTC', now: () => BENCH_NOW_MS });
const admin = { principal: { id: 1, role: 'administrator' } };
let created = 0;
const newEvent = benchEvents(n);
for (let i = 0; i < 200; i++) await calendar.events.create(newEvent(created++), admin);

const end = performance.now() + seconds * 1000;
const c0 = process.cpuUsage(); const t0 = performance.now(); let done = 0;
await Promise.all(Array.from({ length: callers }, async () => {
  while (performance.now() < end) { await calendar.events.create(newEvent(created++), admin); done++; }
}));
const cpu = process.cpuUsage(c0); const wall = performance.now() - t0;

console.log(`${storageName} ${n}: ${callers} callers, ${(done / wall * 1000).toFixed(0)} creates/s, CPU ${((cpu.user + cpu.system) / done / 1000).toFixed(3)} ms a create`);
await opened.close();
