// Webhooks that fail are visible, end to end with real parts: `evcal webhooks add` and
// POST /webhooks of `evcal serve` refuse a loopback address unless private addresses are
// allowed, and say how; a delivery the server refuses is logged at warn (endpoint, URL without
// its query, reason, next attempt), shown by GET /webhooks and `evcal webhooks list`, and sent
// once the server is restarted with --webhook-allow-private; a delivery that failed while the
// receiver answered 503 is sent right after a restart, not at its next retry ten minutes
// later. Receivers are real HTTP servers verifying every delivery with the standardwebhooks
// package; servers run on SQLite and on a JSON file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from './support/processes';
import { needBuiltCli, startServe, type Running } from './support/serve-process';
import { eventually, RECEIVER_SECRET, unique, webhookReceiver } from './support/webhook-receiver';

needBuiltCli();

const ADMIN = 'tok-admin';
const USERS = ['--user', `1:administrator:${ADMIN}`];
/** One retry, ten minutes after a failed attempt: a delivery that arrives sooner was sent because of the restart. */
const LATE_RETRY = ['--webhook-timeout', '2000', '--webhook-retries', '10m,10m'];

function tempFile(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-webhook-failures-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, name);
}

const STORAGES = [
  { name: 'sqlite', url: () => `sqlite:${tempFile('calendar.db')}` },
  { name: 'json', url: () => `json:${tempFile('calendar.json')}` },
];

