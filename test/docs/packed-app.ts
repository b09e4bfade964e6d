// An app outside the workspace that installed evcal as a user does: every publishable package
// packed with `npm pack` and installed from its tarball, together with what the README's Install
// section names and what the docs' examples import from the registry. `--engine-strict` makes
// the install fail on any dependency that needs a newer Node than the one running it (CI runs
// it on Node 20, the oldest `engines` allows). `--ignore-scripts`: better-sqlite3 would compile
// SQLite from source here (no prebuilt binaries are reachable), about two minutes; the examples
// that open SQLite are compiled, not run.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, type DocBlock } from './blocks';

/** The packages published to npm (every workspace package but the benchmarks). */
export const PUBLISHED = ['core', 'memory', 'file-json', 'sql', 'http', 'client', 'migrate', 'cli', 'storage-test-suite'];

/**
 * What the docs' examples import besides evcal and Node, at versions that run on Node 20;
 * TypeScript as the workspace's, and Node's types for the oldest Node supported.
 */
const REGISTRY = [
  'express@^5.1.0', '@types/express@^5.0.0', 'typescript@~5.9.3', '@types/node@^20.19.0', 'pg@^8.16.0', '@types/pg@^8.15.0',
  '@types/better-sqlite3@^7.6.13', 'jose@^6.1.0', 'standardwebhooks@^1.0.0', 'vitest@~4.1.0',
];

export interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion, collecting its output. */
export function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that exits without reading its input closes the pipe before the write lands:
    // EPIPE then says nothing of the command (its exit code does), and unheard it would be an
    // uncaught exception of the whole test run (it failed CI once, after every test had passed).
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin.end(options.input ?? '');
  });
}

async function check(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Result> {
  const result = await run(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** Every published package as a tarball in `dir`, by package name. Needs a full build (`npm run build`). */
export async function packAll(dir: string): Promise<Record<string, string>> {
  const unbuilt = PUBLISHED.filter((p) => !existsSync(join(REPO, 'packages', p, 'dist', 'index.d.ts')));
  if (unbuilt.length) throw new Error(`no full build of ${unbuilt.join(', ')} (npm start and npx evcal build without types): run npm run build`);
  mkdirSync(dir, { recursive: true });
  const { stdout } = await check('npm', ['pack', '--json', '--pack-destination', dir, ...PUBLISHED.flatMap((p) => ['-w', `packages/${p}`])], { cwd: REPO });
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  return Object.fromEntries(packed.map((p) => [p.name, join(dir, p.filename)]));
}

/** The package specs of the `npm i` commands of `sh install` blocks. */
export function installSpecs(blocks: readonly DocBlock[]): string[] {
  return blocks.flatMap((b) => b.code.split('\n'))
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => /^npm (i|install)\s/.test(line))
    .flatMap((line) => line.split(/\s+/).slice(2).filter((word) => !word.startsWith('-')));
}

export interface App {
  readonly dir: string;
  /** The installed `evcal` executable. */
  readonly evcal: string;
  /** Compiles `files` (name → TypeScript) with tsc --init's settings; `context` adds ambient declarations. Resolves with tsc's output, '' when clean. */
  compile(files: Readonly<Record<string, string>>, options?: { context?: string; emit?: boolean }): Promise<string>;
}

/**
 * Packs the packages, makes an app in a temporary directory and installs the tarballs in place
 * of the @evcal packages the install blocks name (every one of them, so every README compiles).
 */
export async function createApp(installBlocks: readonly DocBlock[]): Promise<App> {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-app-'));
  const tarballs = await packAll(join(dir, 'packed'));
  const named = installSpecs(installBlocks);
  const unknown = named.filter((spec) => spec.startsWith('@evcal/') && !tarballs[spec]);
  if (unknown.length) throw new Error(`the install section names packages that are not published: ${unknown.join(', ')}`);
  const specs = [...new Set([...named.filter((s) => !s.startsWith('@evcal/')), ...Object.values(tarballs), ...REGISTRY])];
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'evcal-docs-app', private: true, type: 'module' }, null, 2)}\n`);
  await check('npm', ['install', '--engine-strict', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', ...specs], { cwd: dir });
  // tsc --init's settings (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, nodenext), with Node's types as its comments advise.
  await check('npx', ['tsc', '--init'], { cwd: dir });
  renameSync(join(dir, 'tsconfig.json'), join(dir, 'tsconfig.init.json'));
  let round = 0;
  return {
    dir,
    evcal: join(dir, 'node_modules', '.bin', 'evcal'),
    async compile(files, options = {}) {
      const src = join(dir, `src${round}`);
      round += 1;
      mkdirSync(src);
      for (const [name, code] of Object.entries(files)) writeFileSync(join(src, `${name}.ts`), code);
      if (options.context) writeFileSync(join(src, 'context.d.ts'), options.context);
      const config = join(dir, `tsconfig.${round}.json`);
      writeFileSync(config, JSON.stringify({
        extends: './tsconfig.init.json',
        compilerOptions: { types: ['node'], rootDir: src, outDir: join(dir, 'dist'), noEmit: options.emit !== true, sourceMap: false, declaration: false, declarationMap: false },
        include: [src],
      }));
      const result = await run('npx', ['tsc', '-p', config], { cwd: dir });
      return result.code === 0 ? '' : `${result.stdout}${result.stderr}`.replaceAll(`${src}/`, '');
    },
  };
}
