// Growing on PostgreSQL (issue 35; docs/performance.md, "Growing on PostgreSQL (issue 35)"),
// on a primary and a streaming hot standby of this run's own (initdb,
// pg_basebackup; fsync on, as a database is run), measured with autocannon:
//   - creates: POST /events through evcal serve (10 connections) against a bare node:http
//     server doing one INSERT … RETURNING of a row as wide over a pool of the same size;
//   - two servers: one server's creates alone, then while a second one writes on the same
//     calendar, and while an equal one writes on another calendar of the same database (the
//     control: the same CPU taken, no rows shared), alternated twice, with the backends waiting
//     for a lock sampled all along; and both at full load against one;
//   - an import: the creates sent while `evcal import` of N events runs (their p99 and worst);
//   - reads with a replica: anonymous lists and single reads on two servers with one healthy
//     replica, the calendar's reads counted on each database (pg_stat_statements); then with
//     the replica paused past --replica-max-lag (reads fresh, from the primary).
//   node bench/pg-scale.mjs [--quick] [--only writers] [--out result.json]
// --only writers: the creates against the baseline and the two servers only (no standby, no
// import, no replica reads): the writers' targets in about 2 minutes.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { BENCH_NOW, benchEvents, generateDataset } from './lib/dataset.mjs';
import { cpuMicros, start, stop } from './lib/processes.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '..', 'packages', 'cli', 'dist', 'cli.js');
const TOKEN = 'bench-admin-token';
const API = '/cal/events/v1';
const { values: opts } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' }, out: { type: 'string' } } });
if (opts.only !== undefined && opts.only !== 'writers') throw new Error(`--only: writers, not ${opts.only}`);
const everything = opts.only === undefined;
const PLAN = opts.quick
  ? { seed: 300, seconds: 2, importEvents: 2_000, maxLag: 1 }
  : { seed: 2_000, seconds: 10, importEvents: 50_000, maxLag: 1 };
const log = (m) => process.stderr.write(`[pg-scale] ${m}\n`);
const scratch = mkdtempSync(join(tmpdir(), 'evcal-bench-scale-'));
const { startPgCluster, startStandby } = await tsImport('../packages/cli/test/support/pg-cluster.ts', import.meta.url);

