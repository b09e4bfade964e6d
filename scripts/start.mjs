#!/usr/bin/env node
// `npm start`: builds the packages `evcal serve` runs that are missing or older than their
// sources, then serves the demo calendar on SQLite (./data/evcal.db). On a fresh clone it
// builds everything; on a second start of an unchanged checkout it builds nothing and listens
// within about a second. Extra arguments go to `evcal serve` (`npm start -- --port 9000`).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What `evcal serve` loads, dependencies first; each with the files its build writes. */
const PACKAGES = [
  ['core', ['index.js']],
  ['memory', ['index.js']],
  ['file-json', ['index.js']],
  ['sql', ['index.js']],
  ['http', ['index.js']],
  // The page's script bundles @evcal/client (built from its dist).
  ['client', ['index.js']],
  ['cli', ['index.js', 'cli.js', 'web/calendar-page.global.js', 'web/reference-page.global.js']],
];
/** Inputs every package's build shares. */
const SHARED_INPUTS = ['tsup.shared.ts', 'tsconfig.base.json', 'package-lock.json'].map((f) => join(root, f));

for (const [name, outputs] of PACKAGES) {
  const dir = join(root, 'packages', name);
  const newestInput = Math.max(
    ...[...SHARED_INPUTS, join(dir, 'package.json'), ...readdirSync(dir).filter((f) => /^tsup.*\.config\.ts$/.test(f)).map((f) => join(dir, f))].map(mtime),
    ...sourceFiles(join(dir, 'src')).map(mtime),
  );
  const oldestOutput = Math.min(...outputs.map((f) => mtime(join(dir, 'dist', f)) || -Infinity));
  if (oldestOutput >= newestInput) continue;
  process.stderr.write(`building @evcal/${name} (its build is ${oldestOutput === -Infinity ? 'missing' : 'older than its sources'})\n`);
  const build = spawnSync('npm', ['run', 'build', '--workspace', `packages/${name}`], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const serve = spawn(process.execPath, [join(root, 'packages', 'cli', 'dist', 'cli.js'), 'serve', '--demo', '--storage', 'sqlite:./data/evcal.db', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
// The server stops on SIGTERM/SIGINT; pass them on and leave with its code.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => serve.kill(signal));
serve.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The package's source files, tests left out (they are not built). */
function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.endsWith('.test.ts')) out.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return out;
}
