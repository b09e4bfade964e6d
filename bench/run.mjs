// `npm run bench` / `npm run bench:quick`: every benchmark, each in its own process, results in
// bench/results/<mode>.json and a summary on stdout. Benchmarks measure; nothing here asserts a
// timing. The quick mode (small N, short runs) checks that every benchmark still runs: it exits
// non-zero only when one crashes.
//
//   node bench/run.mjs [--quick] [--only inprocess,http,memory,year,scale] [--storages memory,sqlite,…]
//                      [--sizes 10000,100000] [--keep-going] [--merge]
//
// --merge keeps the results of an earlier run in the same results file and replaces only what
// this run measured (e.g. `--storages sqlite,postgres --merge` after changing the SQL adapter).
// The summary is also written next to the JSON as <mode>.md; `node bench/plot.mjs` draws it.
//
// PostgreSQL: EVCAL_BENCH_POSTGRES_URL (default postgres://evcal:evcal@127.0.0.1:5432/evcal);
// when it cannot be reached its benchmarks are skipped with a notice. Each PostgreSQL run uses
// a fresh schema bench_<random>, dropped afterwards. `scale` (pg-scale.mjs: parallel writers,
// imports, read replicas) starts a PostgreSQL primary and standby of its own with the machine's
// server binaries (initdb), skipped with a notice without them.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { fmtMs } from './lib/measure.mjs';
import { PG_URL } from './lib/stores.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    storages: { type: 'string' },
    sizes: { type: 'string' },
    'keep-going': { type: 'boolean', default: false },
    merge: { type: 'boolean', default: false },
  },
});
const quick = opts.quick;
const only = new Set((opts.only ?? 'inprocess,http,memory,year,scale').split(','));
const mode = quick ? 'quick' : 'full';

/**
 * What runs. In-process: memory and file-json at 10k and 100k, SQL also at 1M. HTTP: every
 * storage at 10k, memory, SQLite and PostgreSQL also at 100k. Memory: the memory adapter at 100k.
 */
const PLAN = quick
  ? {
    inprocess: [['memory', 1000], ['file-json', 1000], ['sqlite', 1000], ['postgres', 1000], ['sqlite', 3000], ['memory', 3000]],
    http: [['memory', 1000], ['file-json', 1000], ['sqlite', 1000], ['postgres', 1000]],
    memory: [3000],
    yearList: { storages: ['sqlite', 'postgres'], sizes: [500, 2000], requests: 5 },
    budgetMs: 150,
    httpSeconds: 1,
  }
  : {
    inprocess: [
      ['memory', 10_000], ['memory', 100_000], ['file-json', 10_000], ['file-json', 100_000],
      ['sqlite', 10_000], ['sqlite', 100_000], ['sqlite', 1_000_000],
      ['postgres', 10_000], ['postgres', 100_000], ['postgres', 1_000_000],
    ],
    http: [['memory', 10_000], ['file-json', 10_000], ['sqlite', 10_000], ['postgres', 10_000], ['memory', 100_000], ['sqlite', 100_000], ['postgres', 100_000]],
    memory: [100_000],
    yearList: { storages: ['sqlite', 'postgres'], sizes: [5_000, 50_000], requests: 40 },
    budgetMs: 3000,
    httpSeconds: 10,
  };
const STORAGE_ORDER = ['memory', 'file-json', 'sqlite', 'postgres'];
const byStorageThenSize = (a, b) => STORAGE_ORDER.indexOf(a.storage) - STORAGE_ORDER.indexOf(b.storage) || a.n - b.n;

const storages = opts.storages ? new Set(opts.storages.split(',')) : undefined;
const sizes = opts.sizes ? new Set(opts.sizes.split(',').map(Number)) : undefined;
const wanted = ([storage, n]) => (!storages || storages.has(storage)) && (!sizes || sizes.has(n));

const say = (m) => process.stdout.write(`${m}\n`);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

async function postgresReachable() {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch (error) {
    say(`notice: PostgreSQL at ${PG_URL.replace(/\/\/([^:]+):[^@]*@/, '//$1:***@')} is not reachable (${error.message}); its benchmarks are skipped.`);
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** Runs one benchmark script in its own process; resolves with its JSON result. */
function runScript(script, args, nodeFlags = []) {
  const out = join(HERE, 'results', `.part-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, join(HERE, script), ...args, '--out', out], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`${script} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
      try {
        resolve(JSON.parse(readFileSync(out, 'utf8')));
      } catch (error) {
        reject(error);
      } finally {
        rmSync(out, { force: true });
      }
    });
  });
}

