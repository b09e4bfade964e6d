// HTTP throughput and latency through `evcal serve`, against a baseline node:http server that
// returns the same precomputed response bytes (lib/baseline-server.mjs), measured in the same
// run with autocannon:
//   node bench/http.mjs --storage memory|file-json|sqlite|postgres --n 10000 [--duration 10] [--routes a,b] [--log-level warn] [--out result.json]
// `evcal serve` runs as users run it: default logging (an access line per request at info) to
// its standard output, a pipe read by another process (lib/log-reader.mjs, as a supervisor
// reads it); `--log-level warn` measures the API without access lines.
// Routes: the shapes clients send. GET /events?per_page=10 (the default window), a month
// (`start_date`/`end_date`, as the calendar page asks), a week with a category, a year, a
// search, each of the default list and the month again with their ETag in If-None-Match
// (answered 304), GET /events/<id>, POST /events (an administrator's bearer token; every
// request a new title, so slugs never collide). Each server runs in its own process;
// autocannon runs in this one (10 connections, no pipelining).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeDataset } from '@evcal/core';
import { BENCH_NOW, benchParams, generateDataset, ids } from './lib/dataset.mjs';
import { loadSnapshot } from './lib/records.mjs';
import { postgresSchema, sqliteFile } from './lib/stores.mjs';
import { cpuMicros, mainThreadCpuMicros, start, stop } from './lib/processes.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '..', 'packages', 'cli', 'dist', 'cli.js');
const TOKEN = 'bench-admin-token';
const API = '/cal/events/v1';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string' }, n: { type: 'string' }, duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' }, out: { type: 'string' }, routes: { type: 'string' },
    // A directory: evcal serve runs with --cpu-prof there (the profile is written when it stops).
    profile: { type: 'string' },
    // `evcal serve --log-level`; by default none is given (info: a line per request).
    'log-level': { type: 'string' },
  },
});
const storageName = opts.storage;
const n = Number(opts.n);
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const log = (m) => process.stderr.write(`[http ${storageName} ${n}] ${m}\n`);
const scratch = mkdtempSync(join(tmpdir(), 'evcal-bench-http-'));
const cleanups = [() => rmSync(scratch, { recursive: true, force: true })];

