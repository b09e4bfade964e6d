// The benchmark's search page query on a seeded SQLite file, as compiled now (index + pending
// Usage: node bench/sqlite/search-forms.mjs <seeded file> <its number of events> [events pending]
// events) and in its earlier form (index only), timed on the same file with P events pending.
import { createCalendar } from '@evcal/core';
import { createSqlStorage, withStatementCache, loadBetterSqlite3 } from '@evcal/sql';
import { Kysely, SqliteDialect } from 'kysely';
import { copyFileSync, rmSync } from 'node:fs';
import { BENCH_NOW_MS, benchParams } from '../lib/dataset.mjs';
const Database = await loadBetterSqlite3();
const [src, n, pendingN] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4] ?? 0)];
const f = '/tmp/search-forms.db'; for (const x of [f, f + '-wal', f + '-shm']) rmSync(x, { force: true });
copyFileSync(src, f);
const sqlite = new Database(f); sqlite.pragma('journal_mode = WAL');
if (pendingN) sqlite.exec(`insert into evcal_search_pending (event_id, indexed_text) select id, search_text from evcal_events order by id desc limit ${pendingN}`);
const log = [];
const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log: (e) => log.push(e) });
const storage = createSqlStorage({ db, dialect: 'sqlite', searchMerge: { after: 1e9, quietMs: 2 ** 30 } });
const cal = createCalendar({ storage, timezone: 'UTC', now: () => BENCH_NOW_MS, renderCache: 0 });
await cal.events.list({ search: benchParams(n).search });
const page = log.find((e) => e.query.sql.includes('evcal_events_search'));
const now = page.query.sql;
const cut = now.indexOf(' and rowid not in (select event_id from evcal_search_pending)');
const last = 'instr(se.search_text, ?) > 0';
const before = now.slice(0, cut) + now.slice(now.lastIndexOf(last) + last.length);
const words = benchParams(n).search.split(' ').length;
const paramsNow = page.query.parameters;
// The instr parameters follow the MATCH parameter.
const mi = paramsNow.findIndex((p) => typeof p === 'string' && p.startsWith('"'));
const paramsBefore = [...paramsNow.slice(0, mi + 1), ...paramsNow.slice(mi + 1 + words)];
for (const [name, text, params] of [['before (index only)', before, paramsBefore], ['now (index + pending)', now, paramsNow]]) {
  const st = sqlite.prepare(text);
  const rows = st.all(...params);
  for (let i = 0; i < 3; i++) st.all(...params);
  const times = [];
  for (let i = 0; i < 15; i++) { const t = performance.now(); st.all(...params); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(name.padEnd(24), `${pendingN} pending:`, 'p50', times[7].toFixed(2), 'ms', 'min', times[0].toFixed(2), 'ms;', rows.length, 'rows, matches', rows[0]?.matches);
}
process.exit(0);
