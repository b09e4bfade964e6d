// Idempotency-Key through real `evcal serve` processes (docs/http.md, "Retries") on memory,
// SQLite and PostgreSQL: two POSTs with one key make one event and the second is a replay of
// the first answer; the same key with another body is 422; simultaneous repeats make one
// event (the others 409 or a replay); an expired key writes again; PATCH and DELETE replay;
// two servers on one database never both write for one key; and on PostgreSQL, a 503 (the
// database unreachable) is not kept, so the retry writes. PostgreSQL runs when
// EVCAL_TEST_POSTGRES_URL names a server (skipped with a notice otherwise).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { needBuiltCli, startServe, type Running } from './support/serve-process';

needBuiltCli();

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the PostgreSQL tests of Idempotency-Key through evcal serve are skipped.');

const ADMIN = 'tok-admin';
const USERS = ['--user', `1:administrator:${ADMIN}`];
const EVENT = { title: 'Imported', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00', status: 'publish' };

const postgresUrl = (url = POSTGRES_URL!) => `${url}${url.includes('?') ? '&' : '?'}schema=evcal_idem_${randomBytes(4).toString('hex')}`;
const storages: Array<[string, () => string, boolean]> = [
  ['memory', () => 'memory', true],
  ['sqlite', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evcal-idem-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    return `sqlite:${join(dir, 'calendar.db')}`;
  }, true],
  ['postgres', () => postgresUrl(), Boolean(POSTGRES_URL)],
];

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

async function call(url: string, init: { method?: string; json?: unknown; key?: string } = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${ADMIN}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.key === undefined ? {} : { 'idempotency-key': init.key }),
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** The ids of every event the server has, whatever its status. */
async function eventIds(server: Running): Promise<number[]> {
  const list = await call(`${server.api}/events?status=publish,draft,trash&per_page=50&start_date=2000-01-01`);
  expect(list.status).toBe(200);
  return (list.json.events as { id: number }[]).map((e) => e.id).sort((a, b) => a - b);
}

const replayed = (a: Answer) => a.headers.get('idempotent-replayed') === 'true';

/** The one answer of `answers` (repeats of one keyed write) that wrote; every other is 409 in use or its replay. */
function oneWrite(answers: readonly Answer[]): Answer {
  const written = answers.filter((a) => a.status === 201 && !replayed(a));
  expect(written).toHaveLength(1);
  for (const a of answers) {
    if (a === written[0]) continue;
    if (a.status === 409) expect([a.json.code, a.headers.get('retry-after')]).toEqual(['rest_idempotency_key_in_use', '1']);
    else expect([a.status, replayed(a), a.text]).toEqual([201, true, written[0]!.text]);
  }
  return written[0]!;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const [name, storageUrl, available] of storages) {
  describe.skipIf(!available)(`Idempotency-Key through evcal serve on ${name}`, { timeout: 120_000 }, () => {
    it('two POSTs with one key make one event; the second replays the first answer; another body is 422', async () => {
      const server = await startServe(['--storage', storageUrl(), ...USERS]);
      const key = globalThis.crypto.randomUUID();
      const first = await call(`${server.api}/events`, { json: EVENT, key });
      expect([first.status, replayed(first)]).toEqual([201, false]);
      const second = await call(`${server.api}/events`, { json: EVENT, key: `"${key}"` });
      expect([second.status, replayed(second)]).toEqual([201, true]);
      expect(second.text).toBe(first.text);
      expect(second.json.id).toBe(first.json.id);
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      const other = await call(`${server.api}/events`, { json: { ...EVENT, title: 'Other' }, key });
      expect([other.status, other.json.code]).toEqual([422, 'rest_idempotency_key_reused']);
      const bad = await call(`${server.api}/events`, { json: EVENT, key: 'x'.repeat(256) });
      expect([bad.status, bad.json.code]).toEqual([400, 'rest_invalid_idempotency_key']);
      expect(await eventIds(server)).toEqual([first.json.id]);
    });

    it('simultaneous repeats of one key make one event: one answer writes, the others are 409 or its replay', async () => {
      const server = await startServe(['--storage', storageUrl(), ...USERS]);
      const key = globalThis.crypto.randomUUID();
      const answers = await Promise.all(Array.from({ length: 6 }, () => call(`${server.api}/events`, { json: EVENT, key })));
      expect(await eventIds(server)).toEqual([oneWrite(answers).json.id]);
    });

    it('replays PATCH and DELETE', async () => {
      const server = await startServe(['--storage', storageUrl(), ...USERS]);
      const { json: created } = await call(`${server.api}/events`, { json: EVENT });
      const patch = await call(`${server.api}/events/${created.id}`, { method: 'PATCH', json: { featured: true }, key: 'patch-1' });
      const patchAgain = await call(`${server.api}/events/${created.id}`, { method: 'PATCH', json: { featured: true }, key: 'patch-1' });
      expect([patch.status, patchAgain.status, replayed(patchAgain), patchAgain.text]).toEqual([200, 200, true, patch.text]);
      const del = await call(`${server.api}/events/${created.id}`, { method: 'DELETE', key: 'delete-1' });
      const delAgain = await call(`${server.api}/events/${created.id}`, { method: 'DELETE', key: 'delete-1' });
      expect([del.status, delAgain.status, replayed(delAgain), delAgain.text]).toEqual([200, 200, true, del.text]);
      expect((await call(`${server.api}/events/${created.id}`, { method: 'DELETE' })).status).toBe(410);
    });

    it('writes again once the key has expired (--idempotency-ttl)', async () => {
      const server = await startServe(['--storage', storageUrl(), ...USERS, '--idempotency-ttl', '1']);
      const first = await call(`${server.api}/events`, { json: EVENT, key: 'k' });
      expect(first.status).toBe(201);
      // Past the one second the server keeps the key (its real clock: no --now here).
      await sleep(1_200);
      const later = await call(`${server.api}/events`, { json: EVENT, key: 'k' });
      expect([later.status, replayed(later)]).toEqual([201, false]);
      expect(later.json.id).not.toBe(first.json.id);
      expect(await eventIds(server)).toEqual([first.json.id, later.json.id]);
    });
  });
}