const results = { plan: PLAN, loadavgAtStart: loadavg() };
const children = [];
const primary = await startPgCluster({ settings: { fsync: 'on', full_page_writes: 'on', shared_preload_libraries: "'pg_stat_statements'", max_connections: 200 } });
let standby;
try {
  primary.psql('CREATE EXTENSION pg_stat_statements');
  if (everything) standby = await startStandby(primary, { settings: { shared_preload_libraries: "'pg_stat_statements'" } });
  const cal = `${primary.url()}?schema=cal`;
  const seedFile = join(scratch, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(generateDataset(PLAN.seed)));
  await run(['import', seedFile, '--storage', cal]);
  await standby?.caughtUp();
  const payload = benchEvents(PLAN.seed);
  let serial = 0;
  /** A create of an event of the dataset of `events` (its venues, organizers and terms: their ids differ between sizes). */
  const creating = (events) => {
    const next = benchEvents(events);
    return { method: 'POST', path: `${API}/events`, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, setupRequest: (req) => ({ ...req, body: JSON.stringify(next(serial++)) }) };
  };
  const create = creating(PLAN.seed);

  // ---- creates against the INSERT baseline ----
  {
    const evcal = await serve(cal);
    const baseline = await track(start([join(HERE, 'lib', 'pg-insert-server.mjs'), primary.url(), 'cal'], /listening (\d+)/));
    const baseOrigin = `http://127.0.0.1:${baseline.match[1]}`;
    await cannon(baseOrigin, [create], 10, Math.min(2, PLAN.seconds));
    await cannon(evcal.origin, [create], 10, Math.min(2, PLAN.seconds));
    const base = await measured(baseline.child, () => cannon(baseOrigin, [create], 10, PLAN.seconds));
    const app = await measured(evcal.child, () => cannon(evcal.origin, [create], 10, PLAN.seconds));
    results.creates = { evcal: app, baseline: base, ratio: app.requestsPerSec / base.requestsPerSec, loadavg: loadavg() };
    log(`creates: evcal ${app.requestsPerSec.toFixed(0)}/s (p99 ${app.latencyP99} ms), INSERT baseline ${base.requestsPerSec.toFixed(0)}/s: ${(100 * results.creates.ratio).toFixed(1)}%`);
    await stop(baseline.child);

    // ---- two servers ----
    // A second server writes beside the first: on the same calendar, and, as the control, on a
    // calendar of its own in the same database (the same dataset in another schema). Both take
    // the same CPU from the first; only the first shares rows and locks with it. On a machine
    // without cores to spare, the control is what "unchanged" is measured against.
    const second = await serve(cal);
    const elsewhere = `${primary.url()}?schema=cal_control`;
    await run(['import', seedFile, '--storage', elsewhere]);
    const control = await serve(elsewhere);
    // Warmed as the first was (its first requests are compiled while they hold their rows).
    await Promise.all([cannon(second.origin, [create], 2, Math.min(2, PLAN.seconds)), cannon(control.origin, [create], 2, Math.min(2, PLAN.seconds))]);
    const alone = await withLockWaits(() => cannon(evcal.origin, [create], 10, PLAN.seconds));
    const besideTwice = [];
    const controlTwice = [];
    // Alternated, twice: the machine's load drifts over a run.
    for (let round = 0; round < 2; round++) {
      controlTwice.push(await withLockWaits(() => Promise.all([cannon(evcal.origin, [create], 10, PLAN.seconds), cannon(control.origin, [create], 2, PLAN.seconds)])));
      besideTwice.push(await withLockWaits(() => Promise.all([cannon(evcal.origin, [create], 10, PLAN.seconds), cannon(second.origin, [create], 2, PLAN.seconds)])));
    }
    const [one, two] = await Promise.all([cannon(evcal.origin, [create], 10, PLAN.seconds), cannon(second.origin, [create], 10, PLAN.seconds)]);
    const besideRun = (b) => ({ ...b.result[0], other: b.result[1], lockWaits: b.waits });
    results.twoServers = {
      alone: { ...alone.result, lockWaits: alone.waits },
      whileOtherWrites: besideRun(besideTwice[0]),
      whileOtherWritesAgain: besideRun(besideTwice[1]),
      whileControlWrites: besideRun(controlTwice[0]),
      whileControlWritesAgain: besideRun(controlTwice[1]),
      bothFull: { first: one, second: two, total: one.requestsPerSec + two.requestsPerSec, overOne: (one.requestsPerSec + two.requestsPerSec) / alone.result.requestsPerSec },
      loadavg: loadavg(),
    };
    const p99s = (runs) => runs.map((b) => `${b.result[0].requestsPerSec.toFixed(0)}/s p99 ${b.result[0].latencyP99} ms (lock waits in ${pct(b.waits)})`).join(', ');
    log(`two servers: one alone ${alone.result.requestsPerSec.toFixed(0)}/s p99 ${alone.result.latencyP99} ms (lock waits in ${pct(alone.waits)} of samples); `
      + `while another calendar's server writes ${p99s(controlTwice)}; while the other writes ${p99s(besideTwice)}; `
      + `both at full load ${results.twoServers.bothFull.total.toFixed(0)}/s = ${results.twoServers.bothFull.overOne.toFixed(2)}x one`);
    await Promise.all([stop(evcal.child), stop(second.child), stop(control.child)]);
  }

  // ---- creates while an import runs ----
  if (everything) {
    const imp = `${primary.url()}?schema=imp`;
    const evcal = await serve(imp);
    const file = join(scratch, 'import.json');
    writeFileSync(file, JSON.stringify(generateDataset(PLAN.importEvents)));
    const t0 = performance.now();
    const importing = run(['import', file, '--storage', imp]);
    // Creates from the import's first commit on (it moves the id sequences past the dataset's ids).
    while (Number(primary.psql("SELECT count(*) FROM imp.evcal_events")) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const load = autocannon({ url: evcal.origin, connections: 2, pipelining: 1, duration: 3600, requests: [creating(PLAN.importEvents)] });
    await importing;
    const importSeconds = (performance.now() - t0) / 1000;
    load.stop();
    const during = summary(await load);
    results.duringImport = { events: PLAN.importEvents, importSeconds, creates: during, loadavg: loadavg() };
    log(`creates during an import of ${PLAN.importEvents} events (${importSeconds.toFixed(1)} s): ${during.requests} creates (${during.non2xx} not 2xx${during.non2xx ? `: ${JSON.stringify(during.refused)}` : ''}), p99 ${during.latencyP99} ms, worst ${during.latencyMax} ms`);
    await stop(evcal.child);
  }

  // ---- reads with a replica ----
  if (everything) {
    await standby.caughtUp();
    const replicaArgs = ['--read-replica', standby.url(), '--replica-max-lag', String(PLAN.maxLag)];
    const [a, b] = [await serve(cal, replicaArgs), await serve(cal, replicaArgs)];
    await replicaInUse(a);
    await replicaInUse(b);
    const rows = (await (await fetch(`${a.origin}${API}/events?per_page=20`)).json()).events;
    const reads = [{ method: 'GET', path: `${API}/events?per_page=10` }, ...rows.slice(0, 9).map((e) => ({ method: 'GET', path: `${API}/events/${e.id}` }))];
    const readLoad = () => Promise.all([a, b].map((s) => cannon(s.origin, reads, 5, PLAN.seconds)));
    const healthy = await counted(readLoad);
    results.replicaHealthy = healthy;
    log(`reads with a healthy replica: ${healthy.requests} requests; calendar reads on the primary ${healthy.primaryReads}, on the replica ${healthy.replicaReads}`);

    standby.pauseReplay();
    try {
      const written = await fetch(`${a.origin}${API}/events`, { method: 'POST', headers: create.headers, body: JSON.stringify(payload(serial++)) });
      const id = (await written.json()).id;
      // Past the lag allowed on both servers.
      await new Promise((resolve) => setTimeout(resolve, PLAN.maxLag * 1000 + 2_500));
      const paused = await counted(readLoad);
      const fresh = await Promise.all([a, b].map(async (s) => (await fetch(`${s.origin}${API}/events/${id}`)).status));
      results.replicaPaused = { ...paused, newEventStatus: fresh };
      log(`reads with the replica paused past the lag: ${paused.requests} requests; calendar reads on the primary ${paused.primaryReads}, on the replica ${paused.replicaReads}; the new event: ${fresh.join(', ')}`);
    } finally {
      standby.resumeReplay();
    }
    await Promise.all([stop(a.child), stop(b.child)]);
  }
} finally {
  for (const child of children) await stop(child);
  standby?.remove();
  primary.remove();
  rmSync(scratch, { recursive: true, force: true });
}
results.loadavgAtEnd = loadavg();
if (opts.out) writeFileSync(opts.out, JSON.stringify(results, null, 2));
else console.log(JSON.stringify(results, null, 2));

// ---- helpers ----

/** Starts evcal serve on `storage`; resolves with its origin once it listens. */
async function serve(storage, extra = []) {
  const started = await track(start([CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--storage', storage, '--now', BENCH_NOW,
    '--user', `1:administrator:${TOKEN}`, '--log-level', 'warn', ...extra], /evcal listening on (http:\/\/[^\s"]+)/));
  return { child: started.child, origin: started.match[1] };
}

async function track(started) {
  const s = await started;
  children.push(s.child);
  return s;
}

/** Runs an evcal command to its end. */
function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`evcal ${args[0]} exited with ${code}: ${err}`))));
  });
}

