// Webhooks that fail are visible: an endpoint the sender would refuse (loopback, private,
// link-local, by address or by name) is refused when it is registered, saying how to allow
// it; every attempt shows in the endpoint's delivery status (last attempt, status, error,
// failures in a row, deliveries waiting); every failed attempt is told with its reason and
// what comes next; and a dispatcher that starts tries at once what waited for a retry.
import { createWebhookDispatcher, type WebhookFailure, type WebhookMessage } from '@evcal/core';
import { describe, expect, it } from 'vitest';
import { admin, as, eventInput, expectInvalid, makeCalendar } from './helpers';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('registering an endpoint on a private address', () => {
  it.each([
    ['http://127.0.0.1:8080/in', '127.0.0.1 is a loopback address'],
    ['http://127.8.9.10/in', '127.8.9.10 is a loopback address'],
    ['http://[::1]:8080/in', '::1 is a loopback address'],
    ['http://10.0.0.5/in', '10.0.0.5 is a private address'],
    ['http://172.16.3.4/in', '172.16.3.4 is a private address'],
    ['http://192.168.1.10/in', '192.168.1.10 is a private address'],
    ['http://[fd00::1]/in', 'fd00::1 is a private address'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['http://[fe80::1]/in', 'fe80::1 is a link-local address'],
    ['http://0.0.0.0/in', '0.0.0.0 is the unspecified address'],
    ['http://[::]/in', ':: is the unspecified address'],
    // IPv4-mapped IPv6, as URLs normalise it (::ffff:127.0.0.1 becomes ::ffff:7f00:1).
    ['http://[::ffff:127.0.0.1]/in', '::ffff:7f00:1 is a loopback address'],
    ['http://[::ffff:a9fe:a9fe]/in', '::ffff:a9fe:a9fe is a link-local address'],
    // IPv4-compatible IPv6 (deprecated; [::127.0.0.1] as URLs write it).
    ['http://[::127.0.0.1]/in', '::7f00:1 is an IPv4-compatible address'],
    // Other spellings of 127.0.0.1, which URLs normalise too.
    ['http://2130706433/in', '127.0.0.1 is a loopback address'],
    ['http://localhost:3000/in', 'localhost is a loopback name'],
    ['http://api.localhost/in', 'api.localhost is a loopback name'],
  ])('refuses %s (%s), naming how to allow it', async (url, reason) => {
    const error = await expectInvalid(makeCalendar().webhooks.create({ url, secret: SECRET }, as(admin)), 'url');
    const text = (error.details.params as Record<string, string>).url!;
    expect(text).toContain(`${reason}: webhooks are delivered to public addresses only`);
    expect(text).toContain('--webhook-allow-private');
    expect(text).toContain('webhooks.allowPrivateAddresses');
  });

  it('resolves a name with the lookup given, and refuses one that resolves to a private address', async () => {
    const names: Record<string, string[]> = { 'hooks.internal': ['203.0.113.9', '10.1.2.3'], 'hooks.example': ['93.184.216.34', '2606:2800:220:1::1'] };
    const asked: string[] = [];
    const calendar = makeCalendar({
      webhooks: {
        lookup: async (host) => {
          asked.push(host);
          if (!names[host]) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
          return names[host]!;
        },
      },
    });
    const error = await expectInvalid(calendar.webhooks.create({ url: 'https://hooks.internal/in' }, as(admin)), 'url');
    // 203.0.113.9 is a documentation address: the first refused one is named.
    expect((error.details.params as Record<string, string>).url).toMatch(/^hooks\.internal resolves to 203\.0\.113\.9, a reserved address: /);
    expect((await calendar.webhooks.create({ url: 'https://hooks.example/in' }, as(admin))).url).toBe('https://hooks.example/in');
    // A name that does not resolve now may later: registered (its attempts will say why they fail).
    expect((await calendar.webhooks.create({ url: 'https://not-yet.example/in' }, as(admin))).url).toBe('https://not-yet.example/in');
    expect(asked).toEqual(['hooks.internal', 'hooks.example', 'not-yet.example']);
  });

  it('refuses changing an endpoint\'s URL to a private address too', async () => {
    const calendar = makeCalendar();
    const ep = await calendar.webhooks.create({ url: 'https://93.184.216.34/in' }, as(admin));
    await expectInvalid(calendar.webhooks.update({ id: ep.id, url: 'http://192.168.0.1/in' }, as(admin)), 'url');
    expect((await calendar.webhooks.get({ id: ep.id }, as(admin))).url).toBe('https://93.184.216.34/in');
  });

  it('accepts private addresses when the calendar allows them, and only then', async () => {
    const strict = makeCalendar();
    const allowing = makeCalendar({ webhooks: { allowPrivateAddresses: true } });
    for (const url of ['http://127.0.0.1:8080/in', 'http://localhost/in', 'http://[fe80::1]/in']) {
      await expectInvalid(strict.webhooks.create({ url }, as(admin)), 'url');
      expect((await allowing.webhooks.create({ url }, as(admin))).url).toBe(url);
    }
  });
});

/** A transport answering from a script, recording every message. */
function transport(answer: (n: number) => { status: number } | Error) {
  const sent: WebhookMessage[] = [];
  return {
    sent,
    send: async (m: WebhookMessage) => {
      sent.push(m);
      const a = answer(sent.length);
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

describe('an endpoint\'s delivery status', () => {
  it('shows the last attempt, its status and error, failures in a row and the deliveries waiting', async () => {
    const calendar = makeCalendar();
    const ep = await calendar.webhooks.create({ url: 'https://hooks.example/in?token=s3cret', secret: SECRET }, as(admin));
    expect(ep.delivery).toEqual({ last_attempt: null, last_status: null, last_error: null, consecutive_failures: 0, waiting: 0, failed: 0, next_attempt: null });
    const a = (await calendar.events.create(eventInput({ title: 'A' }), as(admin))).value;
    await calendar.events.create(eventInput({ title: 'B' }), as(admin));
    let clock = Date.UTC(2030, 0, 1);
    const answers = [new Error('connect ECONNREFUSED 93.184.216.34:443'), { status: 503 }, { status: 204 }, { status: 204 }];
    const t = transport((n) => answers[n - 1] ?? { status: 204 });
    const failures: WebhookFailure[] = [];
    const dispatcher = createWebhookDispatcher(calendar, { send: t.send, now: () => clock, retrySchedule: [60_000], random: () => 0.5, onFailure: (f) => failures.push(f) });
    const status = async () => (await calendar.webhooks.list({}, as(admin))).webhooks[0]!.delivery;

    // Two records at once: both fail.
    await dispatcher.runOnce();
    expect(await status()).toEqual({
      last_attempt: new Date(clock).toISOString(), last_status: 503, last_error: 'HTTP 503', consecutive_failures: 2, waiting: 2, failed: 0,
      next_attempt: new Date(clock + 60_000).toISOString(),
    });
    expect(failures.map((f) => [f.endpointId, f.url, f.reason, f.status, f.attempt, f.outcome, f.nextAttemptAt])).toEqual([
      [ep.id, 'https://hooks.example/in', 'connect ECONNREFUSED 93.184.216.34:443', null, 1, 'retry', clock + 60_000],
      [ep.id, 'https://hooks.example/in', 'HTTP 503', 503, 1, 'retry', clock + 60_000],
    ]);
    // GET /webhooks/{id} shows it too.
    expect((await calendar.webhooks.get({ id: ep.id }, as(admin))).delivery).toEqual(await status());

    clock += 60_000;
    await dispatcher.runOnce();
    expect(await status()).toEqual({
      last_attempt: new Date(clock).toISOString(), last_status: 204, last_error: null, consecutive_failures: 0, waiting: 0, failed: 0, next_attempt: null,
    });
    // Each record's delivery was attempted twice, with the same webhook-id.
    expect(t.sent.map((m) => m.id)).toEqual([t.sent[0]!.id, t.sent[1]!.id, t.sent[0]!.id, t.sent[1]!.id]);
    expect(JSON.parse(t.sent[0]!.body).id).toBe(a.id);
  });

  it('tells a delivery that failed for good, and an endpoint disabled by 410 Gone', async () => {
    const calendar = makeCalendar();
    await calendar.webhooks.create({ url: 'https://hooks.example/in', secret: SECRET }, as(admin));
    await calendar.events.create(eventInput(), as(admin));
    let clock = 1_000_000;
    const failures: WebhookFailure[] = [];
    const answers = [{ status: 500 }, { status: 500 }, { status: 410 }];
    const t = transport((n) => answers[n - 1]!);
    const dispatcher = createWebhookDispatcher(calendar, { send: t.send, now: () => clock, retrySchedule: [10], random: () => 0.5, onFailure: (f) => failures.push(f) });
    await dispatcher.runOnce();
    clock += 10;
    await dispatcher.runOnce();
    expect(failures.map((f) => [f.outcome, f.attempt, f.nextAttemptAt])).toEqual([['retry', 1, clock], ['failed', 2, null]]);
    expect((await calendar.webhooks.list({}, as(admin))).webhooks[0]!.delivery).toMatchObject({ failed: 1, waiting: 0, consecutive_failures: 2 });
    await calendar.events.create(eventInput({ title: 'Second' }), as(admin));
    await dispatcher.runOnce();
    expect(failures.at(-1)).toMatchObject({ outcome: 'disabled', status: 410, reason: 'HTTP 410', nextAttemptAt: null });
    expect((await calendar.webhooks.list({}, as(admin))).webhooks[0]).toMatchObject({ enabled: false, disabled_reason: 'gone', delivery: { waiting: 1, failed: 1, last_status: 410 } });
  });
});

describe('a dispatcher that starts', () => {
  it('tries at once what waited for a retry, then goes on with the schedule', async () => {
    const calendar = makeCalendar();
    await calendar.webhooks.create({ url: 'https://hooks.example/in', secret: SECRET }, as(admin));
    await calendar.events.create(eventInput(), as(admin));
    const clock = Date.UTC(2030, 0, 1);
    const endpointId = (await calendar.webhooks.list({}, as(admin))).webhooks[0]!.id;
    // The first sender fails it: the next attempt is an hour away.
    const down = transport(() => new Error('connect ECONNREFUSED'));
    await createWebhookDispatcher(calendar, { send: down.send, now: () => clock, retrySchedule: [3_600_000, 3_600_000], random: () => 0.5, onFailure: () => undefined }).runOnce();
    expect((await calendar.config.storage.webhooks.deliveries(endpointId, 5)).map((d) => [d.attempts, d.nextAttemptAt])).toEqual([[1, clock + 3_600_000]]);
    // Another starts a minute later (a restart): it sends the delivery at once.
    const up = transport(() => ({ status: 204 }));
    const restarted = createWebhookDispatcher(calendar, { send: up.send, now: () => clock + 60_000, intervalMs: 3_600_000 });
    restarted.start();
    try {
      await expect.poll(() => up.sent.length).toBe(1);
    } finally {
      await restarted.stop();
    }
    expect(JSON.parse(up.sent[0]!.body).type).toBe('event.created');
    expect((await calendar.webhooks.list({}, as(admin))).webhooks[0]!.delivery).toMatchObject({ waiting: 0, last_status: 204, consecutive_failures: 0 });
  });
});