const shared = storages.filter(([name]) => name !== 'memory');
for (const [name, storageUrl, available] of shared) {
  describe.skipIf(!available)(`Idempotency-Key, two evcal serve processes on one ${name} database`, { timeout: 120_000 }, () => {
    it('never both write for one key: one answer writes, the other replays it', async () => {
      const storage = storageUrl();
      const a = await startServe(['--storage', storage, ...USERS]);
      const b = await startServe(['--storage', storage, ...USERS]);
      for (let round = 0; round < 5; round++) {
        const key = globalThis.crypto.randomUUID();
        oneWrite(await Promise.all([a, b, a, b].map((s) => call(`${s.api}/events`, { json: { ...EVENT, title: `Round ${round}` }, key }))));
      }
      expect(await eventIds(a)).toHaveLength(5);
    });

    it('keeps the key across a restart, until it expires (24 hours by default, on the calendar\'s clock)', async () => {
      const storage = storageUrl();
      const before = await startServe(['--storage', storage, ...USERS, '--now', '2026-11-22T06:30:00Z']);
      const first = await call(`${before.api}/events`, { json: EVENT, key: 'nightly-import-1' });
      before.child.kill('SIGTERM');
      await before.exited;
      const sameDay = await startServe(['--storage', storage, ...USERS, '--now', '2026-11-23T06:29:59Z']);
      const again = await call(`${sameDay.api}/events`, { json: EVENT, key: 'nightly-import-1' });
      expect([replayed(again), again.text]).toEqual([true, first.text]);
      sameDay.child.kill('SIGTERM');
      await sameDay.exited;
      const nextDay = await startServe(['--storage', storage, ...USERS, '--now', '2026-11-23T06:30:00Z']);
      const later = await call(`${nextDay.api}/events`, { json: EVENT, key: 'nightly-import-1' });
      expect([later.status, replayed(later)]).toEqual([201, false]);
      expect(await eventIds(nextDay)).toEqual([first.json.id, later.json.id]);
    });
  });
}

describe.skipIf(!POSTGRES_URL)('Idempotency-Key through evcal serve: a 503 is not kept', { timeout: 120_000 }, () => {
  it('answers 503 while PostgreSQL cannot be reached, and the retry with the same key writes', async () => {
    const proxy = await tcpProxy(new URL(POSTGRES_URL!));
    const target = new URL(POSTGRES_URL!);
    target.host = `127.0.0.1:${proxy.port}`;
    const server = await startServe(['--storage', postgresUrl(target.href), ...USERS]);
    expect((await call(`${server.api}/events`, { json: EVENT, key: 'before' })).status).toBe(201);
    await proxy.cut();
    const failed = await call(`${server.api}/events`, { json: { ...EVENT, title: 'Retried' }, key: 'retried' });
    expect([failed.status, failed.json.code]).toEqual([503, 'rest_service_unavailable']);
    await proxy.restore();
    const retry = await call(`${server.api}/events`, { json: { ...EVENT, title: 'Retried' }, key: 'retried' });
    expect([retry.status, replayed(retry)]).toEqual([201, false]);
    const again = await call(`${server.api}/events`, { json: { ...EVENT, title: 'Retried' }, key: 'retried' });
    expect([again.status, replayed(again), again.text]).toEqual([201, true, retry.text]);
    expect(await eventIds(server)).toHaveLength(2);
  });
});

/**
 * A TCP proxy on 127.0.0.1 in front of the PostgreSQL server: `cut()` drops every connection
 * and refuses new ones (the database unreachable), `restore()` listens again on the same port.
 */
async function tcpProxy(upstream: URL): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server;
  let port = 0;
  const listen = () => new Promise<void>((resolve) => {
    server = createServer((client) => {
      const db = connect(Number(upstream.port || 5432), upstream.hostname);
      for (const s of [client, db]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(db).pipe(client);
    });
    server.listen(port, '127.0.0.1', () => {
      port = (server.address() as { port: number }).port;
      resolve();
    });
  });
  await listen();
  const cut = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  };
  onTestFinished(cut);
  return { port, cut, restore: listen };
}
