// `evcal serve` as the conformance suite runs it (../shared/conformance/README.md): a child
// process started with the contract's flags, talked to over real HTTP, stopped with SIGTERM.
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, needBuiltCli, ORIGIN_RE, REPO, spawnServe, startServe } from './support/serve-process';

needBuiltCli();

const USERS = ['1:administrator:tok-admin', '2:editor:tok-editor', '3:author:tok-author', '5:subscriber:tok-subscriber'];
const userArgs = USERS.flatMap((u) => ['--user', u]);

/** Runs `evcal serve` expecting it to stop by itself; a server that starts listening instead is stopped and reported. */
async function runToExit(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; listened: boolean }> {
  const child = spawnServe(args);
  let stdout = '';
  let stderr = '';
  let listened = false;
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    if (!listened && ORIGIN_RE.test(stdout)) {
      listened = true;
      child.kill('SIGKILL');
    }
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  return { code, stdout, stderr, listened };
}

/** Runs the CLI with raw arguments (no `serve` prefix) to completion. */
function runCli(args: readonly string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: REPO, encoding: 'utf8' });
}

function tempFile(name: string, content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-cli-test-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

const seedFile = (dataset: unknown) => tempFile('seed.json', JSON.stringify(dataset));

async function call(url: string, init: { method?: string; token?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const NEW_EVENT = { title: 'Gig', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00' };

/** The clock of runs that list: the default list window is yesterday to 24 months ahead (§10.6). */
const NOW = ['--now', '2026-11-22T06:30:00Z'];

/** `count` published events on consecutive days of January 2027, inside the default window at NOW. */
const events = (count: number) => Array.from({ length: count }, (_, i) => ({
  id: 300 + i, title: `Event ${i}`, status: 'publish', timezone: 'UTC',
  start_date: `2027-01-${String(i + 1).padStart(2, '0')} 20:00:00`, end_date: `2027-01-${String(i + 1).padStart(2, '0')} 23:00:00`,
}));

describe('evcal serve', { timeout: 30_000 }, () => {
  it('prints a line with its origin and serves the API root there', async () => {
    const server = await startServe();
    const line = server.stdout().split('\n').find((l) => l.includes(server.origin));
    expect(line).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(Number(ORIGIN_RE.exec(server.origin)![1])).toBeGreaterThan(0);
    const root = await call(server.api);
    expect(root.status).toBe(200);
    expect(root.json.namespace).toBe('cal/events/v1');
  });

  it('answers request targets the URL parser refuses (`//`) with 404, and keeps serving', async () => {
    const server = await startServe();
    const port = Number(ORIGIN_RE.exec(server.origin)![1]);
    for (const target of ['//', '//:x/cal', '//[/docs']) {
      const head = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(head, target).toMatch(/^HTTP\/1\.1 404 /);
    }
    expect((await call(`${server.api}/events`)).status).toBe(200);
  });

  it('picks a different free port for each server with --port 0', async () => {
    const [a, b] = await Promise.all([startServe(), startServe()]);
    expect(a.origin).not.toBe(b.origin);
    expect((await call(`${a.api}/events`)).status).toBe(200);
    expect((await call(`${b.api}/events`)).status).toBe(200);
  });

  it('keeps what is written with --storage memory', async () => {
    const server = await startServe(['--storage', 'memory', ...userArgs]);
    const created = await call(`${server.api}/events`, { json: NEW_EVENT, token: 'tok-admin' });
    expect(created.status).toBe(201);
    const read = await call(`${server.api}/events/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json.title).toBe('Gig');
  });

  it.each(['json:calendar.json', 'sqlite:calendar.db'])('keeps what is written with --storage %s across a restart', async (url) => {
    const dir = mkdtempSync(join(tmpdir(), 'evcal-cli-test-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const [scheme, file] = url.split(':');
    const storage = ['--storage', `${scheme}:${join(dir, file!)}`];
    const first = await startServe([...storage, ...userArgs]);
    const created = await call(`${first.api}/events`, { json: NEW_EVENT, token: 'tok-admin' });
    expect(created.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await startServe([...storage, ...userArgs]);
    const read = await call(`${second.api}/events/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json.title).toBe('Gig');
  });

  it('gives new events the --timezone site zone', async () => {
    const server = await startServe(['--timezone', 'Europe/Rome', ...userArgs]);
    const created = await call(`${server.api}/events`, { json: NEW_EVENT, token: 'tok-admin' });
    expect(created.status).toBe(201);
    expect(created.json.timezone).toBe('Europe/Rome');
    // 20:00 in Rome in May (CEST, UTC+2) is 18:00 UTC.
    expect(created.json.utc_start_date).toBe('2031-05-06 18:00:00');
  });

  describe('--user id:role:token, repeated', () => {
    it('acts as each user for their bearer token', async () => {
      const server = await startServe(userArgs);
      const asAdmin = await call(`${server.api}/events`, { json: NEW_EVENT, token: 'tok-admin' });
      expect(asAdmin.status).toBe(201);
      expect(asAdmin.json.author).toBe('1');
      const asEditor = await call(`${server.api}/events`, { json: { ...NEW_EVENT, title: 'By the editor' }, token: 'tok-editor' });
      expect(asEditor.status).toBe(201);
      expect(asEditor.json.author).toBe('2');
    });

    it.each([
      { who: 'an administrator', token: 'tok-admin', status: 201 },
      { who: 'an editor', token: 'tok-editor', status: 201 },
      { who: 'an author', token: 'tok-author', status: 403 },
      { who: 'a subscriber', token: 'tok-subscriber', status: 403 },
    ])('gives each token its role: $who creating a tag gets $status', async ({ token, status }) => {
      const server = await startServe(userArgs);
      expect((await call(`${server.api}/tags`, { json: { name: `Tag ${token}` }, token })).status).toBe(status);
    });

    it('refuses anonymous writes with 401 and unknown tokens with 401 rest_invalid_token', async () => {
      const server = await startServe(userArgs);
      const anonymous = await call(`${server.api}/events`, { json: NEW_EVENT });
      expect(anonymous.status).toBe(401);
      expect(anonymous.json.code).toBe('rest_forbidden');
      const unknown = await call(`${server.api}/events`, { token: 'tok-nobody' });
      expect(unknown.status).toBe(401);
      expect(unknown.json.code).toBe('rest_invalid_token');
    });
  });

  it('loads the --seed dataset before it listens', async () => {
    const seed = seedFile({
      categories: [{ id: 10, name: 'Music', slug: 'music', parent: 0, description: '' }],
      tags: [{ id: 20, name: 'Free', slug: 'free' }],
      venues: [{ id: 100, venue: 'Hall', status: 'publish', author: 1, city: 'Rome' }],
      organizers: [{ id: 200, organizer: 'Ada', status: 'publish', email: 'ada@example.com' }],
      events: [{
        id: 300, title: 'Gig', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00', timezone: 'UTC',
        status: 'publish', author: 1, featured: true, categories: [10], tags: [20], venue: [100], organizer: [200],
        post_parent: 0, password: '',
      }],
    });
    const server = await startServe(['--seed', seed, ...userArgs]);
    const event = await call(`${server.api}/events/300`);
    expect(event.status).toBe(200);
    expect(event.json).toMatchObject({ id: 300, title: 'Gig', featured: true, venue: { id: 100, venue: 'Hall' } });
    expect(event.json.organizer.map((o: { id: number }) => o.id)).toEqual([200]);
    expect(event.json.categories.map((c: { id: number }) => c.id)).toEqual([10]);
    // Records created later take ids after the largest seeded one.
    const created = await call(`${server.api}/venues`, { json: { venue: 'Annex' }, token: 'tok-admin' });
    expect(created.status).toBe(201);
    expect(created.json.id).toBeGreaterThan(300);
  });

  it('pages lists by --default-per-page', async () => {
    const server = await startServe([...NOW, '--seed', seedFile({ events: events(5) }), '--default-per-page', '2']);
    const res = await call(`${server.api}/events`);
    expect(res.json.events).toHaveLength(2);
    expect(res.json.total).toBe(5);
    expect(res.json.total_pages).toBe(3);
    expect(new URL(res.json.rest_url).searchParams.get('per_page')).toBe('2');
  });

  it('clamps per_page to --max-per-page', async () => {
    const server = await startServe([...NOW, '--seed', seedFile({ events: events(5) }), '--max-per-page', '3']);
    const res = await call(`${server.api}/events?per_page=10`);
    expect(res.status).toBe(200);
    expect(res.json.events).toHaveLength(3);
    expect(res.json.total_pages).toBe(2);
  });

  it('freezes the clock at --now', async () => {
    const server = await startServe(['--now', '2026-11-22T06:30:00Z', ...userArgs]);
    const list = await call(`${server.api}/events`);
    // The default window starts at the beginning of yesterday (§10.6).
    expect(new URL(list.json.rest_url).searchParams.get('start_date')).toBe('2026-11-21 00:00:00');
    const created = await call(`${server.api}/events`, { json: NEW_EVENT, token: 'tok-admin' });
    expect(created.json.date_utc).toBe('2026-11-22 06:30:00');
  });

  it('answers browsers from each --cors-origin, and no one else', async () => {
    const server = await startServe(['--cors-origin', 'https://app.example', '--cors-origin', 'https://admin.example']);
    const from = (origin: string) => fetch(`${server.api}/events`, { headers: { origin } });
    expect((await from('https://admin.example')).headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect((await from('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.api}/events`, {
      method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('serves each of --languages under its own address, the first also at /cal/events/v1', async () => {
    const server = await startServe(['--languages', 'de,en,fr']);
    const de = await call(`${server.origin}/de/cal/events/v1/events/999999`);
    const en = await call(`${server.origin}/en/cal/events/v1/events/999999`);
    const fallback = await call(`${server.api}/events/999999`);
    expect([de.status, en.status, fallback.status]).toEqual([404, 404, 404]);
    expect(de.json.code).toBe(en.json.code);
    expect(de.headers.get('content-language')).toBe('de');
    expect(fallback.headers.get('content-language')).toBe('de');
    expect(en.json.message).toBe('Event with ID 999999 does not exist.');
    expect(de.json.message).not.toBe(en.json.message);
    expect(fallback.json.message).toBe(de.json.message);
    const list = await call(`${server.origin}/fr/cal/events/v1/venues`);
    expect(list.json.rest_url).toContain('/fr/cal/events/v1/venues');
    const listening = JSON.parse(server.stdout().split('\n').find((l) => l.includes('listening'))!);
    expect(listening.languages.fr).toBe(`${server.origin}/fr/cal/events/v1`);
  });

  it('refuses a client over --rate-limit requests a minute with 429', async () => {
    const server = await startServe(['--rate-limit', '2']);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${server.api}/events`)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('stops with exit code 0 on SIGTERM', async () => {
    const server = await startServe(userArgs);
    expect((await call(`${server.api}/events`)).status).toBe(200); // leaves a keep-alive connection open
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  // The conformance harness sends SIGTERM whenever a scenario ends, possibly right after the
  // listening line; the line announces a server that is ready, signal handling included.
  it('stops with exit code 0 on a SIGTERM sent as soon as it reports listening', async () => {
    const codes: Array<number | null> = [];
    for (let i = 0; i < 5; i++) {
      const server = await startServe();
      server.child.kill('SIGTERM');
      codes.push(await server.exited);
    }
    expect(codes).toEqual([0, 0, 0, 0, 0]);
  });

  describe('help', () => {
    it.each([[['serve', '--help']], [['serve', '-h']], [['help', 'serve']]])('%j exits 0 and shows the flags and examples', (args) => {
      const res = runCli(args);
      expect(res.status).toBe(0);
      expect(res.stdout).toContain('Examples');
      expect(res.stdout).toMatch(/evcal serve .*--port 0/);
      for (const flag of ['--host', '--port', '--storage', '--timezone', '--user', '--seed', '--default-per-page', '--max-per-page', '--now']) {
        expect(res.stdout).toContain(flag);
      }
    });
  });

  describe('refusals', () => {
    it.each([
      ['json:', /json/i],
      ['sqlite:', /sqlite/i],
      // The parent of the file is a regular file: the database cannot be created.
      ['sqlite:/etc/hostname/calendar.db', /sqlite/i],
      ['postgres://evcal:s3cret-pw@127.0.0.1:1/cal?schema=t1', /postgres/i],
      ['postgres://evcal:s3cret-pw@127.0.0.1:1/cal?schema=not-an-identifier', /schema/i],
      ['redis://127.0.0.1', /storage/i],
    ])('--storage %s: a clear error and a non-zero exit', async (url, mention) => {
      const res = await runToExit(['--storage', url]);
      expect(res.listened).toBe(false);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/storage/i);
      expect(res.stderr).toMatch(mention);
      expect(res.stderr).not.toContain('s3cret-pw');
    });

    it('a --user token too short to be a secret: refused at start, the token not echoed', async () => {
      const res = await runToExit(['--user', '1:administrator:tok-admin', '--user', '2:editor:short']);
      expect(res.listened).toBe(false);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('--user 2:editor:…: the token has 5 characters, fewer than 8');
      expect(res.stderr).not.toContain('short');
    });

    it.each(['alice', '1:administrator', '1:administrator:', 'x:administrator:tok', '1:wizard:tok', ':editor:tok'])(
      'a malformed --user %j: a clear error and a non-zero exit',
      async (spec) => {
        const res = await runToExit(['--user', '1:administrator:tok-admin', '--user', spec]);
        expect(res.listened).toBe(false);
        expect(res.code).not.toBe(0);
        expect(res.stderr).toContain('--user');
        expect(res.stderr).toContain(spec);
      },
    );

    it.each<[string, () => string, RegExp]>([
      ['an event without a title', () => seedFile({ events: [{ id: 1, start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00' }] }), /title/],
      ['a link to a venue not in the dataset', () => seedFile({ events: [{ ...NEW_EVENT, id: 1, venue: [99] }] }), /venue/],
      ['an invalid time zone', () => seedFile({ events: [{ ...NEW_EVENT, id: 1, timezone: 'Mars/Phobos' }] }), /timezone/],
      ['a list instead of an object', () => seedFile([{ title: 'x' }]), /dataset/i],
      ['text that is not JSON', () => tempFile('seed.json', 'not json'), /JSON/],
      ['a file that does not exist', () => join(tmpdir(), 'evcal-cli-test-no-such-seed.json'), /no such file|ENOENT|not found/i],
    ])('an invalid --seed (%s): a message and a non-zero exit', async (_name, file, mention) => {
      const res = await runToExit(['--seed', file()]);
      expect(res.listened).toBe(false);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(mention);
    });

    it.each([
      ['--timezone', 'Mars/Phobos'],
      ['--port', 'abc'],
      ['--port', '-1'],
      ['--default-per-page', '0'],
      ['--max-per-page', 'many'],
      ['--now', 'tomorrow-ish'],
      ['--rate-limit', '0'],
      ['--cors-origin', 'app.example'],
      ['--languages', 'en,xx'],
      ['--languages', 'de,de'],
      ['--cors-origin', 'https://app.example/path'],
    ])('%s=%s: a clear error and a non-zero exit', async (flag, value) => {
      const res = await runToExit([`${flag}=${value}`]);
      expect(res.listened).toBe(false);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain(value);
    });

    it('an unknown flag: an error and a non-zero exit', async () => {
      const res = await runToExit(['--frobnicate']);
      expect(res.listened).toBe(false);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('--frobnicate');
    });
  });
});

/** The status line of the answer to a request written byte for byte (fetch would normalise the target). */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}
