// Real HTTP against the example's Hono app, served by @hono/node-server on a free port.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';

let server: ServerType;
let origin: string;
let api: string;

beforeAll(async () => {
  const app = await createApp();
  const info = await new Promise<AddressInfo>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, resolve);
  });
  origin = `http://127.0.0.1:${info.port}`;
  api = `${origin}/cal/events/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const event = { title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 22:00:00' };

describe('Hono example', () => {
  it('lists the upcoming events', async () => {
    const res = await fetch(`${api}/events`);
    expect(res.status).toBe(200);
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

  it('creates an event with a bearer token', async () => {
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
    expect(await (await fetch(`${origin}/health`)).json()).toEqual({ ok: true });
  });
});
