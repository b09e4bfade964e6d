#!/usr/bin/env node
// `npm run test:examples`: the examples (examples/*), installed apart from the packages'
// workspace so that `npm ci` at the root does not install five frameworks (Next.js alone was
// half of node_modules). Installs them with their own lockfile when that has not been done
// (or the lockfile changed since), then typechecks them and runs their tests. They use the
// workspace's @evcal packages through file: links, so run `npm ci` at the root first.
// `--install-only` stops after installing.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const examples = join(root, 'examples');

function run(command, args, cwd = root) {
  process.stderr.write(`== ${command} ${args.join(' ')}${cwd === root ? '' : ` (in ${cwd.slice(root.length + 1)})`}\n`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

// npm writes node_modules/.package-lock.json last: older than a manifest means not installed from it.
const manifests = [join(examples, 'package-lock.json'), join(examples, 'package.json'),
  ...readdirSync(examples, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'node_modules').map((e) => join(examples, e.name, 'package.json'))];
if (mtime(join(examples, 'node_modules', '.package-lock.json')) < Math.max(...manifests.map(mtime))) {
  run('npm', ['ci', '--no-audit', '--no-fund'], examples);
}
if (process.argv.includes('--install-only')) process.exit(0);
run('npx', ['tsc', '-p', 'examples/tsconfig.json']);
run('npx', ['vitest', 'run', '--root', 'examples']);
