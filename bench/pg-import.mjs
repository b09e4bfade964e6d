// `evcal import` of the benchmark's dataset into a fresh PostgreSQL schema, at each size given:
// the seconds it takes (does it grow with the events, or faster?), and, in process, the
// statements an import runs per event, by shape (round trips are most of an event's cost).
//   node bench/pg-import.mjs 5000 50000        (EVCAL_BENCH_POSTGRES_URL as for the other benchmarks)
//   node bench/pg-import.mjs --statements 1000
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createCalendar } from '@evcal/core';
import { createSqlStorage, migrate } from '@evcal/sql';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { generateDataset } from './lib/dataset.mjs';
import { PG_URL } from './lib/stores.mjs';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'cli', 'dist', 'cli.js');
const { values, positionals } = parseArgs({ options: { statements: { type: 'boolean' } }, allowPositionals: true });
const sizes = positionals.map(Number);
if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n <= 0)) {
  console.error('usage: node bench/pg-import.mjs [--statements] <events>…');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'evcal-pg-import-'));
const freshSchema = () => `bench_import_${Math.random().toString(36).slice(2, 10)}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
try {
  for (const n of sizes) {
    const dataset = generateDataset(n);
    const schema = freshSchema();
    try {
      if (values.statements) await statements(dataset, schema);
      else {
        const file = join(dir, `dataset-${n}.json`);
        writeFileSync(file, JSON.stringify(dataset));
        const t0 = performance.now();
        const run = spawnSync(process.execPath, [CLI, 'import', file, '--storage', `${PG_URL}?schema=${schema}`], { encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`evcal import: ${run.stderr}`);
        const seconds = (performance.now() - t0) / 1000;
        console.log(`${n} events: ${seconds.toFixed(1)} s, ${(seconds * 1e6 / n).toFixed(0)} µs an event`);
      }
    } finally {
      await admin.query(`drop schema if exists ${schema} cascade`);
    }
  }
} finally {
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
}

/** The import in this process, every statement it runs logged. */
async function statements(dataset, schema) {
  const queries = [];
  const db = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: PG_URL, max: 2 }) }),
    log: (e) => { if (e.level === 'query') queries.push(e.query.sql); },
  });
  try {
    await migrate(db, { schema });
    queries.length = 0;
    await createCalendar({ storage: createSqlStorage({ db, dialect: 'postgres', schema }) }).importDataset(dataset);
  } finally {
    await db.destroy();
  }
  const n = dataset.events.length;
  console.log(`${n} events: ${queries.length} statements, ${(queries.length / n).toFixed(2)} an event`);
  const shapes = new Map();
  for (const q of queries) {
    const shape = q.replaceAll(`"${schema}".`, '').replace(/\$\d+/g, '?').replace(/\(\?(, \?)*\)/g, '(…)').slice(0, 100);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  for (const [shape, count] of [...shapes].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${String(count).padStart(8)}  ${shape}`);
}
