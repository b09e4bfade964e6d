#!/usr/bin/env node
// `npm start`: builds what `evcal serve` runs when it is missing or older than its sources
// (scripts/build-for-run.mjs: JavaScript only, no type declarations), then serves the demo
// calendar on SQLite (./data/evcal.db). On a second start of an unchanged checkout it builds
// nothing and listens within about a second. Extra arguments go to `evcal serve`
// (`npm start -- --port 9000`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildForRun, ROOT } from './build-for-run.mjs';

try {
  await buildForRun();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const serve = spawn(process.execPath, [join(ROOT, 'packages', 'cli', 'dist', 'cli.js'), 'serve', '--demo', '--storage', 'sqlite:./data/evcal.db', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});
// The server stops on SIGTERM/SIGINT; pass them on and leave with its code.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => serve.kill(signal));
serve.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
