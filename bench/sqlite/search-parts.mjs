// Where a search's time goes on a seeded SQLite file (migration 0014 applied): the FTS5 match
// alone, then the window's matches counted and paged with each match's list keys read from the
// events' rows (NOT INDEXED: by rowid) and from the index of them by id (evcal_events_match_keys).
// Usage: node bench/sqlite/search-parts.mjs <seeded file> [<its number of events>]
import { loadBetterSqlite3 } from '@evcal/sql';
import { benchParams } from '../lib/dataset.mjs';

const Database = await loadBetterSqlite3();
const [file, n = '1000000'] = process.argv.slice(2);
const sqlite = new Database(file, { readonly: true });
const words = benchParams(Number(n)).search.split(' ');
const match = words.map((w) => `"${w}"`).join(' AND ');
// The bounds the list sends at the benchmark's "now" (2030-07-01 12:00 UTC): events starting
// from the day before, ending within two years (the page statement's start_utc and end_utc).
const from = Date.UTC(2030, 5, 30);
const to = Date.UTC(2032, 6, 1, 23, 59, 59);
const where = `e.status = 'publish' and e.hide_from_listings = 0 and e.start_utc >= ${from} and e.end_utc <= ${to}
  and e.id in (select rowid from evcal_events_search where evcal_events_search match ?)`;
const page = 'order by e.start_local collate binary, e.id limit 10';
const forms = [
  ['FTS5 match alone', 'select count(*) as n from evcal_events_search where evcal_events_search match ?'],
  ['count, keys from the rows', `select count(*) as n from evcal_events e not indexed where ${where}`],
  ['count, keys from the index', `select count(*) as n from evcal_events e indexed by evcal_events_match_keys where e.id > 0 and ${where}`],
  ['page + total, from the rows', `select e.id, count(*) over () as n from evcal_events e not indexed where ${where} ${page}`],
  ['page + total, from the index', `select e.id, count(*) over () as n from evcal_events e indexed by evcal_events_match_keys where e.id > 0 and ${where} ${page}`],
];
for (const [name, text] of forms) {
  const st = sqlite.prepare(text);
  const rows = st.all(match);
  for (let i = 0; i < 3; i++) st.all(match);
  const times = [];
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    st.all(match);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(name.padEnd(30), 'p50', times[10].toFixed(2), 'ms  min', times[0].toFixed(2), 'ms  n', rows[0]?.n);
}
