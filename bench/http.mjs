// HTTP throughput and latency through `evcal serve`, against a baseline node:http server that
// returns the same precomputed response bytes (lib/baseline-server.mjs), measured in the same
// run with autocannon:
//   node bench/http.mjs --storage memory|file-json|sqlite|postgres --n 10000 [--duration 10] [--out result.json]
// Routes: GET /events?per_page=10, the same with the list's ETag in If-None-Match (answered 304
// from the change counter alone: no query, no rendering), GET /events/<id>, POST /events (an
// administrator's bearer token; every request a new title, so slugs never collide). Each server runs in its own
// process; autocannon runs in this one (10 connections, no pipelining).
import autocannon from 'autocannon';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { encodeDataset } from '@evcal/core';
import { BENCH_NOW, generateDataset, ids } from './lib/dataset.mjs';
import { loadSnapshot } from './lib/records.mjs';
import { postgresSchema, sqliteFile } from './lib/stores.mjs';
import { cpuMicros, start, stop } from './lib/processes.mjs';

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
  },
});
const storageName = opts.storage;
const n = Number(opts.n);
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const log = (m) => process.stderr.write(`[http ${storageName} ${n}] ${m}\n`);
const scratch = mkdtempSync(join(tmpdir(), 'evcal-bench-http-'));
const cleanups = [() => rmSync(scratch, { recursive: true, force: true })];

/** A load run's summary, with the CPU the server process spent per request. */
async function measured(child, run) {
  const before = cpuMicros(child.pid);
  const r = summary(await run());
  return { ...r, cpuPerRequestUs: (cpuMicros(child.pid) - before) / Math.max(1, r.requests) };
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

const results = { storage: storageName, n, duration, connections, routes: {} };
let evcal;
let baseline;
try {
  log(`starting evcal serve --storage ${storageName}`);
  evcal = await start([...(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${opts.profile}`] : []), CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--storage', storageUrl, '--now', BENCH_NOW,
    // The dataset's authors are users 1…5.
    '--user', `1:administrator:${TOKEN}`, ...[2, 3, 4, 5].flatMap((id) => ['--user', `${id}:author:bench-author-${id}`]),
    // The API's own cost, as before access logs existed (at info each request writes one JSON line).
    '--log-level', 'warn', ...extraArgs], /evcal listening on (http:\/\/[^\s"]+)/);
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
  // The POST first: every write changes the list's validator.
  const created = await record('POST', `${API}/events`, payload(serial++));
  const list = await record('GET', `${API}/events?per_page=10`);
  const firstId = JSON.parse(list.body.toString()).events[0].id;
  const listTag = list.headers.etag;
  const unchanged = await record('GET', `${API}/events?per_page=10`, undefined, { 'if-none-match': listTag });
  if (unchanged.status !== 304) throw new Error(`GET /events?per_page=10 with If-None-Match: ${unchanged.status}, not 304`);
  const single = await record('GET', `${API}/events/${firstId}`);
  const ROUTES = {
    'GET /events?per_page=10': { method: 'GET', path: `${API}/events?per_page=10`, recorded: list },
    // Measured before any POST of this run: the list's validator still holds.
    'GET /events?per_page=10 (304)': { method: 'GET', path: `${API}/events?per_page=10`, recorded: unchanged, headers: { 'if-none-match': listTag } },
    'GET /events/<id>': { method: 'GET', path: `${API}/events/${firstId}`, recorded: single },
    'POST /events': { method: 'POST', path: `${API}/events`, recorded: created, post: true },
  };
  const routesFile = join(scratch, 'routes.json');
  writeFileSync(routesFile, JSON.stringify(Object.values(ROUTES).map((r) => ({
    method: r.method, path: r.path.split('?')[0], status: r.recorded.status, headers: r.recorded.headers, body: r.recorded.body.toString('base64'),
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
      evcal: app, baseline: base, ratio: app.requestsPerSec / base.requestsPerSec, responseBytes: route.recorded.body.length,
      // The same comparison by the CPU each server spent per request: steadier than throughput
      // when other work shares the machine.
      cpuRatio: base.cpuPerRequestUs / app.cpuPerRequestUs,
    };
    log(`${name.padEnd(24)} evcal ${app.requestsPerSec.toFixed(0).padStart(6)} req/s (p50 ${app.latencyP50} ms, p99 ${app.latencyP99} ms)  `
      + `baseline ${base.requestsPerSec.toFixed(0).padStart(6)} req/s  ratio ${(100 * results.routes[name].ratio).toFixed(1)}%  `
      + `(CPU per request: evcal ${app.cpuPerRequestUs.toFixed(0)} µs, baseline ${base.cpuPerRequestUs.toFixed(0)} µs, ${(100 * results.routes[name].cpuRatio).toFixed(1)}%)`
      + `${(app.non2xx && route.recorded.status !== 304) || app.errors ? `  [non-2xx ${app.non2xx}, errors ${app.errors}]` : ''}`);
  }
} finally {
  if (evcal) await stop(evcal.child);
  if (baseline) await stop(baseline.child);
  for (const c of cleanups.reverse()) await c();
}
if (opts.out) writeFileSync(opts.out, JSON.stringify(results, null, 2));
else console.log(JSON.stringify(results));
