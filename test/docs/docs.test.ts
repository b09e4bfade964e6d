// The code blocks of the README, docs/ and the packages' READMEs, run as a user would run them:
// every block is compiled, run or parsed (or marked as shown only, blocks.ts), in an app outside
// the workspace that installed the packed packages (packed-app.ts), against a real
// `evcal serve --demo` from that install. A change that breaks an example fails here.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfigFile, SERVE_OPTIONS } from '../../packages/cli/src/options';
import { allBlocks, blockName, REPO, type DocBlock } from './blocks';
import { createApp, PUBLISHED, run, type App } from './packed-app';

const blocks = allBlocks();
const of = (...uses: DocBlock['use'][]) => blocks.filter((b) => uses.includes(b.use));
const where = (b: DocBlock) => `${b.file}:${b.line}`;

/** The address the docs give for a server started by `npm start` or `evcal serve`. */
const DOCS_ORIGIN = 'http://127.0.0.1:8080';

describe('the code blocks of the docs', () => {
  it('are each run, compiled or parsed, or marked as shown only', () => {
    // allBlocks() refuses a block it cannot place; these are the ones it placed.
    expect(blocks.length).toBeGreaterThan(50);
    expect(of('compile', 'fragment', 'run', 'serves', 'shell', 'install', 'json', 'toml').length).toBeGreaterThan(of('shown').length);
  });

  it.each(of('json').map((b) => [where(b), b] as const))('%s parses as JSON', (_where, block) => {
    expect(() => JSON.parse(block.code)).not.toThrow();
  });

  it.each(of('toml').map((b) => [where(b), b] as const))('%s is a valid evcal serve --config file', (_where, block) => {
    const dir = mkdtempSync(join(tmpdir(), 'evcal-docs-toml-'));
    const file = join(dir, 'evcal.toml');
    writeFileSync(file, block.code, { mode: 0o600 });
    try {
      expect(Object.keys(readConfigFile(file, SERVE_OPTIONS)).length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts a process and resolves once `ready` matches its output (at once without it); killed in afterAll. */
function startProcess(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; ready?: RegExp }): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env });
  started.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    if (!options.ready) resolve({ child, output: () => output });
    const seen = (c: Buffer) => {
      output += c.toString();
      if (options.ready?.test(output)) resolve({ child, output: () => output });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${output}`)));
  });
}
const started: ChildProcess[] = [];

describe('in an app that installed the packed packages', { timeout: 120_000 }, () => {
  let app: App;
  let origin: string;
  let token: string;
  let work: string;
  /** tsc's output for the complete blocks, compiled (and emitted, to run) before the tests. */
  let compiled: string;
  /** A block's code with the docs' server address replaced by the test server's. */
  const local = (b: DocBlock) => b.code.replaceAll(DOCS_ORIGIN, origin);

  beforeAll(async () => {
    app = await createApp(of('install'));
    work = mkdtempSync(join(tmpdir(), 'evcal-docs-shell-'));
    const server = await startProcess(process.execPath, [app.evcal, 'serve', '--demo', '--port', '0', '--storage', `json:${join(work, 'server.json')}`], {
      cwd: work, env: { ...process.env, NO_COLOR: '1' }, ready: /^ {2}(evcal_\S+)$/m,
    });
    origin = /http:\/\/127\.0\.0\.1:\d+/.exec(server.output())![0];
    token = /^ {2}(evcal_\S+)$/m.exec(server.output())![1]!;
    compiled = await app.compile(Object.fromEntries(of('compile', 'run', 'serves').map((b) => [blockName(b), local(b)])), { emit: true });
  }, 600_000);

  afterAll(async () => {
    await Promise.all(started.map((child) => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve()).kill('SIGTERM');
    })));
    // The app holds its own node_modules: some 130 MB a run.
    for (const dir of [app?.dir, work]) if (dir) rmSync(dir, { recursive: true, force: true });
  });


  // The install itself (--engine-strict) refused any dependency needing a newer Node than this one.
  it('installed every published package from its tarball, each declaring the Node it needs', () => {
    for (const name of PUBLISHED) {
      const manifest = JSON.parse(readFileSync(join(app.dir, 'node_modules', '@evcal', name, 'package.json'), 'utf8')) as { engines: { node: string } };
      expect(manifest.engines.node).toBe('>=20.19');
    }
  });

  it('compiles every complete TypeScript block with tsc --init\'s strict settings', () => {
    expect(compiled).toBe('');
  });

  it('compiles every fragment with the names the text around it sets up (context.d.ts)', async () => {
    const context = readFileSync(join(REPO, 'test', 'docs', 'context.d.ts'), 'utf8');
    // Modules (`export {}`), so that fragments may await at the top level and declare the same names.
    const files = Object.fromEntries(of('fragment').map((b) => [blockName(b), `${b.code}\nexport {};\n`]));
    expect(await app.compile(files, { context })).toBe('');
  });

  it.each(of('run').map((b) => [where(b), b] as const))('%s runs against evcal serve --demo', async (_where, block) => {
    const result = await run(process.execPath, [join(app.dir, 'dist', `${blockName(block)}.js`)], { cwd: app.dir, env: { ...process.env, EVCAL_TOKEN: token } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('the README\'s example serves the event it creates, and takes its administrator token', async () => {
    const [block, ...more] = of('serves').filter((b) => b.file === 'README.md');
    expect(more).toEqual([]);
    const port = await freePort();
    const server = await startProcess(process.execPath, [join(app.dir, 'dist', `${blockName(block!)}.js`)], {
      cwd: app.dir, env: { ...process.env, PORT: String(port), ADMIN_TOKEN: 'docs-test-admin' },
    });
    const api = `http://127.0.0.1:${port}/api/cal/events/v1`;
    await expect.poll(async () => (await fetch(`${api}/events`).catch(() => undefined))?.status, { timeout: 30_000 }).toBe(200);
    // What it created, in the list it printed and in the list it serves.
    expect(server.output()).toMatch(/ 20:00:00 Jazz Night/);
    const listed = await (await fetch(`${api}/events`)).json() as { events: { title: string }[] };
    expect(listed.events.map((e) => e.title)).toEqual(['Jazz Night']);
    const created = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer docs-test-admin', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Late Set', start_date: 'tomorrow 23:00', end_date: 'tomorrow 23:59' }),
    });
    expect(created.status).toBe(201);
    server.child.kill('SIGTERM');
  });

  it.each(of('shell').map((b) => [where(b), b] as const))('%s runs against evcal serve --demo', async (_where, block) => {
    // curl as the docs mean it: an HTTP error fails the block.
    const script = `set -euo pipefail\ncurl() { command curl --fail-with-body --silent --show-error "$@"; }\n${local(block)}\n`;
    const result = await run('bash', ['-c', script], {
      cwd: work,
      env: {
        ...process.env,
        PATH: `${join(app.dir, 'node_modules', '.bin')}:${process.env.PATH}`,
        EVCAL_TOKEN: token,
        // The commands' own storage: the server's JSON file is its alone while it runs.
        EVCAL_STORAGE: `json:${join(work, 'commands.json')}`,
      },
    });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  });
});
