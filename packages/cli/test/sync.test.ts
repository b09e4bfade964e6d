// Keeping a copy in sync, end to end, with real parts: `evcal serve` processes on memory, a
// JSON file, SQLite and PostgreSQL; webhook receivers over real HTTP verifying every delivery
// with the standardwebhooks package (one delivery for a series edit, naming its occurrences); a receiver that is down, then back; servers killed with
// SIGKILL between a write and its delivery, and mid-delivery; clients copying the calendar
// through GET /changes while writes run; and two servers on one database, whose readers never
// skip a change and whose deliveries each go out once. PostgreSQL runs when
// EVCAL_TEST_POSTGRES_URL names a server (skipped with a notice otherwise).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from './support/processes';
import { needBuiltCli, startServe, type Running } from './support/serve-process';
import { catchUp, expectCopyEqualsLists, startCopy, syncPage, type SyncClient } from './support/sync-client';
import { eventually, RECEIVER_SECRET, unique, webhookReceiver, type Delivery, type Receiver } from './support/webhook-receiver';

needBuiltCli();

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the PostgreSQL tests of keeping a copy in sync are skipped.');

const ADMIN = 'tok-admin';
const USERS = ['--user', `1:administrator:${ADMIN}`];
/** Receivers run on this machine; retries come quickly, and for a minute, to outlast a receiver that is down (on a busy machine too). */
const WEBHOOKS = ['--webhook-allow-private', '--webhook-timeout', '1000', '--webhook-retries', `100ms,200ms,300ms,${Array(120).fill('500ms').join(',')}`];

function tempFile(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-sync-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, name);
}

const pgSchema = () => `${POSTGRES_URL}${POSTGRES_URL?.includes('?') ? '&' : '?'}schema=evcal_sync_${randomBytes(4).toString('hex')}`;

/** Storage URLs: a fresh one per test; `durable` ones survive their server. */
const STORAGES: Array<{ name: string; url: () => string; durable: boolean; available: boolean }> = [
  { name: 'memory', url: () => 'memory', durable: false, available: true },
  { name: 'json', url: () => `json:${tempFile('calendar.json')}`, durable: true, available: true },
  { name: 'sqlite', url: () => `sqlite:${tempFile('calendar.db')}`, durable: true, available: true },
  { name: 'postgres', url: pgSchema, durable: true, available: Boolean(POSTGRES_URL) },
];

async function call(url: string, init: { method?: string; json?: unknown; auth?: string | null } = {}): Promise<{ status: number; json: any }> {
  const auth = init.auth === undefined ? ADMIN : init.auth;
  const res = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title, start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00', status: 'publish', ...extra,
});

async function serveOn(storage: string, extra: readonly string[] = []): Promise<Running> {
  return startServe(['--storage', storage, ...USERS, ...WEBHOOKS, ...extra]);
}

async function register(server: Running, receiver: Receiver, types?: string[]): Promise<string> {
  const res = await call(`${server.api}/webhooks`, { json: { url: receiver.url, secret: RECEIVER_SECRET, ...(types ? { types } : {}) } });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.id;
}

/** The deliveries of one record, in the order they arrived. */
const of = (deliveries: readonly Delivery[], id: number) => deliveries.filter((d) => d.recordId === id && d.type.startsWith('event.'));

function kill(server: Running): Promise<unknown> {
  server.child.kill('SIGKILL');
  return server.exited;
}

