#!/usr/bin/env node
// Runs the HTTP conformance suite (../shared/conformance) against the built `evcal serve` and
// compares the outcome with conformance/expected-failures.json: every scenario not listed
// there must pass, and every listed one must still fail (so the list only shrinks).
//
//   node scripts/conformance.mjs                 memory storage (or EVCAL_STORAGE=json|sqlite|postgres://…)
//   node scripts/conformance.mjs --all-storages  memory, json, sqlite, and PostgreSQL when
//                                                EVCAL_TEST_POSTGRES_URL is set: through
//                                                PgBouncer in transaction pooling mode when
//                                                EVCAL_TEST_PGBOUNCER_URL names one in front of
//                                                it (CI does: .ci/run), which a server reaching
//                                                PostgreSQL directly passes a fortiori
//   node scripts/conformance.mjs --through-replica  on a PostgreSQL primary and a streaming hot
//                                                standby of the run's own (initdb, pg_basebackup;
//                                                synchronous, remote_apply), every server reading
//                                                through the standby (--read-replica); the
//                                                standby's transactions are counted to show it served
//   node scripts/conformance.mjs --update        rewrite the list from this run (keeps notes)
//   node scripts/conformance.mjs cases/terms.test.mjs   only some files
//
// Each scenario starts its own `evcal serve`, so the suite's time is mostly server starts: keep
// what the CLI loads before it listens small (packages/cli/test/startup.test.ts; README,
// Development). About 80 s on memory on every Node since date-fns left the start path (Node 24
// took 473 s before).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSchemaSweep } from './test-schemas.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const suite = resolve(process.env.EVCAL_CONFORMANCE_DIR ?? join(root, '..', 'shared', 'conformance'));
const expectationsFile = join(root, 'conformance', 'expected-failures.json');
const cli = join(root, 'packages', 'cli', 'dist', 'cli.js');
const args = process.argv.slice(2);
const update = args.includes('--update');
const only = args.filter((a) => !a.startsWith('--'));

if (!existsSync(join(suite, 'cases'))) {
  const message = `conformance: suite not found at ${suite} (set EVCAL_CONFORMANCE_DIR)`;
  if (process.env.CI) {
    console.error(message);
    process.exit(1);
  }
  console.log(`NOTICE: ${message}; skipped.`);
  process.exit(0);
}
if (!existsSync(cli)) {
  console.error('conformance: packages/cli/dist/cli.js is missing; run `npm run build` first');
  process.exit(1);
}

const files = only.length
  ? only.map((f) => resolve(suite, f))
  : readdirSync(join(suite, 'cases')).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join(suite, 'cases', f));
const expected = existsSync(expectationsFile) ? JSON.parse(readFileSync(expectationsFile, 'utf8')) : {};
const postgres = process.env.EVCAL_TEST_PGBOUNCER_URL || process.env.EVCAL_TEST_POSTGRES_URL;
const storages = args.includes('--all-storages')
  ? ['memory', 'json', 'sqlite', ...(postgres ? [postgres] : [])]
  : [process.env.EVCAL_STORAGE ?? 'memory'];
if (args.includes('--all-storages') && !process.env.EVCAL_TEST_POSTGRES_URL) {
  console.log('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the conformance suite does not run on PostgreSQL.');
}
let ok = true;
if (args.includes('--through-replica')) {
  ok = await throughReplica();
  process.exit(ok ? 0 : 1);
}
for (const storage of storages) {
  // On PostgreSQL every server gets a fresh schema (conf_<hex>): dropped once the suite has run.
  const sweep = /^postgres(ql)?:\/\//.test(storage) ? await startSchemaSweep(storage) : null;
  ok = runSuite(storage) && ok;
  if (sweep) console.log(`conformance (${label(storage)}): dropped the ${await sweep()} schemas its servers created`);
}
process.exit(ok ? 0 : 1);

/**
 * The suite with every server on a primary of this run's own and reading through its standby
 * (packages/cli/test/support/pg-cluster.ts). The standby applies each commit before the
 * primary confirms it (`synchronous_commit = remote_apply`): scenarios write, then read
 * anonymously at once, with no position to send back (docs/operations.md, "Read replicas").
 */
