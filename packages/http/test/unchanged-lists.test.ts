// A list asked again with its ETag is answered 304 from its validator alone (kept-answers.ts):
// without authenticating or planning it again, and only while that answer is the one the whole
// way would give: nothing written, the same day, no scheduled post come due, no credentials,
// the same Origin and Accept, no rate limit to count the request, and an `authenticate` that
// takes requests without an Authorization header as anonymous.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createCalendar, type Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { toNodeHandler } from '@evcal/http/node';
import {
  anonymousWithoutAuthorization, bearerTokens, createFetchHandler, type Authenticate, type FetchHandlerOptions, type HandlerRequest,
} from '@evcal/http';
import { ADMIN, HOUR, ROOT, SEED_EVENTS, START } from './support/kept-fixtures';

const SEED = { events: [...SEED_EVENTS] };

/**
 * A handler over a seeded memory calendar whose clock the test moves, and how often
 * `authenticate` ran; `declared`: it is declared anonymous without an Authorization header.
 */
async function setup(options: FetchHandlerOptions = {}, authenticate: Authenticate = bearerTokens({ 'tok-admin': ADMIN }), declared = true) {
  let now = START;
  const calendar = createCalendar({ storage: createMemoryStorage(), now: () => now });
  await calendar.importDataset(SEED);
  let authenticated = 0;
  const counted = (request: HandlerRequest) => {
    authenticated += 1;
    return authenticate(request);
  };
  const handler = createFetchHandler(calendar, {
    authenticate: declared ? anonymousWithoutAuthorization(counted) : counted,
    ...options,
  });
  const get = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
    const res = await handler(new Request(`${ROOT}${path}`, { method, headers }));
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
  };
  return {
    calendar, get,
    authenticated: () => authenticated,
    later: (ms: number) => {
      now += ms;
    },
  };
}

describe('an unchanged list asked again with its ETag', () => {
  it('is answered 304 without authenticating, with the headers the whole way gives', async () => {
    const t = await setup();
    const first = await t.get('/events?per_page=1');
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    // The whole way (authenticated once more) answers the first conditional request and remembers it.
    const whole = await t.get('/events?per_page=1', { 'if-none-match': etag });
    const before = t.authenticated();
    const quick = await t.get('/events?per_page=1', { 'if-none-match': etag });
    const head = await t.get('/events?per_page=1', { 'if-none-match': etag }, 'HEAD');
    expect(t.authenticated()).toBe(before);
    expect(whole.status).toBe(304);
    expect(quick).toEqual(whole);
    expect(head).toEqual(whole);
    expect(quick.headers).toMatchObject({ etag, 'cache-control': 'no-cache', vary: 'Authorization, Accept' });
  });

  it('is read again after a write, and after the day changes', async () => {
    const t = await setup();
    const etag = (await t.get('/events')).headers.etag!;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    await t.calendar.events.create({ title: 'New', start_date: '2027-01-05 10:00:00', end_date: '2027-01-05 11:00:00', status: 'publish' }, { principal: ADMIN });
    const written = await t.get('/events', { 'if-none-match': etag });
    expect(written.status).toBe(200);
    expect(JSON.parse(written.text).total).toBe(3);

    const now = written.headers.etag!;
    expect((await t.get('/events', { 'if-none-match': now })).status).toBe(304);
    const before = t.authenticated();
    t.later(24 * HOUR);
    // The default list starts today: a new day is a new list, with a validator of its own.
    const nextDay = await t.get('/events', { 'if-none-match': now });
    expect(t.authenticated()).toBe(before + 1);
    expect(nextDay.status).toBe(200);
    expect(nextDay.headers.etag).not.toBe(now);
  });

  it('is read again once a scheduled post has come due, which is published first', async () => {
    const t = await setup();
    await t.calendar.events.create({
      title: 'Scheduled', start_date: '2027-01-06 10:00:00', end_date: '2027-01-06 11:00:00', status: 'publish', date: '2026-11-22 07:00:00',
    }, { principal: ADMIN });
    const etag = (await t.get('/events')).headers.etag!;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    // 07:01: due, and within the hour of the first request, so nothing else is due to tell it.
    t.later(31 * 60_000);
    const due = await t.get('/events', { 'if-none-match': etag });
    expect(due.status).toBe(200);
    expect(JSON.parse(due.text).events.map((e: { title: string }) => e.title)).toContain('Scheduled');
  });

  it('with a relative date, is answered 304 through its day and read again after midnight', async () => {
    const t = await setup();
    // Tonight, until 23:45 UTC (the calendar's zone): in `start_date=today` on the 22nd, not on the 23rd.
    await t.calendar.events.create({ title: 'Tonight', start_date: '2026-11-22 22:00:00', end_date: '2026-11-22 23:45:00', status: 'publish' }, { principal: ADMIN });
    const today = '/events?start_date=today&end_date=2027-12-31';
    const first = await t.get(today);
    expect(JSON.parse(first.text).events.map((e: { title: string }) => e.title)).toContain('Tonight');
    const etag = first.headers.etag!;
    expect((await t.get(today, { 'if-none-match': etag })).status).toBe(304);
    // Remembered: asked again, answered 304 without going the whole way (no authentication).
    const before = t.authenticated();
    expect((await t.get(today, { 'if-none-match': etag })).status).toBe(304);
    expect(t.authenticated()).toBe(before);
    t.later(17 * HOUR); // 23:30, the same day
    expect((await t.get(today, { 'if-none-match': etag })).status).toBe(304);
    t.later(HOUR); // 00:30 on the 23rd: `today` is another day
    const tomorrow = await t.get(today, { 'if-none-match': etag });
    expect(tomorrow.status).toBe(200);
    expect(tomorrow.headers.etag).not.toBe(etag);
    expect(JSON.parse(tomorrow.text).events.map((e: { title: string }) => e.title)).not.toContain('Tonight');
  });

  it('goes the whole way with credentials: a bad token is refused, a good one gets its own list', async () => {
    const t = await setup();
    const etag = (await t.get('/events')).headers.etag!;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    const refused = await t.get('/events', { 'if-none-match': etag, authorization: 'Bearer revoked' });
    expect(refused.status).toBe(401);
    const admin = await t.get('/events', { 'if-none-match': etag, authorization: 'Bearer tok-admin' });
    expect(admin.status).toBe(200);
    expect(admin.headers['cache-control']).toBe('private, no-cache');
  });

  it('is told apart by Accept and Origin', async () => {
    const t = await setup({ cors: { origins: ['https://app.example'] } });
    const etag = (await t.get('/events')).headers.etag!;
    expect((await t.get('/events', { 'if-none-match': etag })).headers['access-control-allow-origin']).toBeUndefined();
    const cors = await t.get('/events', { 'if-none-match': etag, origin: 'https://app.example' });
    expect(cors.status).toBe(304);
    expect(cors.headers['access-control-allow-origin']).toBe('https://app.example');
    const feed = await t.get('/events', { 'if-none-match': etag, accept: 'text/calendar' });
    expect(feed.status).toBe(200);
    expect(feed.text).toMatch(/^BEGIN:VCALENDAR/);
  });

  it('is not answered early where authentication may read more than the Authorization header', async () => {
    // An app's own scheme, undeclared: a key in a header of its own makes the caller an administrator.
    const byKey: Authenticate = (request) => (request.headers.get('x-api-key') === 'k' ? ADMIN : undefined);
    const t = await setup({}, byKey, false);
    const etag = (await t.get('/events')).headers.etag!;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    const keyed = await t.get('/events', { 'if-none-match': etag, 'x-api-key': 'k' });
    expect(keyed.status).toBe(200);
    expect(keyed.headers['cache-control']).toBe('private, no-cache');
  });

  it('still counts against a rate limit', async () => {
    let asked = 0;
    const t = await setup({ rateLimit: () => ({ allowed: ++asked <= 3 }) });
    const etag = (await t.get('/events')).headers.etag!;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(429);
  });
});

