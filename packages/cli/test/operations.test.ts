// `evcal serve` as operators run it, over real processes: secrets from the environment and a
// config file (never on the command line), accounts and tokens managed with `evcal users` and
// `evcal tokens` and seen at once by every server sharing PostgreSQL, application passwords
// over HTTP Basic, /healthz and /readyz through a PostgreSQL outage, the access log, and a
// graceful stop that lets a slow request finish.
//
// The slow request is a real slow path: a client that uploads its body in two parts, the
// second only after the server was told to stop. The PostgreSQL outage is a TCP proxy between
// evcal and the shared server, closed and opened again, so the server itself keeps running.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from './support/processes';
import { tcpProxy } from './support/tcp-proxy';
import { needBuiltCli, startServe, type Running } from './support/serve-process';

needBuiltCli();

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the PostgreSQL tests of evcal serve operations are skipped.');

const EVENT = { title: 'Gig', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00' };

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-ops-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const postgresStorage = (url = POSTGRES_URL!) => `${url}${url.includes('?') ? '&' : '?'}schema=evcal_ops_${randomBytes(4).toString('hex')}`;

async function call(url: string, init: { method?: string; authorization?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.authorization ? { authorization: init.authorization } : {}),
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const bearer = (token: string) => `Bearer ${token}`;
const basic = (name: string, password: string) => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;

/** Runs `evcal <args>` with the storage in the environment; fails the test on a non-zero exit. */
async function evcal(storage: string, ...args: string[]): Promise<string> {
  const res = await runCli(args, { env: { EVCAL_STORAGE: storage } });
  if (res.code !== 0) throw new Error(`evcal ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
  return res.stdout.trim();
}

/** The JSON log lines a server printed so far (whole lines: the last may still be coming). */
const logLines = (server: Running) => server.stdout().split('\n').slice(0, -1).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, attempts = 100): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const found = await probe();
    if (found !== undefined && found !== false) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('configuration without secrets on the command line', { timeout: 60_000 }, () => {
  it('takes the storage and users from the environment: neither appears in the process\'s command line', async () => {
    const dir = tempDir();
    const storage = `sqlite:${join(dir, 'env-secret.db')}`;
    const token = `env-${randomBytes(12).toString('hex')}`;
    const server = await startServe([], { env: { EVCAL_STORAGE: storage, EVCAL_USER: `1:administrator:${token}` }, memoryByDefault: false });
    const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(token);
    expect(cmdline).not.toContain(storage);
    expect((await call(`${server.api}/events`, { json: EVENT, authorization: bearer(token) })).status).toBe(201);
    expect(JSON.parse(await evcal(storage, 'export')).events).toHaveLength(1);
  });

  it('takes them from a TOML config file; flags win over the environment, which wins over the file', async () => {
    const dir = tempDir();
    const token = `file-${randomBytes(12).toString('hex')}`;
    const config = join(dir, 'evcal.toml');
    writeFileSync(config, [
      `storage = "sqlite:${join(dir, 'file-secret.db')}"`,
      `user = ["1:administrator:${token}"]`,
      'timezone = "Asia/Tokyo"',
      'default-per-page = 3',
      '',
    ].join('\n'));
    chmodSync(config, 0o600);
    const server = await startServe(['--config', config], { env: { EVCAL_TIMEZONE: 'Europe/Rome' }, memoryByDefault: false });
    const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(token);
    expect(cmdline).not.toContain('file-secret.db');
    expect(server.stderr()).not.toMatch(/warning/);
    for (let i = 0; i < 4; i++) {
      const created = await call(`${server.api}/events`, { json: { ...EVENT, status: 'publish' }, authorization: bearer(token) });
      expect(created.json.timezone).toBe('Europe/Rome'); // the environment over the file
    }
    expect((await call(`${server.api}/events?start_date=2031-01-01&end_date=2031-12-31`)).json.events).toHaveLength(3); // the file over the default
    const flagged = await startServe(['--config', config, '--timezone', 'UTC'], { env: { EVCAL_TIMEZONE: 'Europe/Rome' }, memoryByDefault: false });
    expect((await call(`${flagged.api}/events`, { json: EVENT, authorization: bearer(token) })).json.timezone).toBe('UTC');
  });

  it.each<[string, string, Record<string, string>, RegExp]>([
    ['an unknown key', 'evcal.json', { json: '{"prot": 8080}' }, /evcal\.json: unknown key "prot"/],
    ['a value of the wrong type', 'evcal.toml', { toml: 'port = "eighty"' }, /evcal\.toml: port must be an integer >= 0/],
    ['TOML that does not parse', 'evcal.toml', { toml: 'port = = 1' }, /evcal\.toml: not valid TOML/],
    ['a bad variable', '', { env: 'EVCAL_PORT=abc' }, /EVCAL_PORT must be an integer >= 0, got "abc"/],
    ['a bad boolean variable', '', { env: 'EVCAL_TRUST_PROXY=maybe' }, /EVCAL_TRUST_PROXY must be true or false/],
  ])('refuses %s with a message naming it', async (_what, file, source, message) => {
    const dir = tempDir();
    // No --port: a flag would win over EVCAL_PORT. Each case is refused before listening.
    const args = ['serve', '--storage', 'memory'];
    if (file) {
      writeFileSync(join(dir, file), source.json ?? source.toml!);
      args.push('--config', join(dir, file));
    }
    const [name, value] = (source.env ?? '=').split('=');
    const res = await runCli(args, { env: name ? { [name]: value! } : {} });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it('warns when a config file with secrets may be read by other users', async () => {
    const dir = tempDir();
    const config = join(dir, 'evcal.json');
    writeFileSync(config, JSON.stringify({ user: ['1:administrator:shared-secret'] }));
    chmodSync(config, 0o644);
    const server = await startServe(['--config', config]);
    expect(server.stderr()).toContain(`chmod 600 ${config}`);
  });
});

describe('accounts and tokens', { timeout: 60_000 }, () => {
  it('lets an application password over HTTP Basic create an event, and refuses wrong ones as WordPress does', async () => {
    const storage = `sqlite:${join(tempDir(), 'accounts.db')}`;
    expect(await evcal(storage, 'users', 'add', 'ada', '--role', 'editor', '--id', '12')).toContain('added user 12');
    const password = await evcal(storage, 'tokens', 'create', '--user', 'ada', '--basic', '--label', 'desktop app');
    expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(await evcal(storage, 'tokens', 'list')).not.toContain(password.replace(/ /g, '').slice(0, 8));
    const server = await startServe(['--storage', storage]);
    const created = await call(`${server.api}/events`, { json: EVENT, authorization: basic('ada', password) });
    expect(created.status).toBe(201);
    expect(created.json.author).toBe('12');
    // An author named by id is looked up inside the write's transaction (SQLite has one connection).
    const venue = await call(`${server.api}/venues`, { json: { venue: 'Hall', author: 12 }, authorization: basic('ada', password) });
    expect(venue.status).toBe(201);
    expect((await call(`${server.api}/venues`, { json: { venue: 'Annex', author: 99 }, authorization: basic('ada', password) })).json)
      .toMatchObject({ code: 'rest_invalid_param', data: { params: { author: expect.any(String) } } });
    expect(await call(`${server.api}/events`, { authorization: basic('ada', 'abcd efgh ijkl mnop qrst uvwx') }))
      .toMatchObject({ status: 401, json: { code: 'incorrect_password' } });
    expect(await call(`${server.api}/events`, { authorization: basic('nobody', password) }))
      .toMatchObject({ status: 401, json: { code: 'invalid_username' } });
    // Five failures from one address so far? Three more make five; then it must wait.
    for (let i = 0; i < 3; i++) expect((await call(`${server.api}/events`, { authorization: basic('ada', 'wrong') })).status).toBe(401);
    const slowed = await call(`${server.api}/events`, { authorization: basic('ada', password) });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(`${server.api}/events`)).status).toBe(200);
  });

  describe.skipIf(!POSTGRES_URL)('on PostgreSQL shared by two servers', () => {
    it('sees a revoked token and a changed role on the next request, on both', async () => {
      const storage = postgresStorage();
      await evcal(storage, 'users', 'add', 'grace', '--role', 'editor');
      const token = await evcal(storage, 'tokens', 'create', '--user', 'grace', '--expires', '30d');
      const [a, b] = [await startServe(['--storage', storage]), await startServe(['--storage', storage])];
      for (const server of [a, b]) expect((await call(`${server.api}/tags`, { json: { name: `t${server.origin.slice(-5)}` }, authorization: bearer(token) })).status).toBe(201);
      await evcal(storage, 'users', 'set-role', 'grace', 'subscriber');
      expect((await call(`${b.api}/tags`, { json: { name: 'After the change' }, authorization: bearer(token) })).status).toBe(403);
      const [id] = (await evcal(storage, 'tokens', 'list', '--json')).match(/[0-9a-f]{12}/)!;
      expect(await evcal(storage, 'tokens', 'revoke', id!)).toContain(`revoked token ${id}`);
      for (const server of [b, a]) {
        expect(await call(`${server.api}/events`, { authorization: bearer(token) })).toMatchObject({ status: 401, json: { code: 'rest_invalid_token' } });
      }
    });
  });
});

describe('health, logs and stopping', { timeout: 60_000 }, () => {
  it('answers /healthz and /readyz outside the API, whatever its base path, and logs each request as a JSON line', async () => {
    const server = await startServe(['--base-path', '/wp-json', '--user', '1:administrator:tok-admin']);
    expect(await call(`${server.origin}/healthz`)).toMatchObject({ status: 200, json: { status: 'ok' } });
    expect(await call(`${server.origin}/readyz`)).toMatchObject({ status: 200, json: { status: 'ready' } });
    const given = await call(`${server.origin}/wp-json/cal/events/v1/events?password=hunter2&_wpnonce=n0nce&page=1`, {
      authorization: bearer('tok-admin'), headers: { 'x-request-id': 'trace-42' },
    });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    const generated = (await call(`${server.origin}/healthz`)).headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    // Every kind of answer carries one: the page, a 304 of the API, an API error.
    const page = await fetch(`${server.origin}/`);
    expect(page.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const etag = given.headers.get('etag')!;
    const unchanged = await fetch(`${server.origin}/wp-json/cal/events/v1/events?password=hunter2&_wpnonce=n0nce&page=1`, {
      headers: { authorization: bearer('tok-admin'), 'if-none-match': etag, 'x-request-id': 'trace-304' },
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('x-request-id')).toBe('trace-304');
    expect((await call(`${server.origin}/wp-json/cal/events/v1/nowhere`, { headers: { 'x-request-id': 'trace-404' } })).headers.get('x-request-id')).toBe('trace-404');
    const line = await waitFor('the log line', () => logLines(server).find((l) => l.request_id === 'trace-42'));
    expect(line).toMatchObject({
      level: 'info', msg: 'request', method: 'GET', status: 200, user_id: 1, address: '127.0.0.1',
      path: '/wp-json/cal/events/v1/events?password=REDACTED&_wpnonce=REDACTED&page=1',
    });
    expect(typeof line.duration_ms).toBe('number');
    expect(new Date(line.time).toISOString()).toBe(line.time);
    expect(server.stdout()).not.toContain('hunter2');
    expect(await waitFor('the generated id', () => logLines(server).find((l) => l.request_id === generated))).toMatchObject({ user_id: null });
  });

  it('announces that it listens at every log level, and logs no request below info', async () => {
    const server = await startServe(['--log-level', 'error']);
    expect((await call(`${server.origin}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(logLines(server).map((l) => l.msg)).toEqual([expect.stringMatching(/^evcal listening on http:\/\/127\.0\.0\.1:\d+$/)]);
  });

  it('lets a request in flight finish after SIGTERM, refuses new connections, then exits 0', async () => {
    const file = join(tempDir(), 'slow.db');
    const server = await startServe(['--storage', `sqlite:${file}`, '--user', '1:administrator:tok-admin', '--log-level', 'debug']);
    const body = JSON.stringify({ ...EVENT, title: 'Finished after SIGTERM' });
    const { port } = new URL(server.origin);
    const socket = connect(Number(port), '127.0.0.1');
    const answer = readAll(socket);
    socket.write(['POST /cal/events/v1/events HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Authorization: Bearer tok-admin',
      'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'X-Request-Id: slow-upload', '', body.slice(0, 20)].join('\r\n'));
    await waitFor('the request to start', () => logLines(server).some((l) => l.msg === 'request started' && l.request_id === 'slow-upload'));
    server.child.kill('SIGTERM');
    await waitFor('the server to stop listening', () => logLines(server).some((l) => l.msg === 'stopping'));
    await expect(fetch(`${server.origin}/healthz`)).rejects.toThrow();
    socket.end(body.slice(20));
    const response = await answer;
    expect(response).toMatch(/^HTTP\/1\.1 201 /);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(await server.exited).toBe(0);
    expect(logLines(server).map((l) => l.msg).slice(-2)).toEqual(['request', 'stopped']);
    const saved = JSON.parse(await evcal(`sqlite:${file}`, 'export')) as { events: { title: string }[] };
    expect(saved.events.map((e) => e.title)).toEqual(['Finished after SIGTERM']);
  });

  it('cuts a request that outlives --shutdown-timeout, then exits 0', async () => {
    const server = await startServe(['--user', '1:administrator:tok-admin', '--shutdown-timeout', '1', '--log-level', 'debug']);
    const { port } = new URL(server.origin);
    const socket = connect(Number(port), '127.0.0.1');
    const answer = readAll(socket);
    socket.write(`POST /cal/events/v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: never-ends\r\n\r\n{`);
    await waitFor('the request to start', () => logLines(server).some((l) => l.request_id === 'never-ends'));
    server.child.kill('SIGTERM');
    expect(await answer).toBe('');
    expect(await server.exited).toBe(0);
    expect(logLines(server).map((l) => l.msg)).toContain('shutdown deadline passed: cutting the requests still in flight');
  });

  describe.skipIf(!POSTGRES_URL)('/readyz through a PostgreSQL outage', () => {
    it('fails while PostgreSQL cannot be reached, and recovers when it can again', async () => {
      const target = new URL(POSTGRES_URL!);
      const proxy = await tcpProxy(target.hostname, Number(target.port || 5432));
      onTestFinished(() => proxy.close());
      const viaProxy = new URL(POSTGRES_URL!);
      viaProxy.port = String(proxy.port);
      const server = await startServe(['--storage', postgresStorage(viaProxy.toString())]);
      expect(await call(`${server.origin}/readyz`)).toMatchObject({ status: 200, json: { status: 'ready' } });

      await proxy.close();
      expect(await call(`${server.origin}/readyz`)).toMatchObject({ status: 503, json: { status: 'unavailable', reason: 'unreachable' } });
      expect((await call(`${server.origin}/healthz`)).status).toBe(200);
      expect(await call(`${server.api}/events`)).toMatchObject({ status: 503, json: { code: 'rest_service_unavailable' } });

      await proxy.open();
      await waitFor('readiness', async () => (await call(`${server.origin}/readyz`)).status === 200);
      expect((await call(`${server.api}/events`)).status).toBe(200);
      // Log lines are written in batches (at most 100 ms after they are logged): wait for the last.
      const logged = await waitFor('the storage ready line', () => {
        const msgs = logLines(server).map((l) => l.msg);
        return msgs.includes('storage not ready') && msgs.lastIndexOf('storage ready') > msgs.indexOf('storage not ready') ? msgs : undefined;
      }).catch(() => logLines(server).map((l) => l.msg));
      expect(logged).toContain('storage not ready');
      expect(logged.lastIndexOf('storage ready')).toBeGreaterThan(logged.indexOf('storage not ready'));
    });
  });
});

/** Everything a socket receives until it closes. */
function readAll(socket: Socket): Promise<string> {
  let text = '';
  socket.setEncoding('utf8').on('data', (c: string) => { text += c; });
  return new Promise((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
}