async function throughReplica() {
  const { tsImport } = await import('tsx/esm/api');
  const { startPgCluster, startStandby } = await tsImport('../packages/cli/test/support/pg-cluster.ts', import.meta.url);
  const primary = await startPgCluster();
  let standby;
  try {
    standby = await startStandby(primary);
    primary.psql("ALTER SYSTEM SET synchronous_standby_names = '*'");
    primary.psql("ALTER SYSTEM SET synchronous_commit = 'remote_apply'");
    primary.psql('SELECT pg_reload_conf()');
    // Reads of events, counted by each server (the replicas' monitor reads other tables).
    const eventReads = (cluster) => Number(cluster.psql("SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0) FROM pg_stat_user_tables WHERE relname = 'evcal_events'"));
    const ok = runSuite(primary.url(), `--read-replica ${standby.url()}`);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // statistics are flushed within a second
    console.log(`conformance (through a replica): reads of evcal_events on the standby ${eventReads(standby)}, on the primary ${eventReads(primary)}`);
    return ok;
  } finally {
    standby?.remove();
    primary.remove();
  }
}

/** Runs the suite on one storage (`serveArgs`: more flags for every server); true when the outcome matches the expectations. */
function runSuite(storage, serveArgs = '') {
  const out = mkdtempSync(join(tmpdir(), 'evcal-conformance-'));
  const resultsFile = join(out, 'results.jsonl');
  const started = Date.now();
  const run = spawnSync(process.execPath, [
    '--test',
    `--test-concurrency=${Math.max(2, availableParallelism() * 2)}`,
    `--test-reporter=${join(root, 'scripts', 'conformance-reporter.mjs')}`,
    `--test-reporter-destination=${resultsFile}`,
    ...files,
  ], {
    cwd: suite,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, EVCAL_SERVE: `${process.execPath} ${cli} serve ${serveArgs}`.trim(), EVCAL_ROOT: root, EVCAL_STORAGE: storage },
  });
  const results = existsSync(resultsFile)
    ? readFileSync(resultsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    : [];
  rmSync(out, { recursive: true, force: true });
  if (results.length === 0) {
    console.error(`conformance (${label(storage)}): no results (node --test exited with ${run.status})`);
    return false;
  }

  const key = (r) => `${r.file} › ${r.name}`;
  const ran = new Set(results.map(key));
  const failed = results.filter((r) => !r.ok);
  const unexpectedFailures = failed.filter((r) => !(key(r) in expected));
  const nowPassing = results.filter((r) => r.ok && key(r) in expected);

  if (update) {
    const next = {};
    for (const r of failed) next[key(r)] = expected[key(r)] ?? { issue: null, why: r.error ?? '' };
    // Keep entries of files not run this time.
    for (const [k, v] of Object.entries(expected)) if (!ran.has(k)) next[k] = v;
    writeFileSync(expectationsFile, `${JSON.stringify(Object.fromEntries(Object.entries(next).sort()), null, 2)}\n`);
    console.log(`conformance: wrote ${Object.keys(next).length} expected failures to ${expectationsFile}`);
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nconformance (${label(storage)}): ${results.length} scenarios in ${seconds}s — ${results.length - failed.length} passed, `
    + `${failed.length} failed (${failed.length - unexpectedFailures.length} expected)`);
  for (const r of unexpectedFailures) console.log(`  UNEXPECTED FAILURE  ${key(r)}\n      ${(r.error ?? '').replace(/\n/g, '\n      ')}`);
  for (const r of nowPassing) console.log(`  NOW PASSING (remove from conformance/expected-failures.json)  ${key(r)}`);
  return update || (unexpectedFailures.length === 0 && nowPassing.length === 0);
}

/** The storage for messages, without a password. */
function label(storage) {
  const pooled = storage === process.env.EVCAL_TEST_PGBOUNCER_URL ? ' through PgBouncer' : '';
  return storage.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@') + pooled;
}
