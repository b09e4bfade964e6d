// evcal migrate end to end: a source `evcal serve` in the reference's address layout
// (--base-path /wp-json --namespace tribe/events/v1) moved into each storage; then every
// read a client makes of a target served in the same layout (pretty and ?rest_route= forms)
// equals the source's, a second run changes nothing, and an interrupted run resumes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createCalendar } from '@evcal/core';
import { migrateFromReference, type MigrationReport } from '@evcal/migrate';
import { bearerTokens, createFetchHandler } from '@evcal/http';
import { toNodeHandler } from '@evcal/http/node';
import { createMemoryStorage } from '@evcal/memory';
import { openStorage } from '../src/storage-url';
import { ensureBuilt, runCli, startServe, tempPath, type ServeProcess } from './support/processes';
import { ADMIN_TOKEN, API_PATH, clientReads, expectSameReads, LAYOUT, NOW, sampleReads, sourceDataset } from './support/source-site';

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: evcal migrate into PostgreSQL is not tested.');

const SERVE_ARGS = [...LAYOUT, '--now', NOW, '--user', `1:administrator:${ADMIN_TOKEN}`];
const CREDENTIALS = ['--user', 'admin'];
const ENV = { EVCAL_SOURCE_PASSWORD: ADMIN_TOKEN };
const DATASET = sourceDataset();
const READS = clientReads(DATASET);

beforeAll(ensureBuilt, 300_000);

async function startSource(): Promise<ServeProcess> {
  return startServe(['--storage', 'memory', '--seed', tempPath('site.json', JSON.stringify(DATASET)), ...SERVE_ARGS]);
}

/** Runs `evcal migrate --json` from the source into a storage, with an administrator's credentials. */
async function migrateCli(from: string, storage: string, extra: readonly string[] = [], killWhen?: (stderr: string) => boolean) {
  const result = await runCli(['migrate', '--from', from, '--storage', storage, ...CREDENTIALS, '--find-hidden', '--json', ...extra], { env: ENV, ...(killWhen ? { killWhen } : {}) });
  const report = result.code === 0 || result.code === 1 ? (JSON.parse(result.stdout) as MigrationReport) : undefined;
  return { ...result, report };
}

function expectComplete(report: MigrationReport | undefined): void {
  expect(report?.failed).toEqual([]);
  expect(report?.skipped).toEqual([]);
  expect(report?.verification).toEqual({ ok: true, problems: [] });
  expect(report?.kinds.events.read).toBe(DATASET.events.length);
}

function expectNothingChanged(report: MigrationReport | undefined): void {
  expect(Object.values(report!.kinds).map((k) => [k.created, k.updated, k.failed])).toEqual(Array(5).fill([0, 0, 0]));
  expect(report!.kinds.events.unchanged).toBe(DATASET.events.length);
}

/**
 * Forwards to the source, holding the second page of events back so a run can be stopped while
 * it waits. A request held back may be forwarded after its test stopped the source: it gets a
 * 502, as from any proxy, not an unhandled rejection.
 */
