// A PostgreSQL cluster of a test's own, on its own port, in a temporary directory: for the tests
// that restart, stop or break the database under a running server (the machine's shared server
// must not be restarted under other tests). Started with the machine's PostgreSQL binaries
// (Debian: /usr/lib/postgresql/<major>/bin), as the `postgres` user when the test runs as root
// (initdb refuses root), and removed when the test file ends.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The directory of PostgreSQL's server binaries on this machine, or undefined. */
export function postgresBin(): string | undefined {
  const fromEnv = process.env.EVCAL_TEST_POSTGRES_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root).filter((m) => existsSync(join(root, m, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], 'bin') : undefined;
}

/**
 * Whether tests that start their own cluster run here. CI has the binaries (`.ci/run` installs
 * PostgreSQL), so there a missing binary fails the test instead of skipping it.
 */
export const OWN_CLUSTER = postgresBin() !== undefined || Boolean(process.env.CI);
if (!OWN_CLUSTER) console.warn('NOTICE: no PostgreSQL server binaries (initdb): the tests that restart their own cluster are skipped.');

export interface PgCluster {
  readonly port: number;
  readonly dir: string;
  /** A connection URL to `database` as the superuser `postgres` (trust authentication on loopback). */
  url(database?: string): string;
  /** Runs SQL through psql as the superuser and returns its unaligned output. */
  psql(sql: string, database?: string): string;
  /** `pg_ctl restart -m <mode>`: every connection is cut, the server comes back on the same port. */
  restart(mode?: 'fast' | 'immediate'): void;
  /**
   * `restart` without blocking this process: the test's clients go on sending while the server
   * goes down and comes back (with `restart`, nothing of this process runs until it is back).
   */
  restartLive(mode?: 'fast' | 'immediate'): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Ends every client backend but this psql's (`pg_terminate_backend`); returns how many. */
  terminateBackends(database?: string): number;
  /** `terminateBackends` without blocking this process, as `restartLive`. */
  terminateBackendsLive(database?: string): Promise<number>;
  /** Stops the server and removes its directory. */
  remove(): void;
}

/** A hot standby of a cluster, streaming from it (`pg_basebackup -R`). */
export interface PgStandby extends PgCluster {
  /** `pg_wal_replay_pause()`: the standby keeps what it has and replays nothing more until resumed. */
  pauseReplay(): void;
  resumeReplay(): void;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
}

type Run = (command: string, args: readonly string[]) => string;
type RunLive = (command: string, args: readonly string[]) => Promise<string>;

