// toNodeHandler in a real node:http server on an ephemeral port, driven with fetch(): bodies
// as clients send them, bodies another middleware already parsed, an Express-style mount
// (req.originalUrl keeps the mount path), the body size cap, and clients that go away.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { bearerTokens, createFetchHandler, parsePhpParams, type FetchHandler, type FetchHandlerOptions } from '@evcal/http';
import { toNodeHandler, type NodeHandlerOptions } from '@evcal/http/node';

const NS = '/cal/events/v1';
const ADMIN = { authorization: 'Bearer tok-admin' };
const NEW_EVENT = { title: 'Gig', start_date: '2027-02-01 20:00:00', end_date: '2027-02-01 23:00:00' };

type NodeRequest = IncomingMessage & { body?: unknown; originalUrl?: string };
type Listener = (req: NodeRequest, res: ServerResponse) => void;

async function calendarHandler(options: FetchHandlerOptions = {}): Promise<FetchHandler> {
  const calendar = createCalendar({ storage: createMemoryStorage(), now: () => Date.parse('2026-11-22T06:30:00Z') });
  await calendar.importDataset({
    events: [
      { id: 12, title: 'Twelve', start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 11:00:00', status: 'publish' },
      { id: 34, title: 'Thirty-four', start_date: '2027-01-03 10:00:00', end_date: '2027-01-03 11:00:00', status: 'publish' },
    ],
  });
  return createFetchHandler(calendar, { authenticate: bearerTokens({ 'tok-admin': { id: 1, role: 'administrator' } }), ...options });
}

/** Starts a server on 127.0.0.1:0, closed when the test finishes. */
async function listen(listener: Listener): Promise<string> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server running evcal through toNodeHandler; returns the API root. */
async function serveApi(options: FetchHandlerOptions = {}, nodeOptions?: NodeHandlerOptions): Promise<string> {
  const origin = await listen(toNodeHandler(await calendarHandler(options), nodeOptions));
  return `${origin}${NS}`;
}

async function readJson(res: Response): Promise<any> {
  const text = await res.text();
  return text === '' ? undefined : JSON.parse(text);
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('toNodeHandler in node:http', () => {
  it('creates from a JSON body', async () => {
    const api = await serveApi();
    const res = await fetch(`${api}/events`, {
      method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify(NEW_EVENT),
    });
    expect(res.status).toBe(201);
    expect(await readJson(res)).toMatchObject({ title: 'Gig', start_date: NEW_EVENT.start_date });
  });

  it('creates from a URL-encoded form body, brackets parsed PHP-style', async () => {
    const api = await serveApi();
    const body = new URLSearchParams({ ...NEW_EVENT, 'venue[venue]': 'Arena', 'venue[city]': 'Rome' });
    const res = await fetch(`${api}/events`, { method: 'POST', headers: ADMIN, body });
    expect(res.status).toBe(201);
    expect((await readJson(res)).venue).toMatchObject({ venue: 'Arena', city: 'Rome' });
  });

  it('creates from a multipart form body', async () => {
    const api = await serveApi();
    const body = new FormData();
    for (const [k, v] of Object.entries({ ...NEW_EVENT, title: 'Multipart' })) body.set(k, v);
    const res = await fetch(`${api}/events`, { method: 'POST', headers: ADMIN, body });
    expect(res.status).toBe(201);
    expect((await readJson(res)).title).toBe('Multipart');
  });

  it('creates from a streamed (chunked) body', async () => {
    const api = await serveApi();
    const text = new URLSearchParams(NEW_EVENT).toString();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const res = await fetch(`${api}/events`, {
      method: 'POST', headers: { ...ADMIN, 'content-type': 'application/x-www-form-urlencoded' }, body, duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
  });

  it('builds absolute URLs from the Host the client used and passes the list headers on', async () => {
    const api = await serveApi();
    const res = await fetch(`${api}/events?per_page=1`);
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body.rest_url.startsWith(`${api}/events/?`)).toBe(true);
    expect(body.events[0].rest_url).toBe(`${api}/events/12`);
    expect(res.headers.get('x-tec-total')).toBe('2');
    expect(res.headers.get('x-tec-totalpages')).toBe('2');
    expect(res.headers.get('link')).toBe(`<${body.next_rest_url}>; rel="next"`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
  });

  it('answers HEAD without a body', async () => {
    const api = await serveApi();
    const res = await fetch(`${api}/events`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-tec-total')).toBe('2');
  });

  it('answers errors with their status and JSON body', async () => {
    const api = await serveApi();
    const res = await fetch(`${api}/events/abc`);
    expect(res.status).toBe(404);
    expect(await readJson(res)).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
  });

  describe('an Express-style mount', () => {
    /** What Express does for `app.use('/api', handler)`: req.url loses the mount path, req.originalUrl keeps it. */
    const mountAt = (prefix: string, inner: Listener): Listener => (req, res) => {
      if (!req.url?.startsWith(`${prefix}/`)) {
        res.statusCode = 418;
        res.end('not mounted here');
        return;
      }
      req.originalUrl = req.url;
      req.url = req.url.slice(prefix.length);
      inner(req, res);
    };

    it('serves under the mount path and builds URLs with it', async () => {
      const origin = await listen(mountAt('/api', toNodeHandler(await calendarHandler({ basePath: '/api' }))));
      const res = await fetch(`${origin}/api${NS}/events?per_page=1`);
      expect(res.status).toBe(200);
      const body = await readJson(res);
      expect(body.rest_url.startsWith(`${origin}/api${NS}/events/?`)).toBe(true);
      expect(body.next_rest_url.startsWith(`${origin}/api${NS}/events/?`)).toBe(true);
      expect(body.events[0].rest_url).toBe(`${origin}/api${NS}/events/12`);
      expect(res.headers.get('link')).toContain(`<${origin}/api${NS}/events/?`);
    });

    it('follows its own next link', async () => {
      const origin = await listen(mountAt('/api', toNodeHandler(await calendarHandler({ basePath: '/api' }))));
      const first = await readJson(await fetch(`${origin}/api${NS}/events?per_page=1`));
      const next = await fetch(first.next_rest_url);
      expect(next.status).toBe(200);
      expect((await readJson(next)).events.map((e: { id: number }) => e.id)).toEqual([34]);
    });

    it('gives /doc the mounted server URL', async () => {
      const origin = await listen(mountAt('/api', toNodeHandler(await calendarHandler({ basePath: '/api' }))));
      const doc = await readJson(await fetch(`${origin}/api${NS}/doc`));
      expect(doc.servers[0].url).toBe(`${origin}/api${NS}/`);
    });
  });

  describe('a body another middleware already parsed', () => {
    /** Reads and parses the body first, as express.json() / express.urlencoded({ extended: true }) would. */
    const parsing = (parse: (raw: Buffer, type: string) => unknown, inner: Listener): Listener => (req, res) => {
      readAll(req).then((raw) => {
        req.body = parse(raw, req.headers['content-type'] ?? '');
        inner(req, res);
      }, () => res.destroy());
    };

    it('uses a parsed JSON object', async () => {
      const origin = await listen(parsing((raw) => JSON.parse(raw.toString('utf8')), toNodeHandler(await calendarHandler())));
      const res = await fetch(`${origin}${NS}/events`, {
        method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ ...NEW_EVENT, title: 'Parsed' }),
      });
      expect(res.status).toBe(201);
      expect((await readJson(res)).title).toBe('Parsed');
    });

    it('uses a parsed form object with nested values', async () => {
      const extended = (raw: Buffer) => parsePhpParams(new URLSearchParams(raw.toString('utf8')));
      const origin = await listen(parsing(extended, toNodeHandler(await calendarHandler())));
      const body = new URLSearchParams({ ...NEW_EVENT, 'venue[venue]': 'Arena', 'venue[city]': 'Rome' });
      const res = await fetch(`${origin}${NS}/events`, { method: 'POST', headers: ADMIN, body });
      expect(res.status).toBe(201);
      expect((await readJson(res)).venue).toMatchObject({ venue: 'Arena', city: 'Rome' });
    });

    it('uses a body kept as text', async () => {
      const origin = await listen(parsing((raw) => raw.toString('utf8'), toNodeHandler(await calendarHandler())));
      const res = await fetch(`${origin}${NS}/events`, {
        method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ ...NEW_EVENT, title: 'Text' }),
      });
      expect(res.status).toBe(201);
      expect((await readJson(res)).title).toBe('Text');
    });

    it('uses a body kept as a Buffer', async () => {
      const origin = await listen(parsing((raw) => raw, toNodeHandler(await calendarHandler())));
      const res = await fetch(`${origin}${NS}/events`, {
        method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ ...NEW_EVENT, title: 'Raw' }),
      });
      expect(res.status).toBe(201);
      expect((await readJson(res)).title).toBe('Raw');
    });

    it('reads the stream itself when a parser skipped the request but set req.body = {} (body-parser 1)', async () => {
      const skipping: Listener = (req, res) => {
        req.body = {};
        bridge(req, res);
      };
      const bridge = toNodeHandler(await calendarHandler());
      const origin = await listen(skipping);
      const body = new URLSearchParams({ ...NEW_EVENT, title: 'Unparsed' });
      const res = await fetch(`${origin}${NS}/events`, { method: 'POST', headers: ADMIN, body });
      expect(res.status).toBe(201);
      expect((await readJson(res)).title).toBe('Unparsed');
    });

    it('ignores a parsed body on GET', async () => {
      const origin = await listen(parsing(() => ({ id: 34 }), toNodeHandler(await calendarHandler())));
      const res = await fetch(`${origin}${NS}/events/12`);
      expect((await readJson(res)).id).toBe(12);
    });
  });

  describe('the body size cap', () => {
    it('answers an upload over the cap with 413', async () => {
      const api = await serveApi({ maxBodyBytes: 1024 });
      const res = await fetch(`${api}/events`, {
        method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ ...NEW_EVENT, description: 'x'.repeat(2048) }),
      });
      expect(res.status).toBe(413);
      expect(await readJson(res)).toMatchObject({ data: { status: 413 } });
    });

    it('answers a chunked upload over the cap with 413', async () => {
      const api = await serveApi({ maxBodyBytes: 1024 });
      const chunk = new TextEncoder().encode('x'.repeat(512));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 6) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const res = await fetch(`${api}/events`, {
        method: 'POST', headers: { ...ADMIN, 'content-type': 'text/plain' }, body, duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
    });

    // Each round: an upload far over the cap on a keep-alive connection, then a normal read.
    // The server must answer 413 and leave the connection usable (or close it cleanly).
    it('answers every one of several large uploads with 413 and keeps serving', { timeout: 60_000 }, async () => {
      const onError = vi.fn();
      const api = await serveApi({ maxBodyBytes: 1024, onError });
      const outcomes: string[] = [];
      for (let i = 0; i < 3; i++) {
        const upload = await fetch(`${api}/events`, {
          method: 'POST', headers: { ...ADMIN, 'content-type': 'text/plain' }, body: 'x'.repeat(256 * 1024),
        }).then(async (r) => { await r.arrayBuffer(); return String(r.status); }, (e: Error & { cause?: { code?: string } }) => `upload failed: ${e.cause?.code ?? e.message}`);
        const after = await fetch(`${api}/events/12`)
          .then(async (r) => { await r.arrayBuffer(); return String(r.status); }, (e: Error & { cause?: { code?: string } }) => `next request failed: ${e.cause?.code ?? e.message}`);
        outcomes.push(`${upload} / ${after}`);
      }
      expect(outcomes).toEqual(['413 / 200', '413 / 200', '413 / 200']);
      expect(onError).not.toHaveBeenCalled();
    });
  });

  describe('a client that disconnects', () => {
    /** Starts an upload to `origin` that never ends, waits until `arrived`, then aborts the client. */
    async function abandonUploadTo(origin: string, arrived: Promise<unknown>): Promise<void> {
      const client = new AbortController();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('title=Half'));
        },
      });
      const upload = fetch(`${origin}${NS}/events`, {
        method: 'POST', headers: { ...ADMIN, 'content-type': 'application/x-www-form-urlencoded' },
        body, duplex: 'half', signal: client.signal,
      } as RequestInit);
      await arrived;
      client.abort();
      await expect(upload).rejects.toThrow();
    }

    /** The same through a fetch handler wrapping evcal's (the web Request/Response path). */
    async function abandonUpload(options: FetchHandlerOptions) {
      const handler = await calendarHandler(options);
      const arrived = deferred<Request>();
      const settled = deferred();
      const tracked: FetchHandler = (request) => {
        arrived.resolve(request);
        return handler(request).finally(() => settled.resolve());
      };
      const origin = await listen(toNodeHandler(tracked));
      await abandonUploadTo(origin, arrived.promise);
      await settled.promise;
      return { origin, request: await arrived.promise };
    }

    it('does not crash the server, which keeps serving', async () => {
      const { origin, request } = await abandonUpload({ onError: () => undefined });
      // The bridge aborts the request it handed to the fetch handler.
      expect(request.signal.aborted).toBe(true);
      const res = await fetch(`${origin}${NS}/events/12`);
      expect(res.status).toBe(200);
      expect((await readJson(res)).id).toBe(12);
    });

    it('does not report the disconnect as an unexpected error', async () => {
      const onError = vi.fn();
      await abandonUpload({ onError });
      expect(onError).not.toHaveBeenCalled();
    });

    it('ends evcal\'s own handler too (served without a web Response), which answers nobody and reports nothing', async () => {
      const onError = vi.fn();
      const arrived = deferred();
      const bearer = bearerTokens({ 'tok-admin': { id: 1, role: 'administrator' } });
      const bridge = toNodeHandler(await calendarHandler({
        onError,
        authenticate: (request) => {
          arrived.resolve();
          return bearer(request);
        },
      }));
      let response: ServerResponse | undefined;
      const origin = await listen((req, res) => {
        response = res;
        bridge(req, res);
      });
      await abandonUploadTo(origin, arrived.promise);
      // The handler finished: it ended the response (to a closed connection) instead of waiting forever for the body.
      await vi.waitFor(() => expect(response?.writableEnded).toBe(true), { timeout: 5000 });
      expect(onError).not.toHaveBeenCalled();
      const res = await fetch(`${origin}${NS}/events/12`);
      expect(res.status).toBe(200);
    });
  });

  describe('proxies', () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'cal.example.org' };

    it('ignores X-Forwarded-* by default', async () => {
      const api = await serveApi();
      const body = await readJson(await fetch(`${api}/events/12`, { headers: forwarded }));
      expect(body.rest_url).toBe(`${api}/events/12`);
    });

    it('builds URLs from X-Forwarded-Proto and X-Forwarded-Host with trustProxy', async () => {
      const api = await serveApi({}, { trustProxy: true });
      const body = await readJson(await fetch(`${api}/events/12`, { headers: forwarded }));
      expect(body.rest_url).toBe(`https://cal.example.org${NS}/events/12`);
    });

    it('builds URLs on the public origin it is given, whatever Host and X-Forwarded-* say', async () => {
      const api = await serveApi({}, { origin: 'https://events.example.net', trustProxy: true });
      const body = await readJson(await fetch(`${api}/events/12`, { headers: forwarded }));
      expect([body.rest_url, body.url]).toEqual([`https://events.example.net${NS}/events/12`, expect.stringMatching(/^https:\/\/events\.example\.net\/event\//)]);
      const list = await readJson(await fetch(`${api}/events?per_page=1`));
      expect(list.next_rest_url).toMatch(/^https:\/\/events\.example\.net\//);
    });
  });

  describe('any fetch handler', () => {
    it('serves one that is not evcal\'s through web Responses, with the same status, headers and bytes', async () => {
      const evcal = await calendarHandler();
      // A wrapper, as an app's middleware might add: toNodeHandler cannot take evcal's direct path.
      const wrapped: FetchHandler = async (request) => {
        const response = await evcal(request);
        return new Response(response.body, { status: response.status, headers: response.headers });
      };
      const direct = `${await listen(toNodeHandler(evcal))}${NS}`;
      const generic = `${await listen(toNodeHandler(wrapped))}${NS}`;
      for (const path of ['/events?per_page=1', '/events/12', '/events/999', '/venues']) {
        const [a, b] = await Promise.all([fetch(`${direct}${path}`), fetch(`${generic}${path}`)]);
        expect(b.status, path).toBe(a.status);
        // The two servers differ in port only, which the bodies' URLs carry.
        expect((await b.text()).replaceAll(new URL(generic).host, 'HOST'), path)
          .toBe((await a.text()).replaceAll(new URL(direct).host, 'HOST'));
        for (const name of ['content-type', 'content-language', 'x-tec-total', 'link']) {
          expect(b.headers.get(name), `${path} ${name}`).toBe(a.headers.get(name)?.replaceAll(new URL(direct).host, new URL(generic).host) ?? null);
        }
      }
      const posted = await fetch(`${generic}/events`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify(NEW_EVENT) });
      expect(posted.status).toBe(201);
      expect((await readJson(posted)).title).toBe('Gig');
    });
  });

  describe('a fetch handler that rejects', () => {
    const failing: FetchHandler = async () => {
      throw new Error('bridge test failure');
    };

    it('answers 500 when there is no next()', async () => {
      const origin = await listen(toNodeHandler(failing));
      const res = await fetch(`${origin}/anything`);
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('bridge test failure');
    });

    it('passes the error to next() when the framework gives one', async () => {
      const seen = deferred<unknown>();
      const bridge = toNodeHandler(failing);
      const origin = await listen((req, res) => bridge(req, res, (error) => {
        seen.resolve(error);
        res.statusCode = 502;
        res.end();
      }));
      const res = await fetch(`${origin}/anything`);
      expect(res.status).toBe(502);
      expect(((await seen.promise) as Error).message).toBe('bridge test failure');
    });
  });
});
