// createFetchHandler over a real calendar on memory storage: errors as the reference sends them
// (§6), authentication and permissions (§5, §10.11) and the WordPress conveniences (§0, §10.12).
import { describe, expect, it, vi } from 'vitest';
import type { Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { NEW_EVENT, NO_ROUTE, send, setup, type Send } from './support/fetch-calendar.ts';

const FORBIDDEN = { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.' };

describe('errors (§6)', () => {
  it('answers with {code, message, data: {status}} and the same HTTP status', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/999');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'rest-event-not-found', message: 'Event with ID 999 does not exist.', data: { status: 404 } });
  });

  it('answers missing parameters with 400 rest_missing_callback_param and data.params a list', async () => {
    const handler = await setup();
    const res = await send(handler, '/events', { json: { description: 'no title' }, as: 'admin' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): title, start_date, end_date',
      data: { status: 400, params: ['title', 'start_date', 'end_date'] },
    });
  });

  it('answers invalid parameters with 400 rest_invalid_param and data.params an object', async () => {
    const handler = await setup();
    const res = await send(handler, '/events?featured=maybe');
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'rest_invalid_param', message: 'Invalid parameter(s): featured', data: { status: 400 } });
    expect(res.json.data.params).toEqual({ featured: expect.any(String) });
    expect(Array.isArray(res.json.data.params)).toBe(false);
  });

  it('names every invalid parameter', async () => {
    const handler = await setup();
    const res = await send(handler, '/events?featured=maybe&page=0');
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.data.params).sort()).toEqual(['featured', 'page']);
  });

  /** Memory storage whose `events.list` throws while `outage.on` is set. */
  function flakyStorage(failure: Error): { storage: Storage; outage: { on: boolean } } {
    const memory = createMemoryStorage();
    const outage = { on: false };
    const storage: Storage = {
      ...memory,
      events: {
        ...memory.events,
        list: async (query) => {
          if (outage.on) throw failure;
          return memory.events.list(query);
        },
      },
    };
    return { storage, outage };
  }

  it('answers an unexpected storage failure with a generic 500 and tells onError', async () => {
    const failure = new Error('connection to postgres://admin:hunter2@db.internal/cal refused');
    const { storage, outage } = flakyStorage(failure);
    const onError = vi.fn();
    const handler = await setup({ onError }, storage);
    outage.on = true;
    const res = await send(handler, '/events');
    expect(res.status).toBe(500);
    expect(Object.keys(res.json).sort()).toEqual(['code', 'data', 'message']);
    expect(res.json.data).toEqual({ status: 500 });
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toContain('postgres');
    expect(res.text).not.toMatch(/at .*\.ts/);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toBe(failure);
    expect(onError.mock.calls[0]![1]).toBeInstanceOf(Request);
  });

  it('serves again as soon as the storage recovers from a failure', async () => {
    const { storage, outage } = flakyStorage(new Error('transient'));
    const handler = await setup({ onError: () => undefined }, storage);
    outage.on = true;
    expect((await send(handler, '/events')).status).toBe(500);
    outage.on = false;
    expect((await send(handler, '/events')).status).toBe(200);
    expect((await send(handler, '/events/12')).status).toBe(200);
  });
});

