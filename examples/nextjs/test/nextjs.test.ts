// The route module's handlers, called the way Next.js calls them: with real web Requests.
import { describe, expect, it } from 'vitest';
import { GET, POST } from '../app/api/[...path]/route';

const origin = 'http://localhost:3000';
const api = `${origin}/api/cal/events/v1`;
const event = { title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 22:00:00' };

describe('Next.js example', () => {
  it('lists the upcoming events', async () => {
    const res = await GET(new Request(`${api}/events`));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.events.map((e: { title: string }) => e.title)).toEqual(['Jazz Night', 'Printmaking Workshop', 'Open-Air Concert']);
    expect(body.rest_url.startsWith(`${api}/events/?`)).toBe(true);
    expect(body.events[0].rest_url).toBe(`${api}/events/10`);
  });

  it('gets one event', async () => {
    const res = await GET(new Request(`${api}/events/10`));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 10, title: 'Jazz Night', rest_url: `${api}/events/10` });
  });

  it('creates an event with a bearer token', async () => {
    const res = await POST(new Request(`${api}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify(event),
    }));
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', rest_url: `${api}/events/${created.id}` });
    expect((await (await GET(new Request(created.rest_url))).json()).title).toBe('Poetry Slam');
  });

  it('refuses to create an event without credentials', async () => {
    const res = await POST(new Request(`${api}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    }));
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('rest_forbidden');
  });

  it('answers rest_no_route for an unknown route under the mount', async () => {
    const res = await GET(new Request(`${api}/nope`));
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('rest_no_route');
  });
});