/** The binaries, run as the `postgres` user when this process is root (initdb and postgres refuse root). */
function runner(dir: string): { run: Run; runLive: RunLive; asRoot: boolean } {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (set EVCAL_TEST_POSTGRES_BIN to the directory of initdb)');
  const asRoot = process.getuid?.() === 0;
  const invocation = (command: string, args: readonly string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), [...args]];
  const run: Run = (command, args) => {
    const [file, argv] = invocation(command, args);
    const result = spawnSync(file, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
    return result.stdout;
  };
  const runLive: RunLive = (command, args) => new Promise((resolve, reject) => {
    const [file, argv] = invocation(command, args);
    execFile(file, argv, { encoding: 'utf8', cwd: dir }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed (${error.code}):\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
  return { run, runLive, asRoot };
}

/** A fresh directory for a cluster, owned by the user that runs its server. */
function clusterDir(asRoot: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-pg-'));
  if (asRoot) chownSync(dir, postgresId('-u'), postgresId('-g'));
  chmodSync(dir, 0o700);
  return dir;
}

const postgresId = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());

/** The settings that place a cluster: a standby takes its own, not its primary's. */
const OWN_ADDRESS = new Set(['port', 'listen_addresses', 'unix_socket_directories']);

/** Writes the settings of a cluster of the test's own (its port, its socket directory, no fsync, then `settings`). */
function configure(data: string, dir: string, port: number, asRoot: boolean, settings: Readonly<Record<string, string | number>> | undefined): void {
  const conf = {
    port,
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${dir}'`,
    fsync: 'off',
    full_page_writes: 'off',
    max_connections: 100,
    ...settings,
  };
  writeFileSync(join(data, 'postgresql.auto.conf'), Object.entries(conf).map(([k, v]) => `${k} = ${v}\n`).join(''));
  if (asRoot) execFileSync('chown', ['postgres:postgres', join(data, 'postgresql.auto.conf')]);
}

/** The cluster in `data`, started. */
function started({ run, runLive }: { run: Run; runLive: RunLive }, dir: string, data: string, port: number): PgCluster {
  const log = join(dir, 'server.log');
  const ctlArgs = (args: string[]) => ['-D', data, '-l', log, '-w', '-t', '60', ...args];
  const ctl = (...args: string[]) => run('pg_ctl', ctlArgs(args));
  const terminating = (database: string) =>
    `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND datname = '${database}'`;
  const psqlArgs = (sql: string, database: string) => ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-XAtq', '-v', 'ON_ERROR_STOP=1', '-c', sql];
  ctl('start');
  const cluster: PgCluster = {
    port,
    dir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    psql: (sql, database = 'postgres') => run('psql', psqlArgs(sql, database)).trim(),
    restart: (mode = 'fast') => { ctl('restart', '-m', mode); },
    restartLive: async (mode = 'fast') => { await runLive('pg_ctl', ctlArgs(['restart', '-m', mode])); },
    stop: (mode = 'fast') => { ctl('stop', '-m', mode); },
    start: () => { ctl('start'); },
    terminateBackends: (database = 'postgres') => Number(cluster.psql(terminating(database))),
    terminateBackendsLive: async (database = 'postgres') => Number((await runLive('psql', psqlArgs(terminating(database), database))).trim()),
    remove: () => {
      try { ctl('stop', '-m', 'immediate'); } catch { /* already stopped */ }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** Initialises and starts a cluster of the test's own. Standbys may stream from it (`wal_level` replica, replication allowed from loopback). */
export async function startPgCluster(options: { settings?: Readonly<Record<string, string | number>> } = {}): Promise<PgCluster> {
  const commands = runner(tmpdir());
  const { run, asRoot } = commands;
  const dir = clusterDir(asRoot);
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  configure(data, dir, port, asRoot, { wal_level: 'replica', max_wal_senders: 10, ...options.settings });
  return started(commands, dir, data, port);
}

/**
 * Starts a hot standby of `primary` on a port of its own: a base backup of it
 * (`pg_basebackup -R`, which makes it a standby streaming from the primary), with `settings`.
 */
export async function startStandby(primary: PgCluster, options: { settings?: Readonly<Record<string, string | number>> } = {}): Promise<PgStandby> {
  const commands = runner(tmpdir());
  const { run, asRoot } = commands;
  const dir = clusterDir(asRoot);
  const data = join(dir, 'data');
  run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '--no-sync']);
  // The primary's settings came with the backup (a standby needs some at least as large as its
  // primary's: max_connections…), and its connection to the primary: kept, but for the address.
  const kept = Object.fromEntries(readFileSync(join(data, 'postgresql.auto.conf'), 'utf8').split('\n')
    .map((line) => /^\s*([a-z_]+)\s*=\s*(.*)$/.exec(line)).filter((m): m is RegExpExecArray => m !== null && !OWN_ADDRESS.has(m[1]!))
    .map((m) => [m[1]!, m[2]!]));
  const port = await freePort();
  configure(data, dir, port, asRoot, { ...kept, hot_standby: 'on', ...options.settings });
  const cluster = started(commands, dir, data, port);
  return {
    ...cluster,
    pauseReplay: () => { cluster.psql('SELECT pg_wal_replay_pause()'); },
    resumeReplay: () => { cluster.psql('SELECT pg_wal_replay_resume()'); },
    caughtUp: async (timeoutMs = 30_000) => {
      const target = primary.psql('SELECT pg_current_wal_lsn()');
      const deadline = Date.now() + timeoutMs;
      while (cluster.psql(`SELECT pg_last_wal_replay_lsn() >= '${target}'::pg_lsn`) !== 't') {
        if (Date.now() > deadline) throw new Error(`the standby has not replayed the primary's WAL up to ${target} in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** A TCP port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
