// What `evcal` needs to run in a checkout of the repository, built when it is missing or older
// than its sources: `npm start` and the `evcal` executable (packages/cli/bin/evcal.js) call it
// before they run packages/cli/dist/cli.js. Only what running needs is built
// (EVCAL_BUILD=run: ESM without type declarations, tsup.shared.ts), the packages side by side;
// on an unchanged checkout nothing is built and the check takes milliseconds.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What `evcal serve` loads: each package with a file its build writes, and the sources of
 * other packages it bundles (the calendar page bundles @evcal/client's).
 */
const PACKAGES = [
  { name: 'core', outputs: ['index.js'] },
  { name: 'memory', outputs: ['index.js'] },
  { name: 'file-json', outputs: ['index.js'] },
  { name: 'sql', outputs: ['index.js'] },
  { name: 'http', outputs: ['index.js', 'node.js'] },
  { name: 'migrate', outputs: ['index.js'] },
  { name: 'cli', outputs: ['cli.js', 'web/calendar-page.global.js', 'web/reference-page.global.js'], alsoReads: ['client'] },
];
/** Inputs every package's build shares. */
const SHARED_INPUTS = ['tsup.shared.ts', 'tsconfig.base.json', 'package-lock.json'].map((f) => join(ROOT, f));

/** The packages whose build is missing or older than its inputs, with why. */
export function staleForRun() {
  const stale = [];
  for (const { name, outputs, alsoReads = [] } of PACKAGES) {
    const dir = join(ROOT, 'packages', name);
    const inputs = [
      ...SHARED_INPUTS,
      join(dir, 'package.json'),
      ...readdirSync(dir).filter((f) => /^tsup.*\.config\.ts$/.test(f)).map((f) => join(dir, f)),
      ...[name, ...alsoReads].flatMap((p) => sourceFiles(join(ROOT, 'packages', p, 'src'))),
    ];
    const newestInput = Math.max(...inputs.map(mtime));
    const oldestOutput = Math.min(...outputs.map((f) => mtime(join(dir, 'dist', f)) || -Infinity));
    if (oldestOutput < newestInput) stale.push({ name, why: oldestOutput === -Infinity ? 'missing' : 'older than its sources' });
  }
  return stale;
}

/**
 * Builds the stale packages for running, two at a time (tsup bundles each package alone, its
 * dependencies left to be imported, so their order does not matter). Progress goes to stderr;
 * rejects when a build fails.
 */
export async function buildForRun({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const queue = staleForRun();
  if (queue.length === 0) return;
  const started = Date.now();
  log(`evcal: building ${queue.map((p) => `@evcal/${p.name}`).join(', ')} for running (${queue.map((p) => p.why).includes('missing') ? 'not built yet' : 'older than their sources'})…`);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await build(next.name);
  };
  await Promise.all([worker(), worker()]);
  log(`evcal: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function build(name) {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn('npm', ['run', 'build', '--workspace', `packages/${name}`], {
      cwd: ROOT,
      env: { ...process.env, EVCAL_BUILD: 'run' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (c) => { output += c; });
    child.stderr.on('data', (c) => { output += c; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`building @evcal/${name} failed:\n${output}`))));
  });
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** A package's source files, tests left out (they are not built). */
function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.endsWith('.test.ts')) out.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return out;
}