async function call(url: string, init: { method?: string; json?: unknown } = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${ADMIN}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const EVENT = { title: 'Seen', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00', status: 'publish' };

/** The JSON log lines of a server with this message. */
function logLines(server: Running, msg: string): Array<Record<string, any>> {
  return server.stdout().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>).filter((l) => l.msg === msg);
}

async function stop(server: Running): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('registering a webhook endpoint on a loopback address', { timeout: 120_000 }, () => {
  it('evcal webhooks add refuses it, naming --webhook-allow-private, and takes it with the flag or its variable', async () => {
    const storage = `sqlite:${tempFile('calendar.db')}`;
    const refused = await runCli(['webhooks', 'add', 'http://127.0.0.1:9/hook', '--storage', storage]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('evcal webhooks add: Invalid parameter(s): url (url: 127.0.0.1 is a loopback address: webhooks are delivered to public addresses only. '
      + 'To allow private addresses, start evcal serve with --webhook-allow-private (evcal webhooks add takes it too), or set the calendar\'s webhooks.allowPrivateAddresses.)\n');
    const byName = await runCli(['webhooks', 'add', 'http://localhost:9/hook', '--storage', storage]);
    expect([byName.code, byName.stderr]).toEqual([1, expect.stringContaining('localhost is a loopback name: ')]);
    expect(JSON.parse((await runCli(['webhooks', 'list', '--json', '--storage', storage])).stdout)).toEqual([]);

    const flag = await runCli(['webhooks', 'add', 'http://127.0.0.1:9/hook', '--webhook-allow-private', '--storage', storage]);
    expect([flag.code, flag.stderr]).toEqual([0, '']);
    const variable = await runCli(['webhooks', 'add', 'http://[::1]:9/hook', '--storage', storage], { env: { EVCAL_WEBHOOK_ALLOW_PRIVATE: '1' } });
    expect([variable.code, variable.stderr]).toEqual([0, '']);
    expect(JSON.parse((await runCli(['webhooks', 'list', '--json', '--storage', storage])).stdout).map((e: { url: string }) => e.url))
      .toEqual(['http://127.0.0.1:9/hook', 'http://[::1]:9/hook']);
  });

  it('POST /webhooks answers 400 naming the rule and the flag, unless evcal serve runs with --webhook-allow-private', async () => {
    const strict = await startServe(['--storage', 'memory', ...USERS]);
    const refused = await call(`${strict.api}/webhooks`, { json: { url: 'http://169.254.169.254/latest/meta-data' } });
    expect([refused.status, refused.json.code]).toEqual([400, 'rest_invalid_param']);
    expect(refused.json.data.params.url).toMatch(/^169\.254\.169\.254 is a link-local address: .*start evcal serve with --webhook-allow-private/);
    const allowing = await startServe(['--storage', 'memory', ...USERS, '--webhook-allow-private']);
    expect((await call(`${allowing.api}/webhooks`, { json: { url: 'http://127.0.0.1:9/hook' } })).status).toBe(201);
  });
});

for (const storage of STORAGES) {
  describe(`${storage.name}: webhooks that fail are visible`, { timeout: 120_000 }, () => {
    it('a delivery refused by the address rule is logged at warn, shown by GET /webhooks and evcal webhooks list, and sent after a restart with --webhook-allow-private', async () => {
      const url = storage.url();
      const receiver = await webhookReceiver();
      // Registered with private addresses allowed (the variable), served without: every attempt is refused.
      const hook = `${receiver.url}?token=s3cret`;
      const added = await runCli(['webhooks', 'add', hook, '--secret', RECEIVER_SECRET, '--storage', url], { env: { EVCAL_WEBHOOK_ALLOW_PRIVATE: '1' } });
      expect(added.code, added.stderr).toBe(0);
      const id = /^(ep_\w+)/.exec(added.stdout)![1]!;
      const strict = await startServe(['--storage', url, ...USERS, ...LATE_RETRY]);
      const created = await call(`${strict.api}/events`, { json: EVENT });
      expect(created.status).toBe(201);

      await eventually(() => logLines(strict, 'webhook delivery failed').length > 0, 20_000, 'the warning');
      const [warning] = logLines(strict, 'webhook delivery failed');
      expect(warning).toMatchObject({ level: 'warn', endpoint_id: id, url: receiver.url, status: null, attempt: 1, then: expect.stringMatching(/^next attempt /) });
      expect(warning!.reason).toMatch(/^refused: 127\.0\.0\.1 is a loopback address \(deliveries to private addresses need evcal serve --webhook-allow-private/);
      // The next attempt is the schedule's, ten minutes (±20 %) after this one.
      expect(Date.parse(warning!.next_attempt) - Date.parse(warning!.time)).toBeGreaterThan(7 * 60_000);
      expect(JSON.stringify(logLines(strict, 'webhook delivery failed'))).not.toContain('s3cret');

      const [listed] = (await call(`${strict.api}/webhooks`)).json.webhooks;
      expect(listed).toMatchObject({ id, enabled: true, disabled_reason: null });
      expect(listed.delivery).toMatchObject({ last_status: null, last_error: warning!.reason, consecutive_failures: 1, waiting: 1, failed: 0, next_attempt: warning!.next_attempt });
      expect(receiver.deliveries).toEqual([]);
      await stop(strict);

      const shown = await runCli(['webhooks', 'list', '--storage', url]);
      expect(shown.stdout).toContain(`${id}  ${hook}  enabled\n`);
      expect(shown.stdout).toContain(`  deliveries: 1 waiting (next ${warning!.next_attempt}), 0 failed; last attempt ${listed.delivery.last_attempt}: ${warning!.reason}, 1 failure in a row\n`);
      expect(JSON.parse((await runCli(['webhooks', 'list', '--json', '--storage', url])).stdout)[0].delivery).toEqual(listed.delivery);

      // Restarted allowing private addresses: sent at once, not at the next attempt ten minutes away.
      const allowing = await startServe(['--storage', url, ...USERS, ...LATE_RETRY, '--webhook-allow-private']);
      await eventually(() => receiver.deliveries.length > 0, 20_000, 'the delivery after the restart');
      expect(unique(receiver.deliveries).map((d) => [d.type, d.recordId])).toEqual([['event.created', created.json.id]]);
      expect(receiver.rejected).toEqual([]);
      // The status follows once the attempt is settled.
      await expect.poll(async () => (await call(`${allowing.api}/webhooks/${id}`)).json.delivery, { timeout: 20_000 })
        .toMatchObject({ last_status: 204, last_error: null, consecutive_failures: 0, waiting: 0, next_attempt: null });
    });

    it('a delivery that failed while the receiver answered 503 is sent right after a restart, signed', async () => {
      const url = storage.url();
      const receiver = await webhookReceiver();
      receiver.mode = 'fail';
      const first = await startServe(['--storage', url, ...USERS, ...LATE_RETRY, '--webhook-allow-private']);
      expect((await call(`${first.api}/webhooks`, { json: { url: receiver.url, secret: RECEIVER_SECRET, types: ['event.created'] } })).status).toBe(201);
      const created = await call(`${first.api}/events`, { json: EVENT });
      // The receiver got it and answered 503: the next attempt is ten minutes away.
      await eventually(() => receiver.deliveries.length === 1, 20_000, 'the first attempt');
      await stop(first);
      receiver.mode = 'answer';
      await startServe(['--storage', url, ...USERS, ...LATE_RETRY, '--webhook-allow-private']);
      await eventually(() => receiver.deliveries.length === 2, 20_000, 'the delivery after the restart');
      const [failed, sent] = receiver.deliveries;
      // The same message (webhook-id), verified by the standardwebhooks package both times.
      expect([sent!.id, sent!.type, sent!.recordId]).toEqual([failed!.id, 'event.created', created.json.id]);
      expect(receiver.rejected).toEqual([]);
    });
  });
}
