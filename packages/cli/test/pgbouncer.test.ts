// `evcal serve` behind PgBouncer in transaction pooling mode (support/pgbouncer.ts), in front of
// a PostgreSQL cluster of the test's own: servers started together on a new schema all listen
// and leave no lock behind (the migration lock is the migrating transaction's own), and two
// servers writing one event through the pooler lose nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { OWN_CLUSTER, startPgCluster } from './support/pg-cluster';
import { REPO, runCli, tempPath } from './support/processes';
import { HAS_PGBOUNCER, startPgBouncer } from './support/pgbouncer';
import { logHolding, spawnServe, ORIGIN_RE, needBuiltCli, startServe } from './support/serve-process';

needBuiltCli();

const TOKEN = 'pooler-admin-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function pooled(user = 'postgres', prepare?: (cluster: Awaited<ReturnType<typeof startPgCluster>>) => void) {
  const cluster = await startPgCluster();
  onTestFinished(() => cluster.remove());
  prepare?.(cluster);
  // Two server connections for every client: clients share them, as on a managed pooler.
  const bouncer = await startPgBouncer('127.0.0.1', cluster.port, { poolSize: 2, user });
  onTestFinished(() => bouncer.stop());
  const url = (schema: string, database = 'postgres') => {
    const u = new URL(bouncer.via(cluster.url(database)));
    u.username = user;
    return `${u}?schema=${schema}`;
  };
  return { cluster, url };
}

/** Resolves with the origin once the server listens, or with an error after `ms`. */
function listening(child: ReturnType<typeof spawnServe>, ms: number): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening after ${ms} ms:\n${out}`)), ms);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = ORIGIN_RE.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { out += c; });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${out}`));
    });
  });
}

