// toNodeHandler in a real node:http server on an ephemeral port, driven with fetch(): bodies
// as clients send them, bodies another middleware already parsed, an Express-style mount
// (req.originalUrl keeps the mount path) and the body size cap. Failures: node-handler-failures.test.ts.

import { describe, expect, it, vi } from 'vitest';
import { parsePhpParams } from '@evcal/http';
import { toNodeHandler } from '@evcal/http/node';
import { ADMIN, NEW_EVENT, NS, calendarHandler, listen, readAll, readJson, serveApi, type Listener } from './support/node-bridge.ts';


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
});