/** The log reader (lib/log-reader.mjs): its stdin is where evcal serve writes its log. */
function startLogReader() {
  const reader = spawn(process.execPath, [join(HERE, 'lib', 'log-reader.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  reader.stdout.on('data', (d) => (out += d));
  const finished = new Promise((resolve) => reader.once('exit', () => {
    const m = /log-reader lines (\d+) bytes (\d+) cpu_us (\d+)/.exec(out);
    resolve(m ? { lines: Number(m[1]), bytes: Number(m[2]), cpuPerLineUs: Number(m[3]) / Math.max(1, Number(m[1])) } : undefined);
  }));
  return { reader, finished };
}

/** A run's main-thread CPU a request, user/system (`12.1/4.3 µs`). */
const mainThread = (run) => `${run.mainThreadPerRequestUs.user.toFixed(1)}/${run.mainThreadPerRequestUs.system.toFixed(1)} µs`;

/** A load run's summary, with the CPU the server process spent per request. */
async function measured(child, run) {
  const before = cpuMicros(child.pid);
  const mainBefore = mainThreadCpuMicros(child.pid);
  const r = summary(await run());
  const main = mainThreadCpuMicros(child.pid);
  const per = (us) => us / Math.max(1, r.requests);
  return {
    ...r, cpuPerRequestUs: per(cpuMicros(child.pid) - before),
    // The event loop's thread alone: what serving a request costs it, and its system calls apart.
    mainThreadPerRequestUs: { user: per(main.user - mainBefore.user), system: per(main.system - mainBefore.system) },
  };
}

// ---- the storage evcal serves ----
let storageUrl;
let summary;
const extraArgs = [];
const t0 = performance.now();
if (storageName === 'memory') {
  // The only way to fill `evcal serve --storage memory`: a dataset imported at start (--seed).
  const file = join(scratch, 'seed.json');
  writeFileSync(file, JSON.stringify(generateDataset(n)));
  storageUrl = 'memory';
  extraArgs.push('--seed', file);
} else if (storageName === 'file-json') {
  const file = join(scratch, 'evcal.json');
  writeFileSync(file, JSON.stringify(encodeDataset(await loadSnapshot(n, log))));
  storageUrl = `json:${file}`;
} else if (storageName === 'sqlite') {
  const { file, dispose } = await sqliteFile(n, log);
  cleanups.push(dispose);
  storageUrl = `sqlite:${file}`;
} else if (storageName === 'postgres') {
  const pgs = await postgresSchema(n, log);
  cleanups.push(pgs.drop);
  storageUrl = pgs.url;
} else throw new Error(`unknown storage ${storageName}`);

const results = { storage: storageName, n, duration, connections, logLevel: opts['log-level'] ?? 'info (default)', routes: {} };
let evcal;
let baseline;
let logs;
try {
  log(`starting evcal serve --storage ${storageName}${opts['log-level'] ? ` --log-level ${opts['log-level']}` : ' (default logging, to a pipe read by another process)'}`);
  logs = startLogReader();
  evcal = await start([...(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${opts.profile}`] : []), CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--storage', storageUrl, '--now', BENCH_NOW,
    // The dataset's authors are users 1…5.
    '--user', `1:administrator:${TOKEN}`, ...[2, 3, 4, 5].flatMap((id) => ['--user', `${id}:author:bench-author-${id}`]),
    ...(opts['log-level'] ? ['--log-level', opts['log-level']] : []), ...extraArgs], /evcal listening on (http:\/\/[^\s"]+)/, { stdout: logs.reader.stdin, watched: logs.reader.stdout });
  // The server holds the pipe's writing end now: the reader sees its end when the server stops.
  logs.reader.stdin.destroy();
  const origin = evcal.match[1];
  results.startMs = performance.now() - t0;
  log(`evcal ready at ${origin} (${(results.startMs / 1000).toFixed(1)} s including the dataset)`);

  // Record evcal's responses; the baseline serves these bytes.
  const record = async (method, path, body, headers = {}) => {
    const res = await fetch(`${origin}${path}`, {
      method, headers: { ...headers, ...(body ? { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } : {}) }, ...(body ? { body } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.status >= 300 && !(res.status === 304 && headers['if-none-match'])) throw new Error(`${method} ${path}: ${res.status} ${bytes.toString().slice(0, 300)}`);
    const kept = {};
    for (const [k, v] of res.headers) if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)) kept[k] = v;
    return { status: res.status, headers: kept, body: bytes };
  };
  const shape = ids(n);
  let serial = 0;
  const payload = (i) => JSON.stringify({
    title: `HTTP Benchmark Night ${process.pid} ${i}`,
    description: '<p>A benchmark event with a description of realistic length: live music, guests, food and drinks.</p>',
    start_date: '2031-03-14 20:00:00', end_date: '2031-03-14 23:00:00', timezone: 'Europe/Rome', status: 'publish', cost: '€15',
    categories: [1 + (i % shape.categories)], tags: [shape.firstTag + (i % 20)],
    venue: shape.firstVenue + (i % shape.venues), organizer: [shape.firstOrganizer + (i % shape.organizers)],
  });
  // The POST first: every write changes the lists' validators.
  const created = await record('POST', `${API}/events`, payload(serial++));
  const p = benchParams(n);
  const LISTS = {
    'GET /events?per_page=10': 'per_page=10',
    // The calendar page's month view asks for its month (dates as the page sends them).
    'GET /events month': 'per_page=10&start_date=2030-07-01&end_date=2030-07-31',
    'GET /events week + category': `per_page=10&start_date=${p.week.start_date}&end_date=${p.week.end_date}&categories=${p.category}`,
    'GET /events year': 'per_page=10&start_date=2030-07-01&end_date=2031-06-30',
    'GET /events search': `per_page=10&search=${encodeURIComponent(p.search)}`,
  };
  const ROUTES = {};
  let firstId;
  for (const [name, query] of Object.entries(LISTS)) {
    const path = `${API}/events?${query}`;
    const list = await record('GET', path);
    firstId ??= JSON.parse(list.body.toString()).events[0].id;
    ROUTES[name] = { method: 'GET', path, recorded: list };
    if (name === 'GET /events?per_page=10' || name === 'GET /events month') {
      // Measured before any POST of this run: the list's validator still holds.
      const unchanged = await record('GET', path, undefined, { 'if-none-match': list.headers.etag });
      if (unchanged.status !== 304) throw new Error(`${name} with If-None-Match: ${unchanged.status}, not 304`);
      ROUTES[`${name} (304)`] = { method: 'GET', path, recorded: unchanged, headers: { 'if-none-match': list.headers.etag } };
    }
  }
  const single = await record('GET', `${API}/events/${firstId}`);
  ROUTES['GET /events/<id>'] = { method: 'GET', path: `${API}/events/${firstId}`, recorded: single };
  ROUTES['POST /events'] = { method: 'POST', path: `${API}/events`, recorded: created, post: true };
  const routesFile = join(scratch, 'routes.json');
  writeFileSync(routesFile, JSON.stringify(Object.values(ROUTES).map((r) => ({
    method: r.method, path: r.path, status: r.recorded.status, headers: r.recorded.headers, body: r.recorded.body.toString('base64'),
    ...(r.headers ? { conditional: true } : {}),
  }))));
  baseline = await start([join(HERE, 'lib', 'baseline-server.mjs'), routesFile], /listening (\d+)/);
  const baseOrigin = `http://127.0.0.1:${baseline.match[1]}`;

  const cannon = (origin, route, seconds) => new Promise((resolve, reject) => {
    const request = route.post
      ? {
        method: 'POST', path: route.path,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        setupRequest: (req) => ({ ...req, body: payload(serial++) }),
      }
      : { method: 'GET', path: route.path, ...(route.headers ? { headers: route.headers } : {}) };
    autocannon({ url: origin, connections, pipelining: 1, duration: seconds, requests: [request] }, (err, r) => (err ? reject(err) : resolve(r)));
  });
  summary = (r) => ({
    requestsPerSec: r.requests.average,
    latencyP50: r.latency.p50,
    latencyP99: r.latency.p99,
    latencyMean: r.latency.average,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    bytesPerSec: r.throughput.average,
  });
  const selected = opts.routes ? opts.routes.split(',') : Object.keys(ROUTES);
  for (const name of selected) {
    const route = ROUTES[name];
    // A short warm-up of each (JIT, connection pools), then the measured runs back to back.
    await cannon(baseOrigin, route, Math.min(2, duration));
    await cannon(origin, route, Math.min(2, duration));
    const base = await measured(baseline.child, () => cannon(baseOrigin, route, duration));
    const app = await measured(evcal.child, () => cannon(origin, route, duration));
    results.routes[name] = {
      path: route.path, evcal: app, baseline: base, ratio: app.requestsPerSec / base.requestsPerSec, responseBytes: route.recorded.body.length,
      // The same comparison by the CPU each server spent per request: steadier than throughput
      // when other work shares the machine.
      cpuRatio: base.cpuPerRequestUs / app.cpuPerRequestUs,
    };
    log(`${name.padEnd(24)} evcal ${app.requestsPerSec.toFixed(0).padStart(6)} req/s (p50 ${app.latencyP50} ms, p99 ${app.latencyP99} ms)  `
      + `baseline ${base.requestsPerSec.toFixed(0).padStart(6)} req/s  ratio ${(100 * results.routes[name].ratio).toFixed(1)}%  `
      + `(CPU per request: evcal ${app.cpuPerRequestUs.toFixed(0)} µs, baseline ${base.cpuPerRequestUs.toFixed(0)} µs, ${(100 * results.routes[name].cpuRatio).toFixed(1)}%; `
      + `main thread user/system: evcal ${mainThread(app)}, baseline ${mainThread(base)})`
      + `${(app.non2xx && route.recorded.status !== 304) || app.errors ? `  [non-2xx ${app.non2xx}, errors ${app.errors}]` : ''}`);
  }
} finally {
  if (evcal) await stop(evcal.child);
  if (logs) {
    // Its writing end here too, should evcal serve not have started (the reader then ends at once).
    logs.reader.stdin.destroy();
    // What the log reader read: with default logging, a line per request served.
    results.log = (await logs.finished) ?? null;
    if (results.log) log(`the log reader read ${results.log.lines} lines (${(results.log.bytes / 1e6).toFixed(1)} MB), ${results.log.cpuPerLineUs.toFixed(2)} µs of its CPU a line`);
  }
  if (baseline) await stop(baseline.child);
  for (const c of cleanups.reverse()) await c();
}
if (opts.out) writeFileSync(opts.out, JSON.stringify(results, null, 2));
else console.log(JSON.stringify(results));
