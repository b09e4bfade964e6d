// `evcal serve` on a PostgreSQL that fails under it, as operators see it: a cluster of the
// test's own (support/pg-cluster.ts), restarted, stopped and its backends terminated while
// several clients write. The server must stay up, answer 503 with Retry-After for what the
// fault cut, never lose a write it answered 2xx, and write again without a restart.
import { describe, expect, it, onTestFinished } from 'vitest';
import { OWN_CLUSTER, startPgCluster, type PgCluster } from './support/pg-cluster';
import { logHolding, needBuiltCli, startServe, type Running } from './support/serve-process';
import { tcpProxy } from './support/tcp-proxy';

needBuiltCli();

const TOKEN = 'pg-faults-admin-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function ownCluster(): Promise<PgCluster> {
  const cluster = await startPgCluster();
  onTestFinished(() => cluster.remove());
  return cluster;
}

async function serveOn(storage: string): Promise<Running> {
  return startServe(['--storage', storage, '--user', `1:administrator:${TOKEN}`]);
}

interface Answer { status: number; json: any; retryAfter: string | null }

async function post(server: Running, title: string): Promise<Answer> {
  const res = await fetch(`${server.api}/events`, {
    method: 'POST', headers: AUTH,
    body: JSON.stringify({ title, start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00' }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after') };
}

async function get(url: string): Promise<Answer> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after') };
}

async function waitFor(what: string, probe: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Clients that create events one after another until stopped; what each answer was. */
function writers(server: Running, count: number) {
  let running = true;
  const answers: Answer[] = [];
  const cut: string[] = [];
  let n = 0;
  const loops = Array.from({ length: count }, async (_, w) => {
    while (running) {
      try {
        answers.push(await post(server, `w${w}-${n++}`));
      } catch (error) {
        // The server never cuts a request: the only reason to get here is a crash.
        cut.push(String((error as Error).cause ?? error));
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });
  return {
    answers, cut,
    /** Waits until `k` more answers have come back. */
    async more(k: number) {
      const target = answers.length + k;
      await waitFor(`${k} more answers`, async () => answers.length >= target);
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe.skipIf(!OWN_CLUSTER)('evcal serve on a PostgreSQL that fails', { timeout: 120_000 }, () => {
  it('keeps serving through restarts and terminated backends under concurrent writers, losing no write it answered', async () => {
    const cluster = await ownCluster();
    const server = await serveOn(cluster.url());
    const load = writers(server, 6);
    // Each fault while the writers go on sending (the live forms do not stop this process):
    // writes arrive while the database is down, and are in flight when it goes.
    await load.more(30);
    await cluster.restartLive('fast');
    await load.more(30);
    expect(await cluster.terminateBackendsLive()).toBeGreaterThan(0);
    await load.more(30);
    await cluster.restartLive('immediate');
    await load.more(30);
    await load.stop();

    expect(server.child.exitCode).toBeNull();
    expect(load.cut).toEqual([]);
    const statuses = new Set(load.answers.map((a) => a.status));
    expect([...statuses].every((s) => s === 201 || s === 503), `statuses ${[...statuses]}`).toBe(true);
    const refused = load.answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(['rest_service_unavailable', 'rest_write_outcome_unknown']).toContain(a.json.code);
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    // Every write answered 201 is there.
    const created = load.answers.filter((a) => a.status === 201).map((a) => a.json.id as number);
    expect(created.length).toBeGreaterThan(60);
    const stored = new Set<number>();
    for (let page = 1; ; page++) {
      const list = await get(`${server.api}/events?per_page=50&page=${page}&start_date=2031-05-01&end_date=2031-05-31&status=publish`);
      expect(list.status).toBe(200);
      for (const e of list.json.events) stored.add(e.id);
      if (page >= list.json.total_pages) break;
    }
    expect(created.filter((id) => !stored.has(id))).toEqual([]);
    // And the server writes again, without a restart.
    expect((await post(server, 'after')).status).toBe(201);
    // The log says what happened.
    expect(await logHolding(server, ['storage connection lost'])).toContain('storage connection lost');
  });

  it('answers 503 while the database is down, /readyz too, and recovers by itself when it is back', async () => {
    const cluster = await ownCluster();
    const server = await serveOn(cluster.url());
    expect((await post(server, 'before')).status).toBe(201);
    cluster.stop('fast');
    const ready = await get(`${server.origin}/readyz`);
    expect(ready).toMatchObject({ status: 503, json: { status: 'unavailable' } });
    const read = await get(`${server.api}/events`);
    expect(read).toMatchObject({ status: 503, json: { code: 'rest_service_unavailable' } });
    expect(Number(read.retryAfter)).toBeGreaterThan(0);
    const write = await post(server, 'while down');
    expect(write).toMatchObject({ status: 503, json: { code: 'rest_service_unavailable' } });
    cluster.start();
    await waitFor('readiness', async () => (await get(`${server.origin}/readyz`)).status === 200);
    expect((await post(server, 'after')).status).toBe(201);
    expect(server.child.exitCode).toBeNull();
  });

  it('says a write whose commit was cut off may or may not have been saved (rest_write_outcome_unknown)', async () => {
    const cluster = await ownCluster();
    const proxy = await tcpProxy('127.0.0.1', cluster.port);
    onTestFinished(() => proxy.close());
    const server = await serveOn(`postgres://postgres@127.0.0.1:${proxy.port}/postgres`);
    expect((await post(server, 'before')).status).toBe(201);
    // The next COMMIT never reaches the database: its connection is cut on the way.
    proxy.cutWhen((chunk) => chunk.includes('commit\0'));
    const cut = await post(server, 'cut');
    proxy.cutWhen(undefined);
    expect(cut).toMatchObject({ status: 503, json: { code: 'rest_write_outcome_unknown', data: { status: 503 } } });
    expect(Number(cut.retryAfter)).toBeGreaterThan(0);
    // This time it was not kept (the database rolled it back), and the next write works.
    expect((await post(server, 'after')).status).toBe(201);
    const titles = (await get(`${server.api}/events?start_date=2031-05-01&end_date=2031-05-31`)).json.events.map((e: { title: string }) => e.title);
    expect(titles.sort()).toEqual(['after', 'before']);
  });
});
