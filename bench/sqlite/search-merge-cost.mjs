// Cost of merging pending rows into the FTS index, per event, by batch size; and the search plan.
// Usage: node bench/sqlite/search-merge-cost.mjs <seeded file> [batch sizes, e.g. 1,16,128,512,2000]
import { loadBetterSqlite3 } from '@evcal/sql';
import { copyFileSync, rmSync } from 'node:fs';
const Database = await loadBetterSqlite3();
const src = process.argv[2]; const sizes = (process.argv[3] ?? '1,16,128,512,2000').split(',').map(Number);
const f = '/tmp/merge-cost.db'; for (const x of [f, f + '-wal', f + '-shm']) rmSync(x, { force: true });
copyFileSync(src, f);
const db = new Database(f); db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL');
const row = db.prepare('select * from evcal_events where id = (select max(id) from evcal_events)').get();
const cols = Object.keys(row);
const ins = db.prepare(`insert into evcal_events (${cols.join(',')}) values (${cols.map(() => '?').join(',')})`);
let id = row.id + 1000;
const range = db.prepare('select max(event_id) as last from (select event_id from evcal_search_pending order by event_id limit 100000)');
const unindex = db.prepare(`insert into evcal_events_search (evcal_events_search, rowid, search_text) select 'delete', event_id, indexed_text from evcal_search_pending where event_id <= ? and indexed_text is not null`);
const index = db.prepare(`insert into evcal_events_search (rowid, search_text) select e.id, e.search_text from evcal_search_pending p join evcal_events e on e.id = p.event_id where p.event_id <= ?`);
const done = db.prepare('delete from evcal_search_pending where event_id <= ?');
const merge = db.transaction(() => {
  const { last } = range.get();
  unindex.run(last);
  index.run(last);
  done.run(last);
});
for (const size of sizes) {
  let cpuTotal = 0, wallTotal = 0, n = 0;
  for (let round = 0; round < Math.max(1, Math.floor(4000 / size)); round++) {
    db.transaction(() => { for (let i = 0; i < size; i++) { id++; ins.run(...cols.map((c) => c === 'id' ? id : c === 'slug' ? `${row.slug}-${id}` : c === 'search_text' ? `${row.search_text} w${id}` : row[c])); } })();
    const c = process.cpuUsage(); const t = performance.now();
    merge();
    const cpu = process.cpuUsage(c); wallTotal += performance.now() - t; cpuTotal += cpu.user + cpu.system; n += size;
  }
  console.log(`batch ${String(size).padStart(5)}: merge cpu ${(cpuTotal / n).toFixed(0)} µs, wall ${(wallTotal * 1000 / n).toFixed(0)} µs per event`);
}
db.prepare("insert into evcal_events_search(evcal_events_search) values('integrity-check')").run();
console.log('integrity-check passed');