for (const storage of STORAGES) {
  describe.skipIf(!storage.available)(`${storage.name}: keeping a copy in sync through evcal serve`, { timeout: 120_000 }, () => {
    it('delivers signed webhooks of every change, in order per record, that standardwebhooks verifies', async () => {
      const receiver = await webhookReceiver();
      const server = await serveOn(storage.url());
      await register(server, receiver);
      const created = await call(`${server.api}/events`, { json: event('Signed', { categories: ['Jazz'], venue: { venue: 'Hall' } }) });
      const id = created.json.id as number;
      await call(`${server.api}/events/${id}`, { method: 'PATCH', json: { title: 'Signed, renamed' } });
      await call(`${server.api}/events/${id}`, { method: 'PATCH', json: { status: 'draft' } });
      await call(`${server.api}/events/${id}`, { method: 'DELETE' });
      await eventually(() => of(unique(receiver.deliveries), id).length === 4, 20_000, 'four deliveries');
      expect(of(unique(receiver.deliveries), id).map((d) => d.type)).toEqual(['event.created', 'event.updated', 'event.updated', 'event.trashed']);
      // In order per record: what arrived (repeats included) never goes back to an older revision.
      const revisions = of(receiver.deliveries, id).map((d) => d.revision);
      expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      expect(receiver.deliveries.map((d) => d.type)).toEqual(expect.arrayContaining(['venue.created', 'category.created', 'category.updated']));
      expect(receiver.rejected).toEqual([]);
    });

    it('delivers one signed webhook for a series edit, naming its occurrences, and /changes gives it as one entry', async () => {
      const receiver = await webhookReceiver();
      const server = await serveOn(storage.url());
      await register(server, receiver, ['event.created', 'event.updated', 'event.trashed']);
      const created = await call(`${server.api}/events`, { json: event('Weekly', { start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 21:00:00', recurrence: 'FREQ=WEEKLY;COUNT=5' }) });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const id = created.json.id as number;
      const listed = await call(`${server.api}/events?post_parent=${id}&start_date=2027-01-01&end_date=2027-12-31`, { auth: null });
      const occurrences = (listed.json.events as Array<{ id: number }>).map((e) => e.id).sort((a, b) => a - b);
      expect(occurrences).toHaveLength(5);
      const token = (await call(`${server.api}/changes`, { auth: null })).json.next_token as string;

      await call(`${server.api}/events/${id}`, { method: 'PATCH', json: { title: 'Weekly, renamed' } });
      await call(`${server.api}/events/${occurrences[1]}`, { method: 'PATCH', json: { title: 'Once different' } });
      await eventually(() => unique(receiver.deliveries).filter((d) => d.type.startsWith('event.')).length === 3, 20_000, 'three deliveries');
      const events = unique(receiver.deliveries).filter((d) => d.type.startsWith('event.'));
      // One message per write: the series' names its occurrences, the exception's its series.
      expect(events.map((d) => [d.type, d.recordId, d.occurrences, d.series])).toEqual([
        ['event.created', id, { created: occurrences, updated: [], trashed: [], deleted: [] }, undefined],
        ['event.updated', id, { created: [], updated: occurrences, trashed: [], deleted: [] }, undefined],
        ['event.updated', occurrences[1], undefined, id],
      ]);
      expect(receiver.rejected).toEqual([]);

      // /changes: the series once, with its occurrences as they are now, then the exception.
      const page = await call(`${server.api}/changes?since=${encodeURIComponent(token)}`, { auth: null });
      expect(page.json.changes.map((c: any) => [c.id, c.deleted, c.record.title, c.occurrences?.records.map((r: any) => r.id), c.occurrences?.deleted])).toEqual([
        [id, false, 'Weekly, renamed', occurrences, []],
        [occurrences[1], false, 'Once different', undefined, undefined],
      ]);
      expect(page.json.changes[0].occurrences.records.map((r: any) => r.title)).toEqual(['Weekly, renamed', 'Once different', 'Weekly, renamed', 'Weekly, renamed', 'Weekly, renamed']);

      await call(`${server.api}/events/${id}`, { method: 'DELETE' });
      await eventually(() => unique(receiver.deliveries).some((d) => d.type === 'event.trashed'), 20_000, 'the trashed series');
      expect(unique(receiver.deliveries).filter((d) => d.type === 'event.trashed').map((d) => [d.recordId, d.occurrences?.trashed])).toEqual([[id, occurrences]]);
    });

    it('delivers what waited while the receiver was down, in order per record, once it is back', async () => {
      const receiver = await webhookReceiver({ startDown: true });
      const server = await serveOn(storage.url());
      await register(server, receiver, ['event.created', 'event.updated']);
      const ids: number[] = [];
      for (const i of [0, 1, 2]) ids.push((await call(`${server.api}/events`, { json: event(`Waiting ${i}`) })).json.id);
      await Promise.all(ids.flatMap((id) => [1, 2, 3].map((n) => call(`${server.api}/events/${id}`, { method: 'PATCH', json: { excerpt: `change ${n}` } }))));
      // Attempts fail while it is down (connection refused) and are retried.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.deliveries).toEqual([]);
      await receiver.up();
      await eventually(() => unique(receiver.deliveries).length === 12, 60_000, 'twelve deliveries');
      for (const id of ids) {
        const revisions = of(receiver.deliveries, id).map((d) => d.revision);
        expect(of(unique(receiver.deliveries), id).map((d) => d.type), `event ${id}`).toEqual(['event.created', 'event.updated', 'event.updated', 'event.updated']);
        expect(revisions, `event ${id}`).toEqual([...revisions].sort((a, b) => a - b));
      }
      expect(receiver.rejected).toEqual([]);
    });

    it.skipIf(!storage.durable)('loses no delivery when the server is killed between a write and its delivery, or mid-delivery', async () => {
      const url = storage.url();
      const receiver = await webhookReceiver({ startDown: true });
      const first = await serveOn(url);
      await register(first, receiver);
      const created = await call(`${first.api}/events`, { json: event('Crash') });
      expect(created.status).toBe(201);
      // Killed right after the write answered; the receiver never heard of it.
      await kill(first);
      await receiver.up();
      const second = await serveOn(url);
      await eventually(() => of(receiver.deliveries, created.json.id).length >= 1, 20_000, 'the delivery after the restart');
      expect(of(unique(receiver.deliveries), created.json.id).map((d) => d.type)).toEqual(['event.created']);
      const updates = () => receiver.deliveries.filter((d) => d.type === 'event.updated');

      // Killed while a delivery is in flight (the receiver holds it): another server sends it again once its claim ran out.
      receiver.mode = 'hold';
      await call(`${second.api}/events/${created.json.id}`, { method: 'PATCH', json: { title: 'Crash, renamed' } });
      await eventually(() => updates().length === 1, 20_000, 'the held delivery');
      await kill(second);
      receiver.mode = 'answer';
      await serveOn(url);
      await eventually(() => updates().length >= 2, 30_000, 'the delivery sent again');
      const [held, again] = updates();
      expect([again!.id, again!.recordId, again!.revision]).toEqual([held!.id, held!.recordId, held!.revision]);
      expect(receiver.rejected).toEqual([]);
    });

    it('a copy kept through /changes while writes run equals the full lists, for an anonymous reader and an administrator', async () => {
      const server = await serveOn(storage.url());
      const api = server.api;
      await call(`${api}/events`, { json: event('Before', { categories: ['Old'], venue: { venue: 'Old hall' } }) });
      const anonymous = await startCopy(api);
      const admin = await startCopy(api, ADMIN);
      let writing = true;
      const reader = (async () => {
        // Follow the changes while the writers run, a small page at a time.
        while (writing) {
          await syncPage(api, anonymous, undefined, 3);
          await syncPage(api, admin, ADMIN, 4);
        }
      })();
      await Promise.all([0, 1, 2].map((w) => writer(api, w)));
      writing = false;
      await reader;
      for (const [client, auth] of [[anonymous, undefined], [admin, ADMIN]] as Array<[SyncClient, string | undefined]>) {
        await catchUp(api, client, auth);
        await expectCopyEqualsLists(api, client, auth);
      }
      // The copies did change: they hold what the writers made, and lost what they removed.
      expect(admin.records.size).toBeGreaterThan(10);
      expect([...admin.records.keys()].some((k) => k.startsWith('event:') && admin.records.get(k)!.status === 'draft')).toBe(true);
      expect([...anonymous.records.values()].every((r) => r.status === undefined || r.status === 'publish')).toBe(true);
      // Occurrences came with their series: exceptions, and the new series of a split.
      const occurrences = [...anonymous.records.values()].filter((r) => r.post_parent);
      expect(occurrences.filter((r) => /^W\d exception$/.test(r.title)).length).toBe(3);
      expect(occurrences.filter((r) => /^W\d later$/.test(r.title)).length).toBe(9);
    });
  });
}

/** One writer: creates, changes, unpublishes, trashes and deletes records of every kind, series too. */
async function writer(api: string, w: number): Promise<void> {
  const mine: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await call(`${api}/events`, { json: event(`W${w} E${i}`, { categories: [`Cat ${i % 3}`], tags: [`tag${w}`], venue: { venue: `Hall ${w}` }, hide_from_listings: i === 5 }) });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    mine.push(res.json.id);
    if (i % 2 === 1) await call(`${api}/events/${mine[i - 1]}`, { method: 'PATCH', json: { title: `W${w} E${i - 1} renamed`, status: i % 4 === 1 ? 'draft' : 'publish' } });
    if (i % 3 === 2) await call(`${api}/events/${mine[i - 2]}`, { method: 'DELETE' });
  }
  const venue = (await call(`${api}/events/${mine[7]}`)).json.venue?.id;
  if (venue) await call(`${api}/venues/${venue}`, { method: 'PATCH', json: { city: `City ${w}` } });
  const tag = (await call(`${api}/tags?search=tag${w}&hide_empty=0`)).json.tags[0]?.id;
  if (tag) await call(`${api}/tags/${tag}`, { method: 'DELETE' });
  await seriesWriter(api, w);
}

/** Series: created, changed, an exception, split, an occurrence trashed, one made one event again, one trashed. */
async function seriesWriter(api: string, w: number): Promise<void> {
  const series = async (title: string, recurrence: string) => {
    const res = await call(`${api}/events`, { json: event(title, { start_date: `2027-02-0${w + 1} 18:00:00`, end_date: `2027-02-0${w + 1} 19:00:00`, recurrence }) });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id as number;
  };
  const occurrencesOf = async (id: number) => ((await call(`${api}/events?post_parent=${id}&start_date=2027-01-01&end_date=2029-12-31&per_page=50&status=publish,draft`)).json.events as Array<{ id: number }>).map((e) => e.id);
  const a = await series(`W${w} weekly`, 'FREQ=WEEKLY;COUNT=6');
  const b = await series(`W${w} monthly`, 'FREQ=MONTHLY');
  const c = await series(`W${w} daily`, 'FREQ=DAILY;COUNT=4');
  await call(`${api}/events/${a}`, { method: 'PATCH', json: { title: `W${w} weekly renamed`, categories: ['Series'] } });
  const [first, second, , fourth] = await occurrencesOf(a);
  await call(`${api}/events/${second}`, { method: 'PATCH', json: { title: `W${w} exception` } });
  await call(`${api}/events/${first}`, { method: 'PATCH', json: { status: 'draft' } });
  await call(`${api}/events/${fourth}?scope=following`, { method: 'PATCH', json: { title: `W${w} later` } });
  const monthly = await occurrencesOf(b);
  await call(`${api}/events/${monthly[2]}`, { method: 'DELETE' });
  await call(`${api}/events/${monthly[5]}?scope=following`, { method: 'DELETE' });
  await call(`${api}/events/${b}`, { method: 'PATCH', json: { status: 'draft' } });
  await call(`${api}/events/${c}`, { method: 'PATCH', json: { recurrence: '' } });
  const d = await series(`W${w} gone`, 'FREQ=WEEKLY;COUNT=3');
  await call(`${api}/events/${d}`, { method: 'DELETE' });
}

describe.skipIf(!POSTGRES_URL)('postgres: two evcal serve processes on one database', { timeout: 120_000 }, () => {
  it('a reader following /changes while both servers write never skips a change', async () => {
    const url = pgSchema();
    const [a, b] = [await serveOn(url), await serveOn(url)];
    const client = await startCopy(a.api, ADMIN);
    let writing = true;
    const reader = (async () => {
      while (writing) await syncPage(a.api, client, ADMIN, 7);
    })();
    // Each event is created once and never changed: it reaches the copy only through its own entry.
    const N = 60;
    const created = await Promise.all(Array.from({ length: N }, (_, i) => call(`${(i % 2 ? a : b).api}/events`, { json: event(`Concurrent ${i}`) })));
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    writing = false;
    await reader;
    await catchUp(a.api, client, ADMIN);
    const seen = client.seen.get('event') ?? new Set<number>();
    expect(created.map((r) => r.json.id).filter((id: number) => !seen.has(id))).toEqual([]);
    await expectCopyEqualsLists(a.api, client, ADMIN);
  });

  it('each webhook delivery goes out once while both servers deliver', async () => {
    const url = pgSchema();
    const receiver = await webhookReceiver();
    // A time-out no answer misses, even on a busy machine: a repeat could then only come from two servers sending one delivery.
    const slow = ['--webhook-timeout', '15000'];
    const [a, b] = [await serveOn(url, slow), await serveOn(url, slow)];
    await register(a, receiver, ['event.created']);
    const N = 40;
    const created = await Promise.all(Array.from({ length: N }, (_, i) => call(`${(i % 2 ? a : b).api}/events`, { json: event(`Once ${i}`) })));
    await eventually(() => receiver.deliveries.length >= N, 30_000, `${N} deliveries`);
    // Both servers keep looking at the outbox for a while: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(receiver.deliveries.length).toBe(N);
    expect(new Set(receiver.deliveries.map((d) => d.id)).size).toBe(N);
    expect(new Set(receiver.deliveries.map((d) => d.recordId))).toEqual(new Set(created.map((r) => r.json.id)));
  });
});

describe('evcal webhooks', { timeout: 120_000 }, () => {
  it('registers, lists, disables and removes endpoints that evcal serve delivers to', async () => {
    const storage = `sqlite:${tempFile('hooks.db')}`;
    const receiver = await webhookReceiver();
    // The receiver is on this machine: allowed as evcal serve allows it (WEBHOOKS).
    const added = await runCli(['webhooks', 'add', receiver.url, '--types', 'event.created,event.trashed', '--description', 'Search index', '--secret', RECEIVER_SECRET, '--webhook-allow-private', '--storage', storage]);
    expect(added.code, added.stderr).toBe(0);
    const id = /^(ep_[a-z0-9]{24})\s/.exec(added.stdout)?.[1];
    expect(added.stdout).toContain(`secret: ${RECEIVER_SECRET}`);
    const listed = await runCli(['webhooks', 'list', '--json', '--storage', storage]);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id, url: receiver.url, types: ['event.created', 'event.trashed'], description: 'Search index', enabled: true })]);

    const server = await serveOn(storage);
    const created = await call(`${server.api}/events`, { json: event('From the command line') });
    await call(`${server.api}/events/${created.json.id}`, { method: 'PATCH', json: { title: 'Not delivered: not a type asked for' } });
    await call(`${server.api}/events/${created.json.id}`, { method: 'DELETE' });
    await eventually(() => receiver.deliveries.length === 2, 20_000, 'two deliveries');
    expect(receiver.deliveries.map((d) => d.type)).toEqual(['event.created', 'event.trashed']);

    expect((await runCli(['webhooks', 'disable', id!, '--storage', storage])).stdout).toContain('disabled (manual)');
    expect((await runCli(['webhooks', 'remove', id!, '--storage', storage])).stdout).toContain(`removed ${id}`);
    expect(JSON.parse((await runCli(['webhooks', 'list', '--json', '--storage', storage])).stdout)).toEqual([]);
    const missing = await runCli(['webhooks', 'remove', id!, '--storage', storage]);
    expect([missing.code, missing.stderr]).toEqual([1, `evcal webhooks remove: No webhook endpoint has the ID ${id}.\n`]);
    const bad = await runCli(['webhooks', 'add', 'ftp://nowhere', '--storage', storage]);
    expect([bad.code, bad.stderr]).toEqual([1, 'evcal webhooks add: Invalid parameter(s): url (url: url must be an absolute http or https URL without a user name or password.)\n']);
    expect((await runCli(['webhooks', 'frobnicate'])).code).toBe(2);
  });
});
