// A PostgreSQL hot standby is a read-only evcal: `evcal serve` on it starts when its schema is
// current (checked, never migrated), answers reads, refuses writes with 503 rest_read_only
// (translated, with Retry-After) and says so on /readyz; with a schema behind this evcal it says
// so and exits; `evcal export` works from it. A primary and a streaming standby of the test's
// own (pg-cluster.ts).
import { describe, expect, it, onTestFinished } from 'vitest';
import { OWN_CLUSTER, startPgCluster, startStandby, type PgCluster } from './support/pg-cluster';
import { runCli, tempPath } from './support/processes';
import { needBuiltCli, spawnServe, startServe } from './support/serve-process';

needBuiltCli();

const TOKEN = 'standby-admin-token-0123456789';
const EVENT = { title: 'Gig', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00', status: 'publish' };
const schemaOf = (cluster: PgCluster) => `${cluster.url()}?schema=cal`;

async function primaryWithCalendar(): Promise<PgCluster> {
  const primary = await startPgCluster();
  onTestFinished(() => primary.remove());
  const dataset = tempPath('dataset.json', JSON.stringify({ venues: [{ id: 3, venue: 'Hall' }], events: [{ id: 7, ...EVENT, venue: [3] }] }));
  const res = await runCli(['import', dataset, '--storage', schemaOf(primary)]);
  expect(res.code, res.stderr).toBe(0);
  return primary;
}

describe.skipIf(!OWN_CLUSTER)('evcal on a PostgreSQL hot standby', { timeout: 120_000 }, () => {
  it('serves reads, refuses writes with 503 rest_read_only, and exports', async () => {
    const primary = await primaryWithCalendar();
    const standby = await startStandby(primary);
    onTestFinished(() => standby.remove());
    await standby.caughtUp();

    const server = await startServe(['--storage', schemaOf(standby), '--user', `1:administrator:${TOKEN}`, '--languages', 'en,de']);
    const list = await fetch(`${server.api}/events?start_date=2031-05-01&end_date=2031-05-31`);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { events: { id: number; venue: { id: number } }[] }).events.map((e) => [e.id, e.venue.id])).toEqual([[7, 3]]);
    expect((await fetch(`${server.api}/events/7`)).status).toBe(200);

    const write = (root: string) => fetch(`${root}/events`, {
      method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(EVENT),
    });
    const refused = await write(server.api);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const english = (await refused.json()) as { code: string; message: string };
    expect(english.code).toBe('rest_read_only');
    const german = (await (await write(server.api.replace('/cal/events/v1', '/de/cal/events/v1'))).json()) as { code: string; message: string };
    expect(german.code).toBe('rest_read_only');
    expect(german.message).not.toBe(english.message);
    expect(await (await fetch(`${server.origin}/readyz`)).json()).toMatchObject({ status: 'ready', writable: false, reason: 'read_only' });
    // Nothing was written anywhere, and the server goes on.
    expect(primary.psql('SELECT count(*) FROM cal.evcal_events')).toBe('1');
    expect(server.child.exitCode).toBeNull();

    const fromStandby = await runCli(['export', '--storage', schemaOf(standby)]);
    const fromPrimary = await runCli(['export', '--storage', schemaOf(primary)]);
    expect(fromStandby.code, fromStandby.stderr).toBe(0);
    expect(JSON.parse(fromStandby.stdout)).toEqual(JSON.parse(fromPrimary.stdout));
  });

  it('with a schema behind this evcal, says so and exits non-zero', async () => {
    const primary = await primaryWithCalendar();
    // The primary as an older evcal left it: its last migration not recorded.
    primary.psql("DELETE FROM cal.evcal_migrations WHERE name = (SELECT max(name) FROM cal.evcal_migrations)");
    const standby = await startStandby(primary);
    onTestFinished(() => standby.remove());
    await standby.caughtUp();
    const child = spawnServe(['--storage', schemaOf(standby)]);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/hot standby \(read-only\) and schema "cal" is behind this evcal: 1 migration not applied \(0\d{3}_[a-z_]+\); migrate the primary/);
    // Checked, not migrated: the standby is as it was.
    expect(standby.psql('SELECT count(*) FROM cal.evcal_migrations')).toBe(primary.psql('SELECT count(*) FROM cal.evcal_migrations'));
  });
});