mkdirSync(join(HERE, 'results'), { recursive: true });
const results = {
  mode,
  startedAt: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model, cores: cpus().length, memoryGB: +(totalmem() / 2 ** 30).toFixed(1),
    node: process.version, kernel: release(), loadavgAtStart: loadavg(),
  },
  inprocess: [],
  http: [],
  memory: [],
  yearList: [],
  scale: [],
  failures: [],
};
const pgOk = await postgresReachable();
const attempt = async (label, fn) => {
  say(`\n== ${label} (${elapsed()})`);
  try {
    await fn();
  } catch (error) {
    results.failures.push({ label, error: String(error?.message ?? error) });
    say(`FAILED: ${label}: ${error?.message ?? error}`);
    if (!opts['keep-going']) throw error;
  }
};
const skipPg = ([storage]) => storage === 'postgres' && !pgOk;

try {
  if (only.has('memory')) {
    for (const n of PLAN.memory) {
      if (sizes && !sizes.has(n)) continue;
      await attempt(`memory adapter resident size, ${n} events`, async () => {
        results.memory.push(await runScript('memory.mjs', ['--n', String(n)], ['--expose-gc']));
      });
    }
  }
  if (only.has('inprocess')) {
    for (const entry of PLAN.inprocess.filter(wanted)) {
      if (skipPg(entry)) continue;
      const [storage, n] = entry;
      await attempt(`in-process latency: ${storage}, ${n} events`, async () => {
        results.inprocess.push({ ...(await runScript('inprocess.mjs', ['--storage', storage, '--n', String(n), '--budget', String(PLAN.budgetMs)])), loadavg: loadavg() });
      });
    }
  }
  if (only.has('http')) {
    for (const entry of PLAN.http.filter(wanted)) {
      if (skipPg(entry)) continue;
      const [storage, n] = entry;
      await attempt(`HTTP through evcal serve (default logging, to a pipe read by another process) vs baseline: ${storage}, ${n} events`, async () => {
        const before = loadavg();
        results.http.push({ ...(await runScript('http.mjs', ['--storage', storage, '--n', String(n), '--duration', String(PLAN.httpSeconds)])), loadavgBefore: before, loadavg: loadavg() });
      });
    }
  }
  if (only.has('year')) {
    for (const storage of PLAN.yearList.storages) {
      if ((storage === 'postgres' && !pgOk) || (storages && !storages.has(storage))) continue;
      await attempt(`a window's list through evcal serve, freshly loaded (evcal import, --seed): ${storage}, ${PLAN.yearList.sizes.join(' and ')} events`, async () => {
        results.yearList.push(await runScript('year-list.mjs', ['--storage', storage, '--sizes', PLAN.yearList.sizes.join(','), '--requests', String(PLAN.yearList.requests)]));
      });
    }
  }
  if (only.has('scale')) {
    if (!postgresBinaries()) say('notice: no PostgreSQL server binaries (initdb): the benchmark of writers and replicas on PostgreSQL is skipped.');
    else {
      await attempt('PostgreSQL: parallel writers, an import beside creates, reads through a replica', async () => {
        results.scale.push({ ...(await runScript('pg-scale.mjs', quick ? ['--quick'] : [])), loadavg: loadavg() });
      });
    }
  }
} finally {
  results.finishedAt = new Date().toISOString();
  results.seconds = (performance.now() - started) / 1000;
  results.machine.loadavgAtEnd = loadavg();
  const file = join(HERE, 'results', `${mode}.json`);
  const final = opts.merge && existsSync(file) ? merged(JSON.parse(readFileSync(file, 'utf8')), results) : results;
  writeFileSync(file, JSON.stringify(final, null, 2));
  writeFileSync(file.replace(/\.json$/, '.md'), `${summary(final).trim()}\n`);
  say(`\nresults: ${file} (${elapsed()})`);
  say(summary(final));
}
if (results.failures.length) {
  say(`\n${results.failures.length} benchmark(s) crashed.`);
  process.exit(1);
}

