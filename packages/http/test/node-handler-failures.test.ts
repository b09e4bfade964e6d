// toNodeHandler in a real node:http server when things go wrong: clients that go away mid-upload,
// proxies in front, any fetch handler behind it, and a fetch handler that rejects.

import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { bearerTokens, type FetchHandler, type FetchHandlerOptions } from '@evcal/http';
import { toNodeHandler } from '@evcal/http/node';
import { ADMIN, NEW_EVENT, NS, calendarHandler, deferred, listen, readJson, serveApi } from './support/node-bridge.ts';

describe('toNodeHandler in node:http when things go wrong', () => {
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
