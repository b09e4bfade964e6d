// Accounts over HTTP: API tokens as Bearer, application passwords over HTTP Basic as the
// reference's clients send them, WordPress's refusals for wrong Basic credentials, fixed
// tokens beside the accounts, and the limit on repeated failures from one address.
import { createAccounts, createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { accountCredentials, createFetchHandler, memoryCredentialFailureLimit, type FetchHandlerOptions } from '../src/index';

const API = 'http://cal.test/cal/events/v1';
const basic = (name: string, password: string) => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
const EVENT = { title: 'Gig', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00' };

async function setup(options: Partial<FetchHandlerOptions> = {}) {
  const storage = createMemoryStorage();
  const accounts = createAccounts({ storage });
  await accounts.users.add({ name: 'ada', role: 'editor', id: 3 });
  const password = (await accounts.tokens.create({ user: 'ada', kind: 'application-password' })).token;
  const bearer = await accounts.tokens.create({ user: 'ada' });
  const handler = createFetchHandler(createCalendar({ storage }), {
    authenticate: accountCredentials(accounts, { tokens: { 'fixed-token': { id: 9, role: 'administrator' } } }),
    ...options,
  });
  const send = async (authorization: string | undefined, { method = 'GET', body, from = '192.0.2.1' }: { method?: string; body?: unknown; from?: string } = {}) => {
    const request = new Request(`${API}/events`, {
      method,
      headers: { ...(authorization ? { authorization } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    // The client address a bridge would give (a web Request carries none of its own).
    if (from) Object.defineProperty(request, 'clientAddress', { value: from });
    const res = await handler(request);
    return { status: res.status, headers: res.headers, json: await res.json() as Record<string, any> };
  };
  return { accounts, password, bearer, send };
}

describe('accountCredentials', () => {
  it('lets an application password over HTTP Basic create an event as its user, with or without its spaces', async () => {
    const { password, send } = await setup();
    const created = await send(basic('ada', password), { method: 'POST', body: EVENT });
    expect(created.status).toBe(201);
    expect(created.json.author).toBe('3');
    expect((await send(basic('ADA', password.replace(/ /g, '')), { method: 'POST', body: EVENT })).status).toBe(201);
  });

  it('refuses wrong Basic credentials as WordPress does: invalid_username, invalid_email, incorrect_password', async () => {
    const { password, send } = await setup();
    expect(await send(basic('nobody', password))).toMatchObject({
      status: 401, json: { code: 'invalid_username', message: '<strong>Error</strong>: Unknown username. Check again or try your email address.', data: { status: 401 } },
    });
    expect(await send(basic('nobody@example.org', password))).toMatchObject({ status: 401, json: { code: 'invalid_email' } });
    expect(await send(basic('ada', 'abcd efgh ijkl mnop qrst uvwx'))).toMatchObject({
      status: 401, json: { code: 'incorrect_password', message: 'The provided password is an invalid application password.' },
    });
  });

  it('takes API tokens as Bearer, refuses them once revoked, and keeps fixed tokens working', async () => {
    const { accounts, bearer, send } = await setup();
    expect((await send(`Bearer ${bearer.token}`, { method: 'POST', body: EVENT })).status).toBe(201);
    await accounts.tokens.revoke(bearer.record.id);
    expect(await send(`Bearer ${bearer.token}`)).toMatchObject({ status: 401, json: { code: 'rest_invalid_token' } });
    expect((await send('Bearer fixed-token', { method: 'POST', body: EVENT })).json.author).toBe('9');
    expect((await send(basic('anyone', 'fixed-token'), { method: 'POST', body: EVENT })).status).toBe(201);
    expect(await send('Digest x')).toMatchObject({ status: 401, json: { code: 'rest_invalid_token' } });
  });
});

describe('memoryCredentialFailureLimit', () => {
  it('makes an address wait after five failures, doubling the wait, and forgets it after a success', async () => {
    let now = 1_000_000;
    const { password, send } = await setup({ credentialFailures: memoryCredentialFailureLimit({ now: () => now }) });
    const wrong = basic('ada', 'wrong');
    for (let i = 0; i < 5; i++) expect((await send(wrong)).status).toBe(401);
    const refused = await send(basic('ada', password));
    expect(refused).toMatchObject({ status: 429, json: { code: 'rest_too_many_requests' } });
    expect(refused.headers.get('retry-after')).toBe('1');
    // Other addresses, and requests without credentials, are not affected.
    expect((await send(basic('ada', password), { from: '192.0.2.2' })).status).toBe(200);
    expect((await send(undefined)).status).toBe(200);
    now += 1_000;
    expect((await send(wrong)).status).toBe(401);
    expect((await send(wrong)).headers.get('retry-after')).toBe('2');
    now += 2_000;
    expect((await send(basic('ada', password))).status).toBe(200);
    expect((await send(wrong)).status).toBe(401);
  });

  it('caps the wait and forgets an address after a quiet period', () => {
    let now = 0;
    const limit = memoryCredentialFailureLimit({ now: () => now, freeFailures: 1, maxDelayMs: 4_000, forgetAfterMs: 60_000 });
    for (let i = 0; i < 20; i++) limit.failed('a');
    expect(limit.wait('a')).toBe(4);
    now += 60_000;
    expect(limit.wait('a')).toBe(0);
  });

  it('remembers a bounded number of addresses, the least recently failing forgotten first', () => {
    const limit = memoryCredentialFailureLimit({ now: () => 0, freeFailures: 0, maxClients: 2 });
    limit.failed('a');
    limit.failed('b');
    limit.failed('a');
    limit.failed('c');
    expect([limit.wait('a'), limit.wait('b'), limit.wait('c')].map((w) => w > 0)).toEqual([true, false, true]);
  });
});