/** An earlier run's results with this run's measurements in place of the ones they repeat. */
function merged(earlier, now) {
  const same = (a, b) => a.storage === b.storage && a.n === b.n;
  const combine = (old = [], fresh = []) => [...old.filter((x) => !fresh.some((y) => same(x, y))), ...fresh];
  return {
    ...now,
    startedAt: earlier.startedAt,
    runs: [...(earlier.runs ?? [{ startedAt: earlier.startedAt, finishedAt: earlier.finishedAt, machine: earlier.machine }]),
      { startedAt: now.startedAt, finishedAt: now.finishedAt, machine: now.machine }],
    inprocess: combine(earlier.inprocess, now.inprocess),
    http: combine(earlier.http, now.http),
    memory: [...(earlier.memory ?? []).filter((x) => !now.memory.some((y) => y.n === x.n)), ...now.memory],
    yearList: [...(earlier.yearList ?? []).filter((x) => !now.yearList.some((y) => y.storage === x.storage)), ...now.yearList],
    scale: now.scale.length ? now.scale : (earlier.scale ?? []),
    failures: [...(earlier.failures ?? []), ...now.failures],
  };
}

/** Whether this machine has PostgreSQL's server binaries (a cluster of the benchmark's own). */
function postgresBinaries() {
  const root = '/usr/lib/postgresql';
  return Boolean(process.env.EVCAL_TEST_POSTGRES_BIN) || (existsSync(root) && readdirSync(root).some((m) => existsSync(join(root, m, 'bin', 'initdb'))));
}

