// Real HTTP against the example's Fastify app, listening on a free port.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';

let app: FastifyInstance;
let origin: string;
let api: string;

beforeAll(async () => {
  app = await createApp();
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  api = `${origin}/cal/events/v1`;
});

afterAll(async () => {
  await app.close();
});

const event = { title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 22:00:00' };

describe('Fastify example', () => {
  it('lists the upcoming events', async () => {
    const res = await fetch(`${api}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-tec-total')).toBe('3');
    const body = await res.json();
    expect(body.events.map((e: { title: string }) => e.title)).toEqual(['Jazz Night', 'Printmaking Workshop', 'Open-Air Concert']);
    expect(body.rest_url.startsWith(`${api}/events/?`)).toBe(true);
    expect(body.events[0].rest_url).toBe(`${api}/events/10`);
  });

  it('gets one event', async () => {
    const res = await fetch(`${api}/events/10`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 10, title: 'Jazz Night', rest_url: `${api}/events/10` });
  });

  it('serves the namespace index at the mount itself', async () => {
    const res = await fetch(api);
    expect(res.status).toBe(200);
    expect((await res.json()).namespace).toBe('cal/events/v1');
  });

  it('creates an event from a JSON body with a bearer token', async () => {
    const res = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', rest_url: `${api}/events/${created.id}` });
    expect((await (await fetch(created.rest_url)).json()).title).toBe('Poetry Slam');
  });

  it('creates an event from a form body (Fastify alone would refuse it with 415)', async () => {
    const res = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-token' },
      body: new URLSearchParams({ ...event, title: 'Zine Fair' }),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).title).toBe('Zine Fair');
  });

  it('answers malformed JSON with evcal\'s rest_invalid_json', async () => {
    const res = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' },
      body: '{"title":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('rest_invalid_json');
  });

  it('refuses to create an event without credentials', async () => {
    const res = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('rest_forbidden');
  });

  it('answers rest_no_route for an unknown route under the mount', async () => {
    const res = await fetch(`${api}/nope`);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('rest_no_route');
  });

  it('keeps the app\'s own routes', async () => {
    const res = await fetch(`${origin}/health`);
    expect(await res.json()).toEqual({ ok: true });
  });
});
