// What `evcal serve` loads before it listens. Every server start pays for each module it
// imports, and from Node 22 on more than on 20: resolving a module's format parses its
// package's package.json each time, so a barrel of a few hundred files in a package with a large
// package.json (date-fns: 300 modules, 200 KB) cost 0.6 s per start on Node 22 and 1 s on 24.
// The SQL layer (@evcal/sql and kysely, some 260 modules) is imported only when a SQL storage
// is opened.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { needBuiltCli, startServe } from './support/serve-process';

needBuiltCli();

const RECORDER = fileURLToPath(new URL('./support/record-modules.mjs', import.meta.url));

/** Starts `evcal serve` with `args`, stops it once it listens, and returns the URLs of the modules it loaded. */
async function modulesLoadedBy(args: readonly string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-startup-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, 'modules.txt');
  const server = await startServe(args.map((a) => a.replace('<dir>', dir)), {
    env: { NODE_OPTIONS: `--import=${RECORDER}`, EVCAL_TEST_MODULE_LOG: log },
  });
  server.child.kill('SIGTERM');
  await server.exited;
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const from = (modules: readonly string[], part: string) => modules.filter((url) => url.includes(part));

describe('evcal serve at start', () => {
  it('on memory loads neither the SQL layer nor a date library barrel', async () => {
    const modules = await modulesLoadedBy(['--storage', 'memory']);
    // The recorder saw the CLI and the library (so an empty list below means something).
    expect(from(modules, '/packages/cli/dist/cli.js')).toHaveLength(1);
    expect(from(modules, '/packages/core/dist/').length).toBeGreaterThan(0);
    expect(from(modules, '/packages/memory/dist/').length).toBeGreaterThan(0);
    expect(from(modules, '/packages/sql/dist/')).toEqual([]);
    expect(from(modules, '/node_modules/kysely/')).toEqual([]);
    expect(from(modules, '/node_modules/date-fns/')).toEqual([]);
  });

  it('on SQLite loads the SQL layer', async () => {
    const modules = await modulesLoadedBy(['--storage', 'sqlite:<dir>/data.sqlite']);
    expect(from(modules, '/packages/sql/dist/').length).toBeGreaterThan(0);
    expect(from(modules, '/node_modules/kysely/').length).toBeGreaterThan(0);
  });
});
