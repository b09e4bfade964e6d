// Real HTTP against the example's Express app, listening on a free port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';

let server: Server;
let origin: string;
let api: string;

beforeAll(async () => {
  const app = await createApp();
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = `${origin}/api/cal/events/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const event = { title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 22:00:00' };

describe('Express example', () => {
  it('lists the upcoming events under /api', async () => {
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

  it('creates an event from a JSON body that express.json() already parsed', async () => {
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

  it('creates an event from a form body, which express.json() leaves to evcal', async () => {
    const res = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-token' },
      body: new URLSearchParams({ ...event, title: 'Zine Fair' }),
    });
    expect(res.status).toBe(201);
    expect((await res.json()).title).toBe('Zine Fair');
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

  it('keeps the rest of the app: its own routes, and nothing of evcal outside /api', async () => {
    const feedback = await fetch(`${origin}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rating: 5 }),
    });
    expect(feedback.status).toBe(201);
    expect(await feedback.json()).toEqual({ received: { rating: 5 } });
    expect((await fetch(`${origin}/cal/events/v1/events`)).status).toBe(404);
  });
});
