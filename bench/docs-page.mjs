// How long the API reference at /docs takes to show its first operation, as a person's browser
// sees it: headless Chromium (Debian's /usr/bin/chromium through playwright-core), a fresh
// profile per run (cold: nothing cached), from navigation start until the first operation's
// summary is visible. The target (issue 33): within 2 s on the project's machine.
//   node bench/docs-page.mjs [--runs 5] [--out result.json]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '..', 'packages', 'cli', 'dist', 'cli.js');
const CHROMIUM = process.env.EVCAL_CHROMIUM ?? '/usr/bin/chromium';
const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '5' }, out: { type: 'string' } } });
const runs = Number(opts.runs);

const server = spawn(process.execPath, [CLI, 'serve', '--storage', 'memory', '--port', '0', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] });
const origin = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
    if (m) resolve(m[0]);
  });
  server.once('exit', (code) => reject(new Error(`evcal serve exited with ${code}`)));
});

const times = [];
try {
  for (let i = 0; i < runs; i++) {
    const profile = mkdtempSync(join(tmpdir(), 'evcal-bench-docs-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/docs`, { waitUntil: 'commit' });
      await page.locator('.opblock-summary').first().waitFor({ state: 'visible', timeout: 60_000 });
      const ms = await page.evaluate(() => performance.now());
      times.push(Math.round(ms));
      // Where the time went: when each file had arrived.
      const arrived = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => `${r.name.replace(location.origin, '')} ${Math.round(r.responseEnd)}`).join(', '));
      process.stderr.write(`[docs-page] run ${i + 1}: first operation visible after ${Math.round(ms)} ms (${arrived})\n`);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }
} finally {
  server.kill();
}
const sorted = [...times].sort((a, b) => a - b);
const result = { runs: times, median_ms: sorted[Math.floor(sorted.length / 2)], max_ms: sorted.at(-1) };
console.log(JSON.stringify(result));
if (opts.out) writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