describe.skipIf(!OWN_CLUSTER || !HAS_PGBOUNCER)('evcal serve behind PgBouncer (transaction pooling)', { timeout: 300_000 }, () => {
  it('four servers started at once on a new schema, five rounds: all listen within 30 s and no lock is left behind', async () => {
    const { cluster, url } = await pooled();
    for (let round = 1; round <= 5; round++) {
      const schema = `evcal_pool_${round}`;
      const servers = Array.from({ length: 4 }, () => spawnServe(['--storage', url(schema), '--user', `1:administrator:${TOKEN}`]));
      const origins = await Promise.all(servers.map((s) => listening(s, 30_000)));
      for (const origin of origins) expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      // Every migration recorded once, and nobody holds or waits for an advisory lock.
      expect(Number(cluster.psql(`select count(*) from ${schema}.evcal_migrations`))).toBeGreaterThan(10);
      expect(cluster.psql(`select count(*) from ${schema}.evcal_migrations group by name having count(*) > 1`)).toBe('');
      expect(cluster.psql(`select count(*) from pg_locks where locktype = 'advisory'`)).toBe('0');
      for (const s of servers) s.kill('SIGTERM');
      await Promise.all(servers.map((s) => new Promise((resolve) => (s.exitCode === null ? s.once('exit', resolve) : resolve(null)))));
    }
  });

  it('two servers writing one event through the pooler lose no PATCH, and every answer is 2xx', async () => {
    const { url } = await pooled();
    const storage = url('evcal_pool_patch');
    const a = await startServe(['--storage', storage, '--user', `1:administrator:${TOKEN}`]);
    const b = await startServe(['--storage', storage, '--user', `1:administrator:${TOKEN}`]);
    const created = await fetch(`${a.api}/events`, {
      method: 'POST', headers: AUTH,
      body: JSON.stringify({ title: 'Shared', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00', status: 'publish' }),
    });
    expect(created.status).toBe(201);
    const { id } = await created.json() as { id: number };
    const N = 30;
    const patch = (origin: string, body: unknown) => fetch(`${origin}/events/${id}`, { method: 'PATCH', headers: AUTH, body: JSON.stringify(body) }).then((r) => r.status);
    const statuses = await Promise.all([
      ...Array.from({ length: N }, (_, i) => patch(a.api, { description: `d${i}` })),
      ...Array.from({ length: N }, (_, i) => patch(b.api, { excerpt: `x${i}` })),
      // Each server also adds a category of its own: both must be there at the end.
      patch(a.api, { categories: ['from-a'] }).then(async (s) => [s, await patch(b.api, { tags: ['from-b'] })]),
    ]);
    expect(statuses.flat().filter((s) => s !== 200)).toEqual([]);
    const final = await (await fetch(`${b.api}/events/${id}`, { headers: AUTH })).json() as Record<string, any>;
    expect(final.description.replace(/<[^>]+>/g, '').trim()).toMatch(/^d\d+$/);
    expect(final.excerpt.replace(/<[^>]+>/g, '').trim()).toMatch(/^x\d+$/);
    expect(final.categories.map((c: { slug: string }) => c.slug)).toEqual(['from-a']);
    expect(final.tags.map((t: { slug: string }) => t.slug)).toEqual(['from-b']);
  });

  it('turns prepared statements off at the first one the pooler loses, says so once, and answers every request', async () => {
    const { url } = await pooled();
    const storage = url('evcal_pool_prepared');
    const servers = [await startServe(['--storage', storage, '--user', `1:administrator:${TOKEN}`]), await startServe(['--storage', storage, '--user', `1:administrator:${TOKEN}`])];
    const create = (api: string, i: number) => fetch(`${api}/events`, {
      method: 'POST', headers: AUTH,
      body: JSON.stringify({ title: `Pooled ${i}`, start_date: '2027-05-06 20:00:00', end_date: '2027-05-06 23:00:00', status: 'publish', categories: [`c${i % 3}`] }),
    }).then((r) => r.status);
    const read = (api: string) => fetch(`${api}/events?per_page=5&start_date=2027-01-01`).then((r) => r.status);
    const statuses = await Promise.all(servers.flatMap((s) => Array.from({ length: 20 }, (_, i) => [create(s.api, i), read(s.api)]).flat()));
    expect(statuses.filter((s) => s !== 201 && s !== 200)).toEqual([]);
    const line = 'prepared statements turned off';
    const logs = await Promise.all(servers.map((s) => logHolding(s, [line], 2_000)));
    // Each server met a lost statement (two server connections for twenty clients), and said so once.
    expect(logs.map((log) => log.split(line).length - 1)).toEqual([1, 1]);
    const listed = await (await fetch(`${servers[0]!.api}/events?per_page=50&start_date=2027-01-01`)).json() as { total: number };
    expect(listed.total).toBe(40);
  });

  it('runs as the role docs/operations.md\'s GRANT script makes: serves, and imports in bulk (temporary tables)', async () => {
    const docs = readFileSync(`${REPO}/docs/operations.md`, 'utf8');
    const script = /### The database role[\s\S]*?```sql postgres\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(script).toContain('GRANT');
    const { url } = await pooled('evcal', (cluster) => {
      cluster.psql('CREATE DATABASE evcal');
      // What PostgreSQL gives every role by default, taken away: the script must give it.
      cluster.psql('REVOKE ALL ON DATABASE evcal FROM PUBLIC');
      cluster.psql('REVOKE CREATE ON SCHEMA public FROM PUBLIC', 'evcal');
      cluster.psql(script!, 'evcal');
    });
    const storage = url('calendar', 'evcal');
    // 150 events: an import of more than 100 folds its counts in temporary tables.
    const events = Array.from({ length: 150 }, (_, i) => ({
      title: `Night ${i}`, status: 'publish', categories: [1 + (i % 3)],
      start_date: `2031-05-${String(1 + (i % 28)).padStart(2, '0')} 20:00:00`, end_date: `2031-05-${String(1 + (i % 28)).padStart(2, '0')} 23:00:00`,
    }));
    const dataset = tempPath('dataset.json', JSON.stringify({
      categories: [{ id: 1, name: 'Jazz' }, { id: 2, name: 'Rock' }, { id: 3, name: 'Folk' }], events,
    }));
    const imported = await runCli(['import', dataset, '--storage', storage]);
    expect(imported.stderr + imported.stdout).not.toMatch(/error/i);
    expect(imported.code).toBe(0);
    const server = await startServe(['--storage', storage, '--user', `1:administrator:${TOKEN}`]);
    const list = await (await fetch(`${server.api}/events?start_date=2031-05-01&end_date=2031-05-31&per_page=1`)).json() as { total: number };
    expect(list.total).toBe(150);
    const jazz = await (await fetch(`${server.api}/categories/1`)).json() as { count: number };
    expect(jazz.count).toBe(50);
    const created = await fetch(`${server.api}/events`, {
      method: 'POST', headers: AUTH, body: JSON.stringify({ title: 'More', start_date: '2031-06-01 20:00:00', end_date: '2031-06-01 21:00:00' }),
    });
    expect(created.status).toBe(201);
  });
});