function summary(r) {
  const lines = [];
  r = { ...r, inprocess: [...r.inprocess].sort(byStorageThenSize), http: [...r.http].sort(byStorageThenSize) };
  if (r.inprocess.length) {
    const ops = ['list-default', 'list-week', 'list-category', 'list-week-category', 'list-search', 'read', 'create', 'update'];
    lines.push('', 'In-process latency, p50 / p99:', `| storage | events | ${ops.join(' | ')} |`, `|---|---:|${ops.map(() => '---:').join('|')}|`);
    for (const x of r.inprocess) {
      lines.push(`| ${x.storage} | ${x.n.toLocaleString('en')} | ${ops.map((o) => (x.results[o] ? `${fmtMs(x.results[o].p50)} / ${fmtMs(x.results[o].p99)}` : '—')).join(' | ')} |`);
    }
    const lists = ['list-default', 'list-week', 'list-category', 'list-week-category', 'list-search'];
    lines.push('', 'Lists p50, every cache off (cold) and asked again (cached); the 304 of the default list:',
      `| storage | events | ${lists.map((l) => `${l} cold / cached`).join(' | ')} | list-default-304 |`, `|---|---:|${lists.map(() => '---:').join('|')}|---:|`);
    for (const x of r.inprocess) {
      const pair = (l) => (x.results[l] ? `${fmtMs(x.results[l].p50)} / ${x.results[`${l}-cached`] ? fmtMs(x.results[`${l}-cached`].p50) : '—'}` : '—');
      lines.push(`| ${x.storage} | ${x.n.toLocaleString('en')} | ${lists.map(pair).join(' | ')} | ${x.results['list-default-304'] ? fmtMs(x.results['list-default-304'].p50) : '—'} |`);
    }
  }
  if (r.http.length) {
    lines.push('', 'HTTP through evcal serve with default logging (a line per request, to a pipe read by another process), requests/s (evcal / baseline = ratio; by CPU per request: baseline / evcal), evcal p50 / p99 latency; load average (1 min) before / after each storage and size:',
      '| storage | events | route | evcal req/s | baseline req/s | ratio | CPU ratio (evcal / baseline per request) | p50 | p99 |', '|---|---:|---|---:|---:|---:|---:|---:|---:|');
    for (const x of r.http) {
      const load = (l) => (l ? l[0].toFixed(1) : '?');
      lines.push(`| ${x.storage} | ${x.n.toLocaleString('en')} | *load ${load(x.loadavgBefore)} / ${load(x.loadavg)}* | | | | | | |`);
      for (const [route, v] of Object.entries(x.routes)) {
        const cpu = v.cpuRatio === undefined ? '—' : `${(100 * v.cpuRatio).toFixed(1)}% (${v.evcal.cpuPerRequestUs.toFixed(0)} / ${v.baseline.cpuPerRequestUs.toFixed(0)} µs)`;
        lines.push(`| ${x.storage} | ${x.n.toLocaleString('en')} | \`${route}\` | ${v.evcal.requestsPerSec.toFixed(0)} | ${v.baseline.requestsPerSec.toFixed(0)} | ${(100 * v.ratio).toFixed(1)}% | ${cpu} | ${v.evcal.latencyP50} ms | ${v.evcal.latencyP99} ms |`);
      }
    }
  }
  if (r.yearList?.length) {
    lines.push('', "A window's list through evcal serve right after a bulk load (`evcal import`, or `evcal serve --seed`), p50 of pages not asked before; `part`: a year of the two the calendar spans, `whole`: both:",
      '| storage | loaded by | window | sizes | p50 per size | growth |', '|---|---|---|---|---|---:|');
    for (const y of r.yearList) {
      for (const run of Object.values(y.runs ?? {})) {
        const sizes = Object.keys(run.sizes);
        const ratio = run.searchRatio ? ` (${Object.entries(run.searchRatio).map(([n, r]) => `${r.toFixed(1)}× the list without it at ${Number(n).toLocaleString('en')}`).join(', ')})` : '';
        lines.push(`| ${y.storage} | ${run.load === 'seed' ? '`--seed`' : '`evcal import`'} | ${run.window}${ratio} | ${sizes.map((n) => Number(n).toLocaleString('en')).join(' → ')} | ${sizes.map((n) => fmtMs(run.sizes[n].p50)).join(' → ')} | ${run.growth === undefined ? '—' : `${run.growth.toFixed(2)}×`} |`);
      }
    }
  }
  for (const x of r.scale ?? []) {
    const pct = (v) => `${(100 * v).toFixed(1)}%`;
    const t = x.twoServers;
    lines.push('', `PostgreSQL, writers and replicas (load ${x.loadavgAtStart.map((l) => l.toFixed(1)).join(' ')} at its start):`,
      `- POST /events, 10 connections: evcal ${x.creates.evcal.requestsPerSec.toFixed(0)}/s (p99 ${x.creates.evcal.latencyP99} ms), `
      + `INSERT … RETURNING baseline ${x.creates.baseline.requestsPerSec.toFixed(0)}/s: ${pct(x.creates.ratio)}`,
      `- one server's creates alone ${t.alone.requestsPerSec.toFixed(0)}/s, p99 ${t.alone.latencyP99} ms, lock waits in ${pct(t.alone.lockWaits.share)} of samples; `
      + `while a server of another calendar writes ${[t.whileControlWrites, t.whileControlWritesAgain].filter(Boolean).map((b) => `${b.requestsPerSec.toFixed(0)}/s, p99 ${b.latencyP99} ms`).join(' and ')}; `
      + `while a second of the same calendar writes ${[t.whileOtherWrites, t.whileOtherWritesAgain].filter(Boolean).map((b) => `${b.requestsPerSec.toFixed(0)}/s, p99 ${b.latencyP99} ms, lock waits in ${pct(b.lockWaits.share)}`).join(' and ')}; `
      + `two at full load ${t.bothFull.total.toFixed(0)}/s = ${t.bothFull.overOne.toFixed(2)}× one`,
      `- creates during \`evcal import\` of ${x.duringImport.events.toLocaleString('en')} events (${x.duringImport.importSeconds.toFixed(0)} s): `
      + `${x.duringImport.creates.requests} creates (${x.duringImport.creates.non2xx} not 2xx${x.duringImport.creates.non2xx ? `: ${JSON.stringify(x.duringImport.creates.refused)}` : ''}), p99 ${x.duringImport.creates.latencyP99} ms, worst ${x.duringImport.creates.latencyMax} ms`,
      `- anonymous reads on two servers, one healthy replica: ${x.replicaHealthy.requests} requests, calendar reads on the primary ${x.replicaHealthy.primaryReads}, on the replica ${x.replicaHealthy.replicaReads}`,
      `- the replica paused past the lag allowed: ${x.replicaPaused.requests} requests, on the primary ${x.replicaPaused.primaryReads}, on the replica ${x.replicaPaused.replicaReads}; `
      + `an event written after the pause: ${x.replicaPaused.newEventStatus.join(', ')}`);
  }
  for (const m of r.memory) {
    lines.push('', `Memory adapter, ${m.n.toLocaleString('en')} events: ${m.indexed.heapBytesPerEvent.toFixed(0)} B/event on the heap with its indexes, `
      + `${m.indexed.rssBytesPerEvent.toFixed(0)} B/event of RSS (process RSS ${m.indexed.rssMB.toFixed(0)} MB); after the first search `
      + `${m.searched.heapBytesPerEvent.toFixed(0)} / ${m.searched.rssBytesPerEvent.toFixed(0)} B/event.`);
  }
  return lines.join('\n');
}
