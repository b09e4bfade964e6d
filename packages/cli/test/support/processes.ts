// The evcal executable as tests run it: `evcal serve` processes that print their origin, and
// one-shot commands run to completion.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const REPO = fileURLToPath(new URL('../../../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const ORIGIN_RE = /http:\/\/127\.0\.0\.1:(\d+)/;

/** Builds the packages once when the executable is missing. */
export function ensureBuilt(): void {
  if (existsSync(CLI)) return;
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
}

export interface ServeProcess {
  readonly origin: string;
  readonly child: ChildProcessWithoutNullStreams;
  stop(): Promise<void>;
}

/** Starts `evcal serve` with these arguments; resolves once it listens. Stopped when the test ends. */
export async function startServe(args: readonly string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: '1' } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  onTestFinished(stop);
  let out = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => { out += c; });
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = ORIGIN_RE.exec(out);
      if (m) resolve(m[0]);
    });
    void exited.then(() => reject(new Error(`evcal serve exited before listening:\n${out}`)));
  });
  return { origin, child, stop };
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `evcal <args>` to completion. `killWhen` is asked after each chunk of stderr: when it
 * says so the process is killed with SIGKILL at once (a crash mid-way).
 */
export function runCli(args: readonly string[], options: { env?: Record<string, string>; killWhen?: (stderr: string) => boolean } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: '1', ...options.env } });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
    if (options.killWhen?.(stderr) && child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** A file in a temporary directory removed when the test ends. */
export function tempPath(name: string, content?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-migrate-test-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  if (content !== undefined) writeFileSync(file, content);
  return file;
}
