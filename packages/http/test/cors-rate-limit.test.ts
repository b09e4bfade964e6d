// CORS (off by default, allowed origins configurable) and the rate-limit hook.
import { createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientAddress, createFetchHandler, memoryRateLimit, type FetchHandlerOptions, type RateLimitRequest } from '../src/index';
import { toNodeHandler } from '../src/node';

const API = 'http://cal.test/cal/events/v1';
const handlerWith = (options: FetchHandlerOptions) => createFetchHandler(createCalendar({ storage: createMemoryStorage() }), options);
const get = (h: ReturnType<typeof handlerWith>, path: string, headers: Record<string, string> = {}) => h(new Request(`${API}${path}`, { headers }));

describe('CORS', () => {
  it('is off by default: no Access-Control-Allow-Origin, preflights get no CORS answer', async () => {
    const h = handlerWith({});
    const res = await get(h, '/events', { origin: 'https://app.example' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await h(new Request(`${API}/events`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } }));
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers allowed origins, with Vary, and ignores others', async () => {
    const h = handlerWith({ cors: { origins: ['https://app.example'] } });
    const ok = await get(h, '/events', { origin: 'https://app.example' });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    // Accept too: GET /events answers iCalendar to clients that ask for it.
    expect(ok.headers.get('vary')).toBe('Origin, Accept');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/X-TEC-Total/);
    const other = await get(h, '/events', { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight with 204, the route\'s methods and the allowed headers', async () => {
    const h = handlerWith({ cors: { origins: (o) => o.endsWith('.example'), credentials: true, maxAge: 60 } });
    const res = await h(new Request(`${API}/events/12`, {
      method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization' },
    }));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(res.headers.get('access-control-max-age')).toBe('60');
  });

  it("'*' allows any origin without credentials", async () => {
    const res = await get(handlerWith({ cors: { origins: '*' } }), '/events', { origin: 'https://any.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('rate limit', () => {
  it('refuses with 429 and Retry-After once the window is used up, then lets through again', async () => {
    let now = 0;
    const key = ({ request }: RateLimitRequest) => request.headers.get('x-client') ?? '';
    const h = handlerWith({ rateLimit: memoryRateLimit({ limit: 2, windowMs: 10_000, now: () => now, key }) });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(h, '/events', { 'x-client': 'a' })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await get(h, '/events', { 'x-client': 'a' });
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(await refused.json()).toMatchObject({ code: 'rest_too_many_requests', data: { status: 429 } });
    expect((await get(h, '/events', { 'x-client': 'b' })).status).toBe(200);
    now = 10_000;
    expect((await get(h, '/events', { 'x-client': 'a' })).status).toBe(200);
  });

  it('keys authenticated callers by user, not by address', async () => {
    const h = handlerWith({
      authenticate: (request) => (request.headers.has('authorization') ? { id: Number(request.headers.get('authorization')), role: 'editor' } : undefined),
      rateLimit: memoryRateLimit({ limit: 1 }),
    });
    expect((await get(h, '/events', { authorization: '1' })).status).toBe(200);
    expect((await get(h, '/events', { authorization: '1' })).status).toBe(429);
    expect((await get(h, '/events', { authorization: '2' })).status).toBe(200);
  });

  it('keys anonymous callers by the socket address through the node bridge; X-Forwarded-For only under trustProxy', async () => {
    const statusesVia = async (trustProxy: boolean) => {
      const seen: Array<string | undefined> = [];
      const limiter = memoryRateLimit({ limit: 1 });
      const h = handlerWith({ rateLimit: (req) => (seen.push(clientAddress(req.request)), limiter(req)) });
      const server = createServer(toNodeHandler(h, { trustProxy }));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/events/v1/events`;
        const statuses = [];
        // The proxy appends the address it saw to what the client sent: the last entry counts.
        for (const ip of ['203.0.113.7', '192.0.2.66, 198.51.100.1']) statuses.push((await fetch(url, { headers: { 'x-forwarded-for': ip } })).status);
        return { statuses, seen };
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    };
    // A spoofed header does not buy a fresh bucket when the server is the edge.
    expect(await statusesVia(false)).toEqual({ statuses: [200, 429], seen: ['127.0.0.1', '127.0.0.1'] });
    expect(await statusesVia(true)).toEqual({ statuses: [200, 200], seen: ['203.0.113.7', '198.51.100.1'] });
  });

  it('puts anonymous requests with no known address in one shared bucket', async () => {
    const h = handlerWith({ rateLimit: memoryRateLimit({ limit: 1 }) });
    expect(clientAddress(new Request(API))).toBeUndefined();
    expect((await get(h, '/events')).status).toBe(200);
    expect((await get(h, '/events', { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429);
  });

  it('receives the principal and the route', async () => {
    const seen: string[] = [];
    const h = handlerWith({
      authenticate: () => ({ id: 7, role: 'editor' }),
      rateLimit: ({ principal, route }) => {
        seen.push(`${principal?.id} ${route}`);
        return { allowed: true };
      },
    });
    await get(h, '/events/12');
    expect(seen).toEqual(['7 /events/{id}']);
  });
});
