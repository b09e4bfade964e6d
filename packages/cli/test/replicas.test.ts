// `evcal serve --read-replica`: two servers on a PostgreSQL primary with a streaming hot standby
// of the test's own (pg-cluster.ts). With the standby's replay paused (`pg_wal_replay_pause()`),
// what it serves is visibly behind: anonymous reads are served from it until it is over
// --replica-max-lag, then from the primary; a writer reads its own write through the other
// server (Evcal-Position); a validator the replica has not reached is never answered 304 by it,
// nor with its older state; a replica that goes away is skipped until it answers again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_CLUSTER, startPgCluster, startStandby, type PgCluster, type PgStandby } from './support/pg-cluster';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, needBuiltCli, startServe, type Running } from './support/serve-process';

needBuiltCli();

const TOKEN = 'replica-admin-token-0123456789';
const MAX_LAG_SECONDS = 4;
const EVENT = { title: 'Original', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00', status: 'publish' };

let primary: PgCluster;
let standby: PgStandby;
const storageOf = (cluster: PgCluster) => `${cluster.url()}?schema=cal`;

beforeAll(async () => {
  if (!OWN_CLUSTER) return;
  primary = await startPgCluster();
  const dataset = join(primary.dir, 'dataset.json');
  writeFileSync(dataset, JSON.stringify({ events: [{ id: 7, ...EVENT }] }));
  const res = spawnSync(process.execPath, [CLI, 'import', dataset, '--storage', storageOf(primary)], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(res.stderr);
  standby = await startStandby(primary);
  await standby.caughtUp();
}, 120_000);

afterAll(() => {
  standby?.remove();
  primary?.remove();
});

async function servers(): Promise<[Running, Running]> {
  const args = ['--storage', storageOf(primary), '--read-replica', standby.url(), '--replica-max-lag', String(MAX_LAG_SECONDS), '--user', `1:administrator:${TOKEN}`];
  return [await startServe(args), await startServe(args)];
}

interface Read {
  readonly status: number;
  readonly title?: string;
  readonly etag: string | null;
}

async function read(server: Running, path: string, headers: Record<string, string> = {}): Promise<Read> {
  const res = await fetch(`${server.api}${path}`, { headers });
  const body = res.status === 200 ? ((await res.json()) as { title?: string; events?: { title: string }[] }) : undefined;
  return { status: res.status, title: body?.title ?? body?.events?.[0]?.title, etag: res.headers.get('etag') };
}

async function rename(server: Running, title: string): Promise<{ position: string; cookie: string }> {
  const res = await fetch(`${server.api}/events/7`, {
    method: 'PATCH', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ title }),
  });
  expect(res.status).toBe(200);
  const position = res.headers.get('evcal-position');
  const cookie = res.headers.get('set-cookie');
  expect(position).toMatch(/^\d+$/);
  expect(cookie).toMatch(new RegExp(`^evcal_position=${position}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax$`));
  return { position: position!, cookie: cookie!.split(';')[0]! };
}

/** Reads until `done` holds (at most `ms`), returning the last read. */
async function until(readOnce: () => Promise<Read>, done: (r: Read) => boolean, ms = 30_000): Promise<Read> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await readOnce();
    if (done(r) || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const LIST = '/events?start_date=2031-05-01&end_date=2031-05-31';

/** Waits until the server's last look at its replica found it answering, within the lag allowed (/readyz). */
async function replicaInUse(server: Running): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = (await (await fetch(`${server.origin}/readyz`)).json()) as { replicas: { up: boolean; lag_ms: number | null }[] };
    if (ready.replicas[0]!.up && ready.replicas[0]!.lag_ms !== null && ready.replicas[0]!.lag_ms < 1_000) return;
    if (Date.now() > deadline) throw new Error(`the replica is not in use: ${JSON.stringify(ready)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!OWN_CLUSTER)('evcal serve with a read replica', { timeout: 180_000 }, () => {
  it('serves anonymous reads from the replica within the lag, then from the primary; writers read their writes; no wrong 304', async () => {
    const [a, b] = await servers();
    const before = await read(b, '/events/7');
    standby.pauseReplay();
    try {
      const written = await rename(a, 'Renamed');
      // Anonymous, on the other server: the replica's state, behind the write.
      expect((await read(b, '/events/7')).title).toBe(before.title);
      // The writer, on the other server, with the position its write returned: its write.
      const own = await read(b, '/events/7', { cookie: written.cookie });
      expect(own.title).toBe('Renamed');
      expect((await read(b, '/events/7', { 'evcal-position': written.position })).title).toBe('Renamed');
      const list = await read(b, LIST, { cookie: written.cookie });
      expect(list.title).toBe('Renamed');
      // Validators the replica has not reached: answered by the primary (304), never by the
      // replica (which would answer 200 with what it has, as if it were current).
      expect((await read(b, '/events/7', { 'if-none-match': own.etag! })).status).toBe(304);
      expect((await read(b, LIST, { 'if-none-match': list.etag! })).status).toBe(304);
      // Once the replica is over the lag allowed, anonymous reads are the primary's.
      const fresh = await until(() => read(b, '/events/7'), (r) => r.title === 'Renamed');
      expect(fresh.title).toBe('Renamed');
      expect((await read(b, LIST)).title).toBe('Renamed');
      // (Each server measures the lag itself: the other one switches within a poll of it.)
      expect((await until(() => read(a, '/events/7'), (r) => r.title === 'Renamed')).title).toBe('Renamed');
      const ready = (await (await fetch(`${b.origin}/readyz`)).json()) as { replicas: { up: boolean; lag_ms: number }[] };
      expect(ready.replicas).toHaveLength(1);
      expect(ready.replicas[0]!.up).toBe(true);
      expect(ready.replicas[0]!.lag_ms).toBeGreaterThan(MAX_LAG_SECONDS * 1000);
    } finally {
      standby.resumeReplay();
    }
    await standby.caughtUp();
    await replicaInUse(b);
    // Caught up, the replica serves again: a write behind a paused replay shows it.
    standby.pauseReplay();
    try {
      await rename(a, 'Renamed again');
      expect((await read(b, '/events/7')).title).toBe('Renamed');
    } finally {
      standby.resumeReplay();
    }
  });

  it('skips a replica that went away, and reads from it again once it answers', async () => {
    const [a, b] = await servers();
    await standby.caughtUp();
    standby.stop('fast');
    try {
      await rename(a, 'While away');
      // Every anonymous read answered, by the primary.
      for (let i = 0; i < 5; i++) expect(await read(b, '/events/7')).toMatchObject({ status: 200, title: 'While away' });
      expect(await read(b, LIST)).toMatchObject({ status: 200, title: 'While away' });
    } finally {
      standby.start();
    }
    await standby.caughtUp();
    await replicaInUse(b);
    standby.pauseReplay();
    try {
      await rename(a, 'Back');
      // Read from again (the replica's paused state, behind the write) once a poll found it answering.
      const seen = await until(() => read(b, '/events/7'), (r) => r.title === 'While away', 20_000);
      expect(seen.title).toBe('While away');
    } finally {
      standby.resumeReplay();
    }
  });
});
