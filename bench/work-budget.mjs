// How much work per request a node:http server can do and still reach a share of a bare one's
// throughput, on this machine, with the HTTP benchmark's client settings (autocannon, 10
// connections). Each server answers every request with the same 304 evcal sends for an
// unchanged list, after spinning for a fixed number of microseconds: the CPU an application
// would spend. The share at a given spin is the most any application spending that much per
// request can reach in `bench/http.mjs` (the targets there are shares of the bare server).
//   node bench/work-budget.mjs [--spins 0,2,4,6,8,12,20] [--duration 5]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values: opts } = parseArgs({
  options: { spins: { type: 'string', default: '0,2,4,6,8,12,20' }, duration: { type: 'string', default: '5' }, server: { type: 'string' } },
});

if (opts.server !== undefined) {
  // The server: `--server <µs>`.
  const { createServer } = await import('node:http');
  const spinMs = Number(opts.server) / 1000;
  const headers = {
    'x-request-id': '209ea570-a68a-4f87-b650-e3a93448b245', 'content-language': 'en', 'cache-control': 'no-cache',
    vary: 'Authorization, Accept', etag: 'W/"l0q26ffsuzi4gr.1zosv0pob0s"',
  };
  const server = createServer((_req, res) => {
    if (spinMs > 0) {
      const start = performance.now();
      while (performance.now() - start < spinMs);
    }
    res.writeHead(304, headers);
    res.end();
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  const duration = Number(opts.duration);
  const cpuMs = (pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const results = [];
  for (const spin of opts.spins.split(',').map(Number)) {
    const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--server', String(spin)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(/listening (\d+)/.exec(String(d))[1])));
    const run = (seconds) => new Promise((resolve, reject) => autocannon({ url: `http://127.0.0.1:${port}/`, connections: 10, duration: seconds }, (e, r) => (e ? reject(e) : resolve(r))));
    await run(1);
    const before = cpuMs(child.pid);
    const r = await run(duration);
    const cpuUs = ((cpuMs(child.pid) - before) * 1000) / r.requests.total;
    child.kill('SIGTERM');
    results.push({ spin, requestsPerSec: r.requests.average, cpuPerRequestUs: cpuUs });
    const share = results[0].requestsPerSec ? r.requests.average / results[0].requestsPerSec : 1;
    console.log(`${String(spin).padStart(3)} µs of work  ${r.requests.average.toFixed(0).padStart(6)} req/s  ${(100 * share).toFixed(1).padStart(5)}% of the bare server  (CPU per request ${cpuUs.toFixed(1)} µs)`);
  }
}
