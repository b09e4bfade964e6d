// The in-process list targets on an already seeded PostgreSQL schema (a 1M seed takes about half an
// hour; `bench/inprocess.mjs --storage postgres` seeds a fresh one each run): migrates it to this
// build, then times each list 25 times on a calendar with every cache off, as inprocess.mjs does.
//   node bench/pg-lists.mjs <schema>   (EVCAL_BENCH_POSTGRES_URL as for the other benchmarks)
import { createCalendar } from '@evcal/core';
import { createSqlStorage, migrate } from '@evcal/sql';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { BENCH_NOW_MS, benchParams } from './lib/dataset.mjs';
const URL = process.env.EVCAL_BENCH_POSTGRES_URL ?? 'postgres://evcal:evcal@127.0.0.1:5432/evcal_ci';
const schema = process.argv[2];
const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: URL, max: 4 }) }) });
const t0 = performance.now();
console.log('migrations run:', await migrate(db, { schema }), `${((performance.now() - t0) / 1000).toFixed(1)} s`);
const storage = createSqlStorage({ db, dialect: 'postgres', schema });
const cold = createCalendar({ storage, timezone: 'UTC', now: () => BENCH_NOW_MS, renderCache: 0 });
const p = benchParams(1_000_000);
const ops = {
  'list-default': {}, 'list-category': { categories: p.category }, 'list-week-category': { ...p.week, categories: p.category }, 'list-search': { search: p.search },
};
for (const [name, input] of Object.entries(ops)) {
  const times = [];
  let total;
  for (let i = 0; i < 25; i++) { const t = performance.now(); total = (await cold.events.list(input)).total; times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(name.padEnd(20), 'p50', times[12].toFixed(2), 'ms  p90', times[22].toFixed(2), 'ms  total', total);
}
await storage.close?.();
await db.destroy();
