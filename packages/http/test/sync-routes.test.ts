// The routes of keeping a copy in sync, over createFetchHandler: GET /changes (tokens, 410
// with its codes in every language, no caching of a moving answer), modified_after on the
// lists (and in their next links), /webhooks for administrators only (private addresses
// refused, each endpoint with its delivery status), and their place in the namespace index and /doc.
import { describe, expect, it } from 'vitest';
import { createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { bearerTokens, createFetchHandler, createLanguageHandler, type FetchHandler } from '@evcal/http';

const NOW = Date.parse('2026-11-22T06:30:00Z');
const ROOT = 'https://cal.example.org/cal/events/v1';
const TOKENS = { 'tok-admin': { id: 1, role: 'administrator' }, 'tok-editor': { id: 2, role: 'editor' } } as const;

function handler(languages = false): FetchHandler {
  const calendar = createCalendar({ storage: createMemoryStorage(), now: () => NOW });
  const options = { authenticate: bearerTokens(TOKENS) };
  return languages ? createLanguageHandler(calendar, { ...options, languages: ['en', 'de'] }) : createFetchHandler(calendar, options);
}

async function send(h: FetchHandler, path: string, init: { method?: string; json?: unknown; token?: keyof typeof TOKENS } = {}) {
  const url = /^https?:/.test(path) ? path : `${ROOT}${path}`;
  const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await h(new Request(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'), headers, ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const EVENT = { title: 'Gig', start_date: '2027-02-01 20:00:00', end_date: '2027-02-01 23:00:00' };

describe('GET /changes', () => {
  it('answers a token for now, then what changed, uncached', async () => {
    const h = handler();
    const first = await send(h, '/changes');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ changes: [], has_more: false, full_sync_required: true });
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('etag')).toBeNull();
    const created = await send(h, '/events', { json: EVENT, token: 'tok-admin' });
    const next = await send(h, first.json.next_rest_url);
    expect(next.json.changes).toEqual([{ type: 'event', id: created.json.id, deleted: false, revision: 1, record: expect.objectContaining({ id: created.json.id, title: 'Gig' }) }]);
    expect(next.json.next_rest_url).toContain(`${ROOT}/changes?since=`);
  });

  it.each([
    ['en', '', 'The sync token was not issued by this calendar: list every collection again, then follow the changes from a new token.'],
    ['de', '/de', 'Das Sync-Token wurde nicht von diesem Kalender ausgegeben: Listen Sie jede Sammlung erneut auf und folgen Sie dann den Änderungen ab einem neuen Token.'],
  ])('answers a token it did not issue with 410 changes-token-invalid (%s)', async (_lang, prefix, message) => {
    const h = handler(true);
    const res = await send(h, `https://cal.example.org${prefix}/cal/events/v1/changes?since=bm90IG91cnM`);
    expect(res.status).toBe(410);
    expect(res.json).toEqual({ code: 'changes-token-invalid', message, data: { status: 410 } });
  });

  it('answers a bad per_page with 400 rest_invalid_param', async () => {
    const res = await send(handler(), '/changes?per_page=0');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('rest_invalid_param');
  });
});

describe('modified_after and modified_before on the lists', () => {
  it('filter and are carried to the next page', async () => {
    const h = handler();
    for (const title of ['A', 'B']) await send(h, '/events', { json: { ...EVENT, title }, token: 'tok-admin' });
    const after = await send(h, '/events?per_page=1&modified_after=2026-11-22T06:29:59Z');
    expect(after.json.total).toBe(2);
    expect(after.json.next_rest_url).toMatch(/^https:\/\/cal\.example\.org\/cal\/events\/v1\/events\/\?per_page=1&.*&modified_after=2026-11-22T06%3A29%3A59Z&page=2$/);
    expect(after.headers.get('link')).toContain('modified_after=2026-11-22T06%3A29%3A59Z');
    expect((await send(h, '/events?modified_after=2026-11-22T06:30:00Z')).json.total).toBe(0);
    expect((await send(h, '/venues?modified_before=yesterday')).json.total).toBe(0);
    const bad = await send(h, '/categories?modified_after=whenever');
    expect([bad.status, bad.json.code, Object.keys(bad.json.data.params)]).toEqual([400, 'rest_invalid_param', ['modified_after']]);
  });
});

describe('/webhooks', () => {
  it('is for administrators: 401 anonymous, 403 for an editor', async () => {
    const h = handler();
    expect((await send(h, '/webhooks')).status).toBe(401);
    expect((await send(h, '/webhooks', { json: { url: 'https://hooks.example/' }, token: 'tok-editor' })).status).toBe(403);
  });

  it('registers, reads, changes and removes endpoints', async () => {
    const h = handler();
    const created = await send(h, '/webhooks', { json: { url: 'https://hooks.example/in', types: 'event.created' }, token: 'tok-admin' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${ROOT}/webhooks/${created.json.id}`);
    expect(created.json.secret).toMatch(/^whsec_/);
    const list = await send(h, '/webhooks', { token: 'tok-admin' });
    expect(list.json.webhooks.map((w: { id: string }) => w.id)).toEqual([created.json.id]);
    expect(list.json.webhooks[0]).not.toHaveProperty('secret');
    const patched = await send(h, `/webhooks/${created.json.id}`, { method: 'PATCH', json: { enabled: false }, token: 'tok-admin' });
    expect(patched.json).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    expect((await send(h, `/webhooks/${created.json.id}`, { method: 'DELETE', token: 'tok-admin' })).status).toBe(200);
    const gone = await send(h, `/webhooks/${created.json.id}`, { token: 'tok-admin' });
    expect([gone.status, gone.json.code]).toEqual([404, 'webhook-not-found']);
    const bad = await send(h, '/webhooks', { json: { url: 'ftp://hooks.example/' }, token: 'tok-admin' });
    expect([bad.status, bad.json.code]).toEqual([400, 'rest_invalid_param']);
  });

  it('refuses a loopback, private or link-local address with 400 naming the rule and how to allow it, in every language', async () => {
    const h = handler(true);
    const res = await send(h, '/webhooks', { json: { url: 'http://127.0.0.1:8081/hook' }, token: 'tok-admin' });
    expect([res.status, res.json.code, res.json.message]).toEqual([400, 'rest_invalid_param', 'Invalid parameter(s): url']);
    expect(res.json.data.params.url).toBe('127.0.0.1 is a loopback address: webhooks are delivered to public addresses only. To allow private addresses, '
      + 'start evcal serve with --webhook-allow-private (evcal webhooks add takes it too), or set the calendar\'s webhooks.allowPrivateAddresses.');
    const de = await send(h, 'https://cal.example.org/de/cal/events/v1/webhooks', { json: { url: 'http://169.254.169.254/latest' }, token: 'tok-admin' });
    expect(de.json.data.params.url).toMatch(/^169\.254\.169\.254 is a link-local address: Webhooks werden nur an öffentliche Adressen zugestellt\. .*--webhook-allow-private/);
    expect((await send(h, '/webhooks', { token: 'tok-admin' })).json.webhooks).toEqual([]);
  });

  it('shows each endpoint\'s delivery status', async () => {
    const h = handler();
    const created = await send(h, '/webhooks', { json: { url: 'https://hooks.example/in' }, token: 'tok-admin' });
    await send(h, '/events', { json: EVENT, token: 'tok-admin' });
    const [listed] = (await send(h, '/webhooks', { token: 'tok-admin' })).json.webhooks;
    // Nothing sends here: the delivery waits, due now.
    expect(listed.delivery).toEqual({
      last_attempt: null, last_status: null, last_error: null, consecutive_failures: 0, waiting: 1, failed: 0, next_attempt: new Date(NOW).toISOString(),
    });
    expect((await send(h, `/webhooks/${created.json.id}`, { token: 'tok-admin' })).json.delivery).toEqual(listed.delivery);
  });
});

describe('documentation', () => {
  it('describes /changes and /webhooks in /doc with schemas from core', async () => {
    const doc = (await send(handler(), '/doc')).json;
    const changes = doc.paths['/changes'].get;
    expect(changes.parameters.map((p: { name: string }) => p.name)).toEqual(['since', 'per_page']);
    expect(changes.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Changes' });
    expect(changes.responses['410'].description).toContain('changes-token-expired');
    expect(doc.components.schemas.Tombstone.required).toEqual(['type', 'id', 'deleted']);
    expect(doc.paths['/webhooks/{id}'].patch.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookEndpoint' });
    expect(doc.paths['/webhooks'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookEndpointList' });
    expect(doc.components.schemas.WebhookEndpoint.properties.delivery).toEqual({ $ref: '#/components/schemas/WebhookDeliveryStatus' });
    expect(Object.keys(doc.components.schemas.WebhookDeliveryStatus.properties)).toEqual(['last_attempt', 'last_status', 'last_error', 'consecutive_failures', 'waiting', 'failed', 'next_attempt']);
    // Webhook endpoints take no If-Match (they are not records with validators); like every write, an Idempotency-Key.
    expect(doc.paths['/webhooks/{id}'].patch.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'Idempotency-Key']);
  });
});
