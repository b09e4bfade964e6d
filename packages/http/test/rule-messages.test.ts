// A refused request says which rule it broke (issue 32): the bound, the accepted forms, the
// known zones; the reference's "… is not of type …" stays for values of another type. The
// codes and statuses are the reference's (400 rest_invalid_param, data.params by name).
import { describe, expect, it } from 'vitest';
import { createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { bearerTokens, createFetchHandler, type FetchHandler } from '@evcal/http';

const ROOT = 'https://cal.example.org/cal/events/v1';
const ADMIN = { authorization: 'Bearer tok-admin' };

async function setup(): Promise<FetchHandler> {
  const calendar = createCalendar({ storage: createMemoryStorage(), now: () => Date.parse('2026-11-22T06:30:00Z') });
  await calendar.importDataset({
    events: [{ id: 12, title: 'Twelve', start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 11:00:00', timezone: 'UTC', status: 'publish' }],
    tags: [{ id: 20, name: 'Free', slug: 'free' }],
  });
  return createFetchHandler(calendar, { authenticate: bearerTokens({ 'tok-admin': { id: 1, role: 'administrator' } }) });
}

async function send(h: FetchHandler, path: string, init: { method?: string; body?: string } = {}) {
  const res = await h(new Request(`${ROOT}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...ADMIN, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: init.body } : {}),
  }));
  return { status: res.status, body: await res.json() as { code: string; message: string; data: { params?: Record<string, string> } } };
}

describe('the message of a refused parameter names the rule', () => {
  it.each([
    ['/events?page=0', 'page', 'page must be a whole number of at least 1.'],
    ['/events?per_page=0', 'per_page', 'per_page must be a whole number of at least 1.'],
    ['/events?per_page=-3', 'per_page', 'per_page must be a whole number of at least 1.'],
    ['/events?geoloc_lat=10&geoloc_lng=-598', 'geoloc_lng', 'geoloc_lng must be a number of degrees from -180 to 180.'],
    ['/events?start_date=not%20a%20date', 'start_date', 'start_date is not a date: send YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or an ISO 8601 date and time, a Unix timestamp, or a date strtotime() reads, such as "tomorrow 8pm".'],
    ['/events?include=1,x', 'include', 'include must be a list of whole numbers of at least 1 (an array, or separated by commas).'],
    ['/events?status=publish,gone', 'status', 'status must be a list of these values (an array, or separated by commas): publish, future, draft, pending, private, trash, auto-draft, inherit.'],
    ['/events?context=full', 'context', 'context must be one of: view, edit, embed.'],
  ])('GET %s', async (path, param, message) => {
    const res = await send(await setup(), path);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params).toEqual({ [param]: message });
  });

  it('names an unknown time zone', async () => {
    const res = await send(await setup(), '/events/12', { method: 'PATCH', body: JSON.stringify({ timezone: 'Mars/Olympus' }) });
    expect(res.status).toBe(400);
    expect(res.body.data.params).toEqual({ timezone: 'Mars/Olympus is not a known time zone: send an IANA name such as Europe/Rome, or a UTC offset such as UTC+2 or +02:00.' });
  });

  it('keeps the reference\'s words for a value of another type', async () => {
    const h = await setup();
    expect((await send(h, '/events?page=x')).body.data.params).toEqual({ page: 'page is not of type integer.' });
    expect((await send(h, '/events?featured=maybe')).body.data.params).toEqual({ featured: 'featured is not of type boolean.' });
    expect((await send(h, '/events?geoloc_lat=north&geoloc_lng=1')).body.data.params).toEqual({ geoloc_lat: 'geoloc_lat is not of type number.' });
  });
});

describe('a JSON body that is not an object', () => {
  it.each(['716', '[1,2]', 'null', '"title"'])('%s is refused on an update, which changes nothing', async (body) => {
    const h = await setup();
    const res = await send(h, '/events/12', { method: 'PUT', body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_json');
    expect(res.body.message).toBe('The JSON body must be an object whose members are the parameters.');
    const after = await h(new Request(`${ROOT}/events/12`, { headers: ADMIN }));
    expect(((await after.json()) as { title: string }).title).toBe('Twelve');
  });
});