function cannon(origin, requests, connections, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url: origin, connections, pipelining: 1, duration: seconds, requests }, (err, r) => (err ? reject(err) : resolve(summary(r))));
  });
}

function summary(r) {
  return {
    requestsPerSec: r.requests.average, latencyP50: r.latency.p50, latencyP99: r.latency.p99, latencyMax: r.latency.max,
    requests: r.requests.total, non2xx: r.non2xx, errors: r.errors,
    // Which statuses the answers that were not 2xx had (`{ "503": 8 }`): a count alone does not say why.
    refused: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2')).map(([code, s]) => [code, s.count])),
  };
}

/** A load run's summary, with the CPU the server spent per request. */
async function measured(child, load) {
  const before = cpuMicros(child.pid);
  const r = await load();
  return { ...r, cpuPerRequestUs: (cpuMicros(child.pid) - before) / Math.max(1, r.requests) };
}

/** Runs `load` while sampling, every 20 ms, the evcal backends waiting for a lock: its result, the share of samples with one or more, and what they were running. */
async function withLockWaits(load) {
  let stopped = false;
  let samples = 0;
  let waiting = 0;
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: primary.url() });
  await client.connect();
  // What the waiting backends run (the statement's start, its table): where writers still queue.
  const statements = {};
  const sampler = (async () => {
    while (!stopped) {
      const { rows } = await client.query("SELECT wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS q FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = 'postgres'");
      samples += 1;
      if (rows.length > 0) waiting += 1;
      for (const r of rows) {
        const key = `${r.wait_event}: ${r.q}`;
        statements[key] = (statements[key] ?? 0) + 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const result = await load();
  stopped = true;
  await sampler;
  await client.end();
  return { result, waits: { samples, withWaiters: waiting, share: waiting / Math.max(1, samples), statements } };
}

function pct(w) {
  return w ? `${(100 * w.share).toFixed(1)}%` : '—';
}

/** The calendar's reads (SELECTs of its tables, not the replica monitor's) on a cluster since the last reset. */
/** Where the calendar's reads are among a cluster's statements. */
function calendarReadsFrom() {
  return `FROM pg_stat_statements WHERE query ~* '^\\s*select' AND query ~ 'evcal_(events|event_links|venues|organizers|terms|term_counts|event_days|changes)'`;
}

function calendarReads(cluster) {
  return Number(cluster.psql(`SELECT coalesce(sum(calls), 0) ${calendarReadsFrom()}`));
}

/** Those reads, each statement's calls and its first 160 characters (what reached a database it should not have). */
function calendarStatements(cluster) {
  return cluster.psql(`SELECT calls || ' ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 160) ${calendarReadsFrom()} ORDER BY calls DESC LIMIT 5`).split('\n').filter(Boolean);
}

/** Runs a read load with pg_stat_statements reset before on both databases; the requests and each database's calendar reads. */
async function counted(load) {
  primary.psql('SELECT pg_stat_statements_reset()');
  standby.psql('SELECT pg_stat_statements_reset()');
  const runs = await load();
  return {
    requests: runs.reduce((n, r) => n + r.requests, 0), non2xx: runs.reduce((n, r) => n + r.non2xx, 0), runs,
    primaryReads: calendarReads(primary), replicaReads: calendarReads(standby), primaryStatements: calendarStatements(primary),
  };
}

/** Waits until a server's last look at its replica found it in use (/readyz). */
async function replicaInUse(server) {
  for (let i = 0; i < 300; i++) {
    const ready = await (await fetch(`${server.origin}/readyz`)).json();
    if (ready.replicas?.[0]?.up && ready.replicas[0].lag_ms !== null && ready.replicas[0].lag_ms < PLAN.maxLag * 1000) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the replica never came into use');
}
