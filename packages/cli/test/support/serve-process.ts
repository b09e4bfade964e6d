// Real `evcal serve` processes for the CLI's tests: started with the conformance contract's
// flags (../shared/conformance/README.md), talked to over real HTTP, killed when the test ends.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, onTestFinished } from 'vitest';

export const REPO = fileURLToPath(new URL('../../../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
export const NS = '/cal/events/v1';
export const ORIGIN_RE = /http:\/\/127\.0\.0\.1:(\d+)/;

/** Builds the CLI once when a test file needs it and it is missing. */
export function needBuiltCli(): void {
  beforeAll(() => {
    if (existsSync(CLI)) return;
    const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  }, 300_000);
}

export interface Running {
  readonly origin: string;
  readonly api: string;
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

export interface SpawnOptions {
  /** Variables added to the environment. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Add `--storage memory` when the arguments name no storage; false when the storage comes
   * from the environment or a config file instead.
   * @default true
   */
  readonly memoryByDefault?: boolean;
  /**
   * Kill the process when the current test finishes; false when it is started in a
   * `beforeAll` (no test is running) and the caller stops it.
   * @default true
   */
  readonly killAfterTest?: boolean;
}

/** Runs `evcal serve` on a fresh in-memory storage unless the args name one (the default is a SQLite file). */
export function spawnServe(args: readonly string[], options: SpawnOptions = {}): ChildProcessWithoutNullStreams {
  const storage = args.includes('--storage') || options.memoryByDefault === false ? [] : ['--storage', 'memory'];
  const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', ...storage, ...args], {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  if (options.killAfterTest !== false) {
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  }
  return child;
}

/** Starts `evcal serve` and resolves once it has printed its origin. */
export async function startServe(args: readonly string[] = [], options: SpawnOptions = {}): Promise<Running> {
  const child = spawnServe(args, options);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
  child.stderr.setEncoding('utf8').on('data', (c: string) => { err += c; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const origin = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = ORIGIN_RE.exec(out);
      if (m) {
        child.stdout.off('data', onData);
        resolve(m[0]);
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => reject(new Error(`evcal serve exited with ${code} before listening:\n${out}${err}`)));
  });
  return { origin, api: `${origin}${NS}`, child, stdout: () => out, stderr: () => err, exited };
}

/**
 * The server's standard output once it holds every one of `texts`, or as it is after `ms`.
 * Log lines are written in batches, at most 100 ms after they are logged (pino's asynchronous
 * destination, logger.ts): a line logged while a request was answered may not be there yet
 * when its answer arrives. The caller's expectations then say what is missing.
 */
export async function logHolding(server: Pick<Running, 'stdout'>, texts: readonly string[], ms = 5_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const log = server.stdout();
    if (texts.every((t) => log.includes(t)) || Date.now() >= until) return log;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