async function slowProxy(source: string): Promise<string> {
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    if (/\/events\/?\?.*page=2/.test(req.url ?? '')) await new Promise((r) => setTimeout(r, 3_000));
    const upstream = await fetch(`${source}${req.url}`, { headers: req.headers.authorization ? { authorization: req.headers.authorization } : {} });
    res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
    res.end(Buffer.from(await upstream.arrayBuffer()));
  };
  const server: Server = createServer((req, res) => {
    forward(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onTestFinished(() => new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('evcal migrate from a site in the reference layout', { timeout: 180_000 }, () => {
  it('memory: equal reads after migrating, an aborted run resumes, a second run changes nothing', async () => {
    const source = await startSource();
    const storage = createMemoryStorage();
    const calendar = createCalendar({ storage, now: () => Date.parse(NOW) });
    const from = `${source.origin}${API_PATH}`;
    const credentials = { user: 'admin', password: ADMIN_TOKEN };
    const controller = new AbortController();
    const aborted = await migrateFromReference(calendar, {
      from, credentials, findHidden: true, signal: controller.signal,
      onProgress: (p) => p.kind === 'events' && p.done >= 50 && controller.abort(),
    }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('AbortError');
    const partial = (await calendar.exportDataset()).events.length;
    expect(partial).toBeGreaterThanOrEqual(50);
    expect(partial).toBeLessThan(DATASET.events.length);

    const resumed = await migrateFromReference(calendar, { from, credentials, findHidden: true });
    expectComplete(resumed);
    expect(resumed.kinds.events.unchanged).toBe(partial);

    const handler = createFetchHandler(calendar, {
      basePath: '/wp-json', namespace: 'tribe/events/v1', authenticate: bearerTokens({ [ADMIN_TOKEN]: { id: 1, role: 'administrator' } }),
    });
    const server = createServer(toNodeHandler(handler));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expectSameReads(source.origin, target, READS);
    await expectSameReads(source.origin, target, sampleReads(READS), 'rest_route');

    const before = await calendar.exportDataset();
    expectNothingChanged(await migrateFromReference(calendar, { from, credentials, findHidden: true }));
    expect(await calendar.exportDataset()).toEqual(before);
  });

  const storages: [string, () => Promise<string>, boolean][] = [
    ['json', async () => `json:${tempPath('calendar.json')}`, true],
    ['sqlite', async () => `sqlite:${tempPath('calendar.db')}`, true],
    ['postgres', async () => {
      const schema = `evcal_migrate_${randomBytes(4).toString('hex')}`;
      onTestFinished(async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      });
      const url = new URL(POSTGRES_URL!);
      url.searchParams.set('schema', schema);
      return url.toString();
    }, Boolean(POSTGRES_URL)],
  ];

  for (const [name, storageUrl, available] of storages) {
    it.skipIf(!available)(`${name}: a run stopped mid-way resumes, reads equal the source's, a second run changes nothing`, async () => {
      const source = await startSource();
      const storage = await storageUrl();
      const from = `${source.origin}${API_PATH}`;

      if (name === 'sqlite') {
        // A crash: the process is killed as soon as it has written the first page of events.
        const proxy = await slowProxy(source.origin);
        const killed = await migrateCli(`${proxy}${API_PATH}`, storage, [], (stderr) => /events: 50\//.test(stderr));
        expect(killed.signal).toBe('SIGKILL');
      } else {
        // An abort of the core function after the first page of events.
        const opened = await openStorage(storage);
        const controller = new AbortController();
        const error = await migrateFromReference(createCalendar({ storage: opened }), {
          from, credentials: { user: 'admin', password: ADMIN_TOKEN }, signal: controller.signal,
          onProgress: (p) => p.kind === 'events' && p.done >= 50 && controller.abort(),
        }).catch((e: unknown) => e);
        await opened.close();
        expect((error as Error).name).toBe('AbortError');
      }
      const partial = JSON.parse((await runCli(['export', '--storage', storage])).stdout) as { events: unknown[] };
      expect(partial.events.length).toBeGreaterThanOrEqual(50);
      expect(partial.events.length).toBeLessThan(DATASET.events.length);

      const resumed = await migrateCli(from, storage);
      expect(resumed.code, resumed.stderr).toBe(0);
      expectComplete(resumed.report);
      expect(resumed.report!.kinds.events.unchanged).toBe(partial.events.length);

      const target = await startServe(['--storage', storage, ...SERVE_ARGS]);
      await expectSameReads(source.origin, target.origin, READS);
      await expectSameReads(source.origin, target.origin, sampleReads(READS), 'rest_route');
      await target.stop();

      const before = (await runCli(['export', '--storage', storage])).stdout;
      const again = await migrateCli(from, storage);
      expect(again.code, again.stderr).toBe(0);
      expectNothingChanged(again.report);
      expect((await runCli(['export', '--storage', storage])).stdout).toBe(before);
    });
  }

  it('exits non-zero with a clear message for a wrong URL, a server that is not the reference, and bad credentials', async () => {
    const source = await startSource();
    const wrong = await runCli(['migrate', '--from', `${source.origin}/wp-json/nothing`, '--storage', 'memory']);
    expect([wrong.code, wrong.stderr]).toEqual([1, expect.stringContaining('API root')]);
    const notReference = await runCli(['migrate', '--from', `${source.origin}/wp-json/tribe/events/v1/events/30`, '--storage', 'memory']);
    expect([notReference.code, notReference.stderr]).toEqual([1, expect.stringContaining('not The Events Calendar')]);
    const refused = await runCli(['migrate', '--from', `${source.origin}${API_PATH}`, '--storage', 'memory', '--user', 'admin'], { env: { EVCAL_SOURCE_PASSWORD: 'wrong' } });
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('refused the credentials')]);
    const usage = await runCli(['migrate', '--storage', 'memory']);
    expect(usage.code).toBe(2);
    const help = await runCli(['migrate', '--help']);
    expect(help.stdout).toMatch(/--from <url>[\s\S]*--new-ids[\s\S]*--dry-run/);
  });

  it('lists the records it cannot store and exits 1', async () => {
    const source = await startSource();
    const storage = `sqlite:${tempPath('calendar.db')}`;
    // The target already holds an unrelated event under one of the source's ids.
    await runCli(['import', tempPath('ours.json', JSON.stringify({ events: [{ id: 30, title: 'Ours', start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00' }] })), '--storage', storage]);
    const run = await runCli(['migrate', '--from', `${source.origin}${API_PATH}`, '--storage', storage, ...CREDENTIALS], { env: ENV });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Failed \(not stored\):\n {2}events 30 "Past Workshop": id 30 is taken in the target by an event that did not come from this source/);
    expect(run.stdout).toMatch(/events +\d+ read \(source lists \d+\), \d+ created, 0 updated, 0 unchanged, 1 failed/);
  });
});
