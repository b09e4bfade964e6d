// Webhook endpoints (administrators only, validated) and the delivery loop with a transport
// that records what it is asked to send: deliveries written with the change they report (type
// filters, disabled endpoints), in order per record, retried on the schedule with jitter and
// Retry-After, failed once the schedule is used up, the endpoint disabled by 410 Gone.
import { createWebhookDispatcher, retryAfterMs, type Calendar, type WebhookAnswer, type WebhookMessage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { admin, anon, as, editor, eventInput, expectInvalid, makeCalendar, refusal } from './helpers';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

async function endpoint(calendar: Calendar, input: Record<string, unknown> = {}) {
  return calendar.webhooks.create({ url: 'https://hooks.example/in', secret: SECRET, ...input }, as(admin));
}

/** A transport answering from a script (default 204), recording every message. */
function transport(answer: (m: WebhookMessage, n: number) => WebhookAnswer | Error = () => ({ status: 204 })) {
  const sent: WebhookMessage[] = [];
  return {
    sent,
    send: async (m: WebhookMessage) => {
      sent.push(m);
      const a = answer(m, sent.length);
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

const bodies = (sent: readonly WebhookMessage[]) => sent.map((m) => JSON.parse(m.body) as { type: string; id: number; revision: number });

describe('webhook endpoints', () => {
  it('are managed by administrators only', async () => {
    const calendar = makeCalendar();
    await refusal(calendar.webhooks.list({}, anon), 'unauthenticated');
    await refusal(calendar.webhooks.create({ url: 'https://hooks.example/in' }, as(editor)), 'forbidden');
    const created = await calendar.webhooks.create({ url: 'https://hooks.example/in', types: 'event.created,venue.updated', description: 'Index' }, as(admin));
    expect(created).toMatchObject({ url: 'https://hooks.example/in', types: ['event.created', 'venue.updated'], description: 'Index', enabled: true, disabled_reason: null });
    expect(created.id).toMatch(/^ep_[a-z0-9]{24}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { secret: _secret, ...listed } = created;
    expect((await calendar.webhooks.list({}, as(admin))).webhooks).toEqual([listed]);
    expect(await calendar.webhooks.get({ id: created.id }, as(admin))).toEqual(created);
    const disabled = await calendar.webhooks.update({ id: created.id, enabled: false, types: [] }, as(admin));
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'manual', types: [] });
    expect(await calendar.webhooks.update({ id: created.id, enabled: true }, as(admin))).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await calendar.webhooks.delete({ id: created.id }, as(admin))).id).toBe(created.id);
    await refusal(calendar.webhooks.get({ id: created.id }, as(admin)), 'webhook_not_found');
    await refusal(calendar.webhooks.delete({ id: 'ep_nothing' }, as(admin)), 'webhook_not_found');
  });

  it.each([
    ['a relative URL', { url: '/hooks' }, 'url'],
    ['a URL with credentials', { url: 'https://user:pw@hooks.example/' }, 'url'],
    ['another scheme', { url: 'ftp://hooks.example/' }, 'url'],
    ['an unknown event type', { url: 'https://hooks.example/', types: ['event.created', 'event.exploded'] }, 'types'],
    ['a secret without whsec_', { url: 'https://hooks.example/', secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, 'secret'],
    ['a secret too short', { url: 'https://hooks.example/', secret: 'whsec_c2hvcnQ=' }, 'secret'],
  ])('refuses %s', async (_name, input, param) => {
    await expectInvalid(makeCalendar().webhooks.create(input, as(admin)), param);
  });

  it('need a URL', async () => {
    await refusal(makeCalendar().webhooks.create({}, as(admin)), 'missing_params');
  });
});

describe('the delivery loop', () => {
  it('sends each change to each enabled endpoint that wants its type, signed parts included', async () => {
    const calendar = makeCalendar();
    const all = await endpoint(calendar);
    const some = await endpoint(calendar, { types: ['event.trashed'] });
    await endpoint(calendar, { enabled: false });
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    await calendar.events.delete({ id: event.id }, as(admin));
    const t = transport();
    const clock = Date.UTC(2030, 0, 1);
    const dispatcher = createWebhookDispatcher(calendar, { send: t.send, now: () => clock });
    // One delivery per endpoint and record goes out at a time: the trash of the event waits for its creation.
    expect(await dispatcher.runOnce()).toBe(2);
    expect(await dispatcher.runOnce()).toBe(1);
    expect(t.sent.map((m) => [m.url, m.secret, JSON.parse(m.body).type])).toEqual([
      ['https://hooks.example/in', SECRET, 'event.created'],
      ['https://hooks.example/in', SECRET, 'event.trashed'],
      ['https://hooks.example/in', SECRET, 'event.trashed'],
    ]);
    expect(t.sent.every((m) => m.timestamp === clock / 1000 && /^msg_[0-9a-f-]+_\d+_\d+$/.test(m.id))).toBe(true);
    // The same message keeps its id whatever the endpoint.
    const trashes = t.sent.filter((m) => m.body.includes('trashed'));
    expect(new Set(trashes.map((m) => m.id)).size).toBe(1);
    // Registering the three endpoints took changes 1 to 3.
    expect(bodies(trashes)[0]).toEqual({ type: 'event.trashed', id: event.id, revision: 5, timestamp: new Date(calendar.config.now()).toISOString() });
    expect(await calendar.config.storage.webhooks.deliveries(all.id, 5)).toEqual([]);
    expect(await calendar.config.storage.webhooks.deliveries(some.id, 5)).toEqual([]);
  });

  it('retries on the schedule with jitter, honours Retry-After, and fails once the schedule is used up', async () => {
    const calendar = makeCalendar();
    await endpoint(calendar);
    await calendar.events.create(eventInput(), as(admin));
    let clock = 1_000_000;
    const answers: Array<WebhookAnswer | Error> = [{ status: 500 }, new Error('connect ECONNREFUSED'), { status: 429, retryAfter: '120' }, { status: 503 }];
    const t = transport((_, n) => answers[n - 1] ?? { status: 500 });
    const dispatcher = createWebhookDispatcher(calendar, { send: t.send, now: () => clock, retrySchedule: [1_000, 10_000, 20_000], random: () => 1 });
    const pending = async () => (await calendar.config.storage.webhooks.deliveries((await calendar.webhooks.list({}, as(admin))).webhooks[0]!.id, 5))[0]!;

    await dispatcher.runOnce();
    // +20 % jitter at random() = 1.
    expect(await pending()).toMatchObject({ attempts: 1, nextAttemptAt: clock + 1_200, lastStatus: 500, lastError: 'HTTP 500', state: 'pending' });
    clock += 1_000;
    expect(await dispatcher.runOnce()).toBe(0);
    clock += 200;
    await dispatcher.runOnce();
    expect(await pending()).toMatchObject({ attempts: 2, nextAttemptAt: clock + 12_000, lastStatus: null, lastError: 'connect ECONNREFUSED' });
    clock += 12_000;
    await dispatcher.runOnce();
    // Retry-After (120 s) beats the schedule's 24 s.
    expect(await pending()).toMatchObject({ attempts: 3, nextAttemptAt: clock + 120_000, lastStatus: 429 });
    clock += 120_000;
    await dispatcher.runOnce();
    expect(await pending()).toMatchObject({ attempts: 4, state: 'failed', lastStatus: 503 });
    clock += 10_000_000;
    expect(await dispatcher.runOnce()).toBe(0);
    expect(t.sent).toHaveLength(4);
  });

  it('disables an endpoint that answers 410, and keeps its deliveries for when it is enabled again', async () => {
    const calendar = makeCalendar();
    const ep = await endpoint(calendar);
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    await calendar.events.patch({ id: event.id, title: 'Again' }, as(admin));
    let gone = true;
    const t = transport(() => (gone ? { status: 410 } : { status: 200 }));
    const dispatcher = createWebhookDispatcher(calendar, { send: t.send, now: () => 5_000 });
    await dispatcher.runOnce();
    expect(await calendar.webhooks.get({ id: ep.id }, as(admin))).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    expect(await dispatcher.runOnce()).toBe(0);
    // New changes are not queued for a disabled endpoint.
    await calendar.events.patch({ id: event.id, title: 'While disabled' }, as(admin));
    gone = false;
    await calendar.webhooks.update({ id: ep.id, enabled: true }, as(admin));
    await dispatcher.runOnce();
    await dispatcher.runOnce();
    expect(bodies(t.sent).map((b) => b.type)).toEqual(['event.created', 'event.created', 'event.updated']);
    expect(await calendar.config.storage.webhooks.deliveries(ep.id, 5)).toEqual([]);
  });

  it('runs in the background, soon after each change, and stops', async () => {
    const calendar = makeCalendar();
    await endpoint(calendar);
    const t = transport();
    const dispatcher = createWebhookDispatcher(calendar, { send: t.send, intervalMs: 60_000 });
    dispatcher.start();
    await calendar.events.create(eventInput(), as(admin));
    await expect.poll(() => t.sent.length).toBe(1);
    await dispatcher.stop();
    await calendar.events.create(eventInput({ title: 'After stop' }), as(admin));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.sent).toHaveLength(1);
  });

  it('looks at the outbox after a change only when the change queued deliveries', async () => {
    const storage = createMemoryStorage();
    let claims = 0;
    const claim = storage.webhooks.claim.bind(storage.webhooks);
    storage.webhooks.claim = (options) => {
      claims++;
      return claim(options);
    };
    const calendar = makeCalendar({ storage });
    const t = transport();
    const dispatcher = createWebhookDispatcher(calendar, { send: t.send, intervalMs: 60_000 });
    dispatcher.start();
    await expect.poll(() => claims).toBe(1);
    // No endpoint: writes queue nothing, and the sender is not woken by them.
    for (let i = 0; i < 3; i++) await calendar.events.create(eventInput({ title: `Quiet ${i}` }), as(admin));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(claims).toBe(1);
    // An endpoint: the next write queues a delivery and wakes the sender at once.
    await endpoint(calendar);
    await calendar.events.create(eventInput({ title: 'Heard' }), as(admin));
    await expect.poll(() => t.sent.length).toBe(1);
    expect(claims).toBeGreaterThan(1);
    await dispatcher.stop();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2030, 0, 1);
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs(new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
