// How fast a create from one caller could be on SQLite if the file maintained less: creates
// through the calendar on a copy of a seeded file as shipped, and on copies without what the
// lists at 1M need (the secondary indexes of events and links, the count and day-count triggers,
// the search-pending triggers), against the memory storage's create on the same calendar (core's
// own work, no SQL).
// The copies without are not usable calendars (their counts go stale); they bound what
// dropping them could buy.
//   node bench/sqlite/create-floor.mjs <seeded file, e.g. bench/.cache/sqlite-…-n10000.db> [n events of the file]
//   N=<creates a round> (default 2000); three rounds after 300 warm-up creates, checkpoints off.
import { createCalendar } from '@evcal/core';
import { BENCH_NOW_MS, benchEvents } from '../lib/dataset.mjs';
import { percentile } from '../lib/measure.mjs';
import { openMemory, openSqliteCopy } from '../lib/stores.mjs';

const [src, n = '10000'] = process.argv.slice(2);
const N = Number(process.env.N ?? 2000);
const admin = { principal: { id: 1, role: 'administrator' } };

/** Drops what `variant` leaves out of a freshly copied file. */
function strip(sqlite, variant) {
  if (variant === 'shipped') return;
  const objects = sqlite.prepare("select type, name, tbl_name from sqlite_master where type in ('index', 'trigger') and sql is not null").all();
  for (const o of objects) {
    const onEvents = o.tbl_name === 'evcal_events' || o.tbl_name === 'evcal_event_links';
    // The slug index stays: a create's slug check reads it.
    if (o.type === 'index' && onEvents && variant === 'no-indexes' && o.name !== 'evcal_events_slug') sqlite.exec(`drop index "${o.name}"`);
    if (o.type === 'trigger' && onEvents && variant === 'no-triggers') sqlite.exec(`drop trigger "${o.name}"`);
    if (variant === 'neither' && onEvents && o.name !== 'evcal_events_slug') sqlite.exec(`drop ${o.type} "${o.name}"`);
  }
}

async function measure(label, storage) {
  const calendar = createCalendar({ storage, timezone: 'UTC', now: () => BENCH_NOW_MS });
  const newEvent = benchEvents(Number(n));
  let k = 0;
  for (let i = 0; i < 300; i++) await calendar.events.create(newEvent(k++), admin);
  for (let round = 0; round < 3; round++) {
    const times = [];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const t = performance.now();
      await calendar.events.create(newEvent(k++), admin);
      times.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpu0);
    const wall = (performance.now() - t0) / N;
    console.log(`${label.padEnd(12)} p50 ${percentile(times.sort((a, b) => a - b), 50).toFixed(3)} ms  mean ${wall.toFixed(3)} ms (${(1000 / wall).toFixed(0)}/s)  CPU ${((cpu.user + cpu.system) / N / 1000).toFixed(3)} ms a create`);
  }
}

const variant = process.env.VARIANT;
for (const v of variant ? [variant] : ['shipped', 'no-indexes', 'no-triggers', 'neither', 'memory']) {
  if (v === 'memory') {
    const { storage, close } = await openMemory(Number(n), () => {});
    await measure(v, storage);
    await close?.();
    continue;
  }
  const { storage, close } = await openSqliteCopy(src, `create-floor-${v}`, (sqlite) => {
    sqlite.pragma('wal_autocheckpoint = 0');
    strip(sqlite, v);
  });
  await measure(v, storage);
  await close();
}
