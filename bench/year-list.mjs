// A year's list through `evcal serve` on a freshly loaded calendar, at two sizes: does a list
// stay as fast when the calendar grows, right after a bulk load (no time for the database to
// gather statistics on its own), however the calendar was loaded?
//   node bench/year-list.mjs --storage sqlite|postgres [--sizes 5000,50000] [--requests 40]
//                            [--loads import,seed] [--windows part,whole] [--out result.json]
// Each size and load: the benchmark dataset written to a file, then either `evcal import` into
// a fresh database (as an operator seeds one; it runs on the real clock, years before the
// dataset's, so it stores most published events as scheduled, published at the first request)
// and `evcal serve` on it, or `evcal serve --seed <file>` (loaded at start, on the dataset's
// clock). Then `GET /events` for a window, 10 per page, asked for pages 1, 2, 3… one after the
// other: every request a list not asked before, so no kept list answers it. Windows: `part`, a
// year (2030-07-01 to 2031-06-30: part of the calendar, which spans 2030 and 2031), `whole`,
// 2030-01-01 to 2031-12-31 (every event: its total is the whole calendar's count), and
// `search`, the whole window searched for a word (`searchRatio`: its p50 over `whole`'s).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { BENCH_NOW, generateDataset } from './lib/dataset.mjs';
import { percentile } from './lib/measure.mjs';
import { PG_URL } from './lib/stores.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '..', 'packages', 'cli', 'dist', 'cli.js');
const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string' }, sizes: { type: 'string', default: '5000,50000' }, requests: { type: 'string', default: '40' },
    loads: { type: 'string', default: 'import,seed' }, windows: { type: 'string', default: 'part,whole,search' }, out: { type: 'string' },
  },
});
const storageName = opts.storage;
const sizes = opts.sizes.split(',').map(Number);
const requests = Number(opts.requests);
const loads = opts.loads.split(',');
const log = (m) => process.stderr.write(`[year-list ${storageName}] ${m}\n`);
const WINDOWS = {
  part: 'start_date=2030-07-01&end_date=2031-06-30&per_page=10',
  whole: 'start_date=2030-01-01&end_date=2031-12-31&per_page=10',
  // The whole window searched for a word of about one title in twenty (one adjective of 20).
  search: 'start_date=2030-01-01&end_date=2031-12-31&per_page=10&search=golden',
};
const windows = opts.windows.split(',');

const results = { storage: storageName, windows: Object.fromEntries(windows.map((w) => [w, `/events?${WINDOWS[w]}&page=<k>`])), runs: {} };
for (const load of loads) {
  for (const n of sizes) {
    const scratch = mkdtempSync(join(tmpdir(), 'evcal-bench-year-'));
    let storage;
    let drop = async () => {};
    if (storageName === 'sqlite') storage = `sqlite:${join(scratch, 'calendar.db')}`;
    else if (storageName === 'postgres') {
      const schema = `bench_year_${Math.random().toString(36).slice(2, 10)}`;
      storage = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
      drop = async () => {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`drop schema if exists ${schema} cascade`);
        await c.end();
      };
    } else throw new Error(`--storage sqlite|postgres, not ${storageName}`);
    try {
      const file = join(scratch, 'dataset.json');
      writeFileSync(file, JSON.stringify(generateDataset(n)));
      const t0 = performance.now();
      if (load === 'import') {
        const imported = spawnSync(process.execPath, [CLI, 'import', file, '--storage', storage], { encoding: 'utf8' });
        if (imported.status !== 0) throw new Error(`evcal import: ${imported.stderr}`);
      } else if (load !== 'seed') throw new Error(`--loads import,seed, not ${load}`);
      const server = await startServe(storage, load === 'seed' ? ['--seed', file] : []);
      const loadSeconds = (performance.now() - t0) / 1000;
      log(`${n} events loaded by ${load === 'seed' ? 'evcal serve --seed' : 'evcal import'} in ${loadSeconds.toFixed(1)} s`);
      try {
        // One request first (connections, JIT), on a page outside the measured ones. It also
        // publishes the scheduled posts that are due, as a freshly imported calendar's first
        // request does.
        const t1 = performance.now();
        await get(server.origin, WINDOWS[windows[0]], 1000);
        const firstMs = performance.now() - t1;
        for (const w of windows) {
          const times = [];
          let total;
          // At most the window's pages (a search at 5,000 events has about 21 of 10).
          for (let page = 1, pages = requests; page <= Math.min(requests, pages); page++) {
            const t = performance.now();
            const body = await get(server.origin, WINDOWS[w], page);
            times.push(performance.now() - t);
            total = body.total;
            pages = body.total_pages;
          }
          times.sort((a, b) => a - b);
          const run = { load, window: w, n, loadSeconds, firstMs, total, p50: percentile(times, 50), p90: percentile(times, 90), requests: times.length };
          ((results.runs[`${load} ${w}`] ??= { load, window: w, sizes: {} }).sizes[n] = run);
          log(`${n} events, ${load}, window ${w}: first request ${(firstMs / 1000).toFixed(1)} s; the window holds ${total}; p50 ${run.p50.toFixed(2)} ms, p90 ${run.p90.toFixed(2)} ms`);
        }
      } finally {
        server.child.kill('SIGTERM');
        await new Promise((resolve) => server.child.once('exit', resolve));
      }
    } finally {
      await drop();
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}
for (const run of Object.values(results.runs)) {
  const [small, large] = sizes.map((n) => run.sizes[n]);
  if (small && large) {
    run.growth = large.p50 / small.p50;
    log(`${run.load}, window ${run.window}: growth ${sizes[0]} -> ${sizes[1]}: ${run.growth.toFixed(2)}x`);
  }
}
for (const load of loads) {
  const [whole, search] = [results.runs[`${load} whole`], results.runs[`${load} search`]];
  if (!whole || !search) continue;
  for (const n of sizes) {
    if (!whole.sizes[n] || !search.sizes[n]) continue;
    (search.searchRatio ??= {})[n] = search.sizes[n].p50 / whole.sizes[n].p50;
    log(`${load}, ${n} events: search / the same list without it: ${search.searchRatio[n].toFixed(2)}x`);
  }
}
if (opts.out) writeFileSync(opts.out, JSON.stringify(results, null, 2));
else console.log(JSON.stringify(results));

async function get(origin, query, page) {
  const res = await fetch(`${origin}/cal/events/v1/events?${query}&page=${page}`);
  const body = await res.json();
  if (res.status !== 200 && page !== 1000) throw new Error(`page ${page}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return body;
}

function startServe(storage, extra) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--storage', storage, '--now', BENCH_NOW,
      // The dataset's authors are users 1…5 (a seed checks they exist).
      '--user', '1:administrator:bench-admin-token', ...[2, 3, 4, 5].flatMap((id) => ['--user', `${id}:author:bench-author-${id}`]), ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /evcal listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) resolve({ child, origin: m[1] });
    });
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`evcal serve exited with ${code}: ${err || out}`)));
  });
}
