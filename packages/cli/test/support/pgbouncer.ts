// Debian's PgBouncer in front of a PostgreSQL server, in transaction pooling mode (how Supabase,
// Neon and most managed PostgreSQL offers pool connections): each transaction of a client may
// run on another server connection, and a statement outside a transaction on yet another. A
// small pool makes clients share server connections, so that anything that depends on a
// session outliving its transaction (a session lock, a SET, a temporary table, a named
// prepared statement) goes wrong here as it would in production.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './pg-cluster';

export const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));

/** Whether the pooler tests run here: CI installs pgbouncer (.ci/run), so there a missing one fails them. */
export const HAS_PGBOUNCER = PGBOUNCER !== undefined || Boolean(process.env.CI);
if (!HAS_PGBOUNCER) console.warn('NOTICE: pgbouncer is not installed (Debian: apt-get install pgbouncer): the pooler tests are skipped.');

export interface PgBouncer {
  readonly port: number;
  /** `url` with its host and port replaced by the pooler's. */
  via(url: string): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections per database and user: small, so clients share them. @default 3 */
  readonly poolSize?: number;
  /** The user clients connect as (authentication is `trust`). @default 'postgres' */
  readonly user?: string;
}

/** Starts pgbouncer in transaction pooling mode in front of PostgreSQL at host:port. */
export async function startPgBouncer(host: string, port: number, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  if (!PGBOUNCER) throw new Error('pgbouncer not found (Debian: apt-get install pgbouncer)');
  const dir = mkdtempSync(join(tmpdir(), 'evcal-pgbouncer-'));
  const listen = await freePort();
  const user = options.user ?? 'postgres';
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(join(dir, 'pgbouncer.ini'), [
    '[databases]',
    `* = host=${host} port=${port}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${listen}`,
    `unix_socket_dir = ${dir}`,
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${options.poolSize ?? 3}`,
    'max_client_conn = 500',
    'ignore_startup_parameters = extra_float_digits,options',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    '',
  ].join('\n'));
  // PgBouncer refuses to run as root: started as postgres then.
  const asRoot = process.getuid?.() === 0;
  let ids = {};
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    for (const f of ['', 'users.txt', 'pgbouncer.ini']) chownSync(join(dir, f), uid, gid);
    ids = { uid, gid };
  }
  const child: ChildProcess = spawn(PGBOUNCER, [join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'], ...ids });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
  await waitForPort(listen, child, () => stderr);
  return {
    port: listen,
    via: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(listen);
      return u.toString();
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // SIGTERM: immediate shutdown (SIGINT would wait for every client to leave).
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pgbouncer did not listen on ${port}: ${stderr()}`);
}
