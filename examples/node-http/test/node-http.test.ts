// Real HTTP against the example's server, listening on a free port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';

let server: Server;
let api: string;

beforeAll(async () => {
  server = await createApp();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/events/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('node:http example', () => {
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
    const event = await res.json();
    expect(event).toMatchObject({ id: 10, title: 'Jazz Night', rest_url: `${api}/events/10`, venue: { id: 1, venue: 'Blue Room' } });
  });

  it('creates an event with a bearer token', async () => {
    const res = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 22:00:00' }),
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', rest_url: `${api}/events/${created.id}` });
    const again = await fetch(created.rest_url);
    expect(again.status).toBe(200);
    expect((await again.json()).title).toBe('Poetry Slam');
  });

  it('refuses to create an event without credentials', async () => {
    const res = await fetch(`${api}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Gatecrash', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 22:00:00' }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('rest_forbidden');
  });

  it('answers rest_no_route for an unknown route', async () => {
    const res = await fetch(`${api}/nope`);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('rest_no_route');
  });
});