describe('authentication and permissions (§5, §10.11)', () => {
  it('validates before checking permission: an anonymous POST /events without a title is 400, not 401', async () => {
    const handler = await setup();
    const res = await send(handler, '/events', { json: { start_date: NEW_EVENT.start_date, end_date: NEW_EVENT.end_date } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('rest_missing_callback_param');
    expect(res.json.data.params).toEqual(['title']);
  });

  it('validates before checking permission: an anonymous invalid value is 400 rest_invalid_param', async () => {
    const handler = await setup();
    const res = await send(handler, '/events', { json: { ...NEW_EVENT, featured: 'maybe' } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('rest_invalid_param');
  });

  it.each<[string, Send, string]>([
    ['create an event', { json: NEW_EVENT }, '/events'],
    ['delete an event', { method: 'DELETE' }, '/events/12'],
    ['create a category', { json: { name: 'Jazz' } }, '/categories'],
  ])('refuses an anonymous caller who may not %s with 401 rest_forbidden', async (_name, init, path) => {
    const handler = await setup();
    const res = await send(handler, path, init);
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ ...FORBIDDEN, data: { status: 401 } });
  });

  it.each<[string, Send, string]>([
    ['create an event', { json: NEW_EVENT }, '/events'],
    ['delete an event', { method: 'DELETE' }, '/events/12'],
    ['create a category', { json: { name: 'Jazz' } }, '/categories'],
  ])('refuses an authenticated caller who may not %s with 403 rest_forbidden', async (_name, init, path) => {
    const handler = await setup();
    const res = await send(handler, path, { ...init, as: 'subscriber' });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ ...FORBIDDEN, data: { status: 403 } });
  });

  it('lets an administrator create', async () => {
    const handler = await setup();
    const res = await send(handler, '/events', { json: NEW_EVENT, as: 'admin' });
    expect(res.status).toBe(201);
    expect(res.json.title).toBe('Gig');
  });

  it.each(['', '/doc', '/events', '/events/12', '/categories'])('refuses an unknown bearer token on GET %j with 401 rest_invalid_token', async (path) => {
    const handler = await setup();
    const res = await send(handler, path, { headers: { authorization: 'Bearer not-a-token' } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'rest_invalid_token', data: { status: 401 } });
  });

  it.each(['Basic YWRtaW46YWRtaW4=', 'Bearer', 'tok-admin'])('refuses a malformed Authorization header (%s) with 401', async (value) => {
    const handler = await setup();
    const res = await send(handler, '/events', { headers: { authorization: value } });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('rest_invalid_token');
  });

  it('checks credentials before parameters', async () => {
    const handler = await setup();
    const res = await send(handler, '/events', { json: {}, headers: { authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('rest_invalid_token');
  });
});

describe('HTTP conveniences (§0, §10.12)', () => {
  it('answers HEAD like GET without a body', async () => {
    const handler = await setup();
    const res = await send(handler, '/events?per_page=1', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('x-tec-total')).toBe('3');
    expect(res.headers.get('link')).toContain('rel="next"');
  });

  it.each(['/events/999', '/widgets'])('answers HEAD %s with the GET status and no body', async (path) => {
    const handler = await setup();
    const res = await send(handler, path, { method: 'HEAD' });
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
  });

  it.each([
    ['', ['GET']],
    ['/events', ['GET', 'POST']],
    ['/events/12', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']],
    ['/events/by-slug/twelve', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']],
    ['/tags/3', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']],
  ])('answers OPTIONS %j with 200 and an Allow header', async (path, methods) => {
    const handler = await setup();
    const res = await send(handler, path, { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim()).filter(Boolean);
    expect(allow.sort()).toEqual([...methods].sort());
  });

  it('answers OPTIONS on an unknown path with 404 rest_no_route', async () => {
    const handler = await setup();
    const res = await send(handler, '/widgets', { method: 'OPTIONS' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual(NO_ROUTE);
  });

  it('overrides POST with ?_method=PUT (PUT has no route on a collection)', async () => {
    const handler = await setup();
    const res = await send(handler, '/events?_method=PUT', { json: NEW_EVENT, as: 'admin' });
    expect(res.status).toBe(404);
    expect(res.json).toEqual(NO_ROUTE);
  });

  it('overrides POST with ?_method=PUT on an item: the update runs', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/12?_method=PUT', { json: { ...NEW_EVENT, title: 'Renamed' }, as: 'admin' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: 12, title: 'Renamed' });
  });

  it('overrides POST with ?_method=DELETE', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/12?_method=DELETE', { method: 'POST', as: 'admin' });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('trash');
    expect((await send(handler, '/events/12')).json.code).toBe('event-no-longer-available');
  });

  it('overrides POST with X-HTTP-Method-Override: PATCH changes only what is sent', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/34', {
      json: { title: 'Patched' }, headers: { 'x-http-method-override': 'PATCH' }, as: 'admin',
    });
    expect(res.status).toBe(200);
    // A POST update would reset the omitted `featured` to false (§4.2); PATCH keeps it.
    expect(res.json).toMatchObject({ id: 34, title: 'Patched', featured: true });
  });

  it('does not pass _method on to the operation', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/12?_method=GET', { method: 'POST', json: {}, as: 'admin' });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(12);
  });

  it('trims a single item to ?_fields=id,title', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/12?_fields=id,title');
    expect(res.json).toEqual({ id: 12, title: 'Twelve' });
  });

  it('applies _fields to the keys of a list envelope', async () => {
    const handler = await setup();
    const res = await send(handler, '/events?_fields=total,total_pages');
    expect(res.json).toEqual({ total: 3, total_pages: 1 });
  });

  it('leaves error bodies whole under _fields', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/999?_fields=id');
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('rest-event-not-found');
  });

  it('wraps a response as {body, status, headers} with ?_envelope', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/12?_envelope');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['body', 'headers', 'status']);
    expect(res.json.status).toBe(200);
    expect(res.json.body.id).toBe(12);
  });

  it('answers an enveloped error with HTTP 200 and the error status inside', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/999?_envelope=1');
    expect(res.status).toBe(200);
    expect(res.json.status).toBe(404);
    expect(res.json.body.code).toBe('rest-event-not-found');
  });

  it('puts the list headers inside the envelope', async () => {
    const handler = await setup();
    const res = await send(handler, '/events?_envelope&per_page=1');
    const headers = Object.fromEntries(Object.entries(res.json.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    expect(headers['x-tec-total']).toBe('3');
    expect(headers['x-tec-totalpages']).toBe('3');
  });

  it('does not offer JSONP: ?_jsonp=cb still answers plain JSON', async () => {
    const handler = await setup();
    const res = await send(handler, '/events/12?_jsonp=cb');
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.json.id).toBe(12);
  });
});