describe('through toNodeHandler', () => {
  /** A real server over a calendar on `storage`, with a request id header; its address. */
  async function serve(storage: Storage, headers: () => Record<string, string> = () => ({ 'x-request-id': 'req-1' })) {
    const calendar = createCalendar({ storage, now: () => START });
    await calendar.importDataset(SEED);
    const handler = createFetchHandler(calendar, { authenticate: bearerTokens({ 'tok-admin': ADMIN }) });
    const server = createServer(toNodeHandler(handler, { headers }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
    const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/events/v1`;
    return { calendar, get: (path: string, headers: Record<string, string> = {}) => fetch(`${root}${path}`, { headers }) };
  }

  it('answers 304 in the turn the request arrived in where the storage reads its counter at once', async () => {
    const storage = createMemoryStorage();
    expect(storage.changeNow).toBeTypeOf('function');
    const t = await serve(storage);
    const etag = (await t.get('/events')).headers.get('etag')!;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    const lastChange = vi.spyOn(storage, 'lastChange');
    const quick = await t.get('/events', { 'if-none-match': etag });
    expect(quick.status).toBe(304);
    expect(quick.headers.get('etag')).toBe(etag);
    expect(quick.headers.get('x-request-id')).toBe('req-1');
    // Nothing waited for: not even one asynchronous read of the counter.
    expect(lastChange).not.toHaveBeenCalled();
    await t.calendar.events.create({ title: 'New', start_date: '2027-01-05 10:00:00', end_date: '2027-01-05 11:00:00', status: 'publish' }, { principal: ADMIN });
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(200);
  });

  it('waits for the counter where the storage cannot read it at once, with the same answers', async () => {
    const { changeNow, ...storage } = createMemoryStorage();
    expect(changeNow).toBeTypeOf('function');
    const t = await serve(storage);
    const etag = (await t.get('/events')).headers.get('etag')!;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    const lastChange = vi.spyOn(storage, 'lastChange');
    const answer = await t.get('/events', { 'if-none-match': etag });
    expect(answer.status).toBe(304);
    expect(answer.headers.get('x-request-id')).toBe('req-1');
    expect(lastChange).toHaveBeenCalledTimes(1);
    await t.calendar.events.create({ title: 'New', start_date: '2027-01-05 10:00:00', end_date: '2027-01-05 11:00:00', status: 'publish' }, { principal: ADMIN });
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(200);
  });

  it('answers 500, and keeps serving, when the headers hook throws on an answer given at once', async () => {
    let broken = false;
    const t = await serve(createMemoryStorage(), () => {
      if (broken) throw new Error('hook failed');
      return { 'x-request-id': 'req-1' };
    });
    const etag = (await t.get('/events')).headers.get('etag')!;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
    broken = true;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(500);
    broken = false;
    expect((await t.get('/events', { 'if-none-match': etag })).status).toBe(304);
  });
});
