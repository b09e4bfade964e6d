// The reference's address layout: `basePath: '/wp-json'` with `namespace: 'tribe/events/v1'`
// serves the API where The Events Calendar does, every URL in a response follows that layout,
// and WordPress's plain-permalink form (`/?rest_route=/tribe/events/v1/…`) answers the same.
import { describe, expect, it } from 'vitest';
import { createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { bearerTokens, createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@evcal/http';

const ORIGIN = 'https://events.example.org';
const API = `${ORIGIN}/wp-json/tribe/events/v1`;
const NOW = Date.parse('2026-11-22T06:30:00Z');

const SEED = {
  categories: [{ id: 2, name: 'Music', slug: 'music' }, { id: 9, name: 'Jazz', slug: 'jazz', parent: 2 }],
  tags: [{ id: 4, name: 'family', slug: 'family' }],
  venues: [{ id: 5, venue: 'Riverside Park', status: 'publish', city: 'London' }],
  organizers: [{ id: 6, organizer: 'Acme Events', status: 'publish', email: 'hello@acme.example.com' }],
  events: [1, 2, 3].map((n) => ({
    id: 10 + n, title: `Gig ${n}`, status: 'publish', timezone: 'UTC',
    start_date: `2026-12-0${n} 20:00:00`, end_date: `2026-12-0${n} 23:00:00`,
    categories: [9], tags: [4], venue: [5], organizer: [6],
  })),
};

async function setup(options: FetchHandlerOptions = {}): Promise<FetchHandler> {
  const calendar = createCalendar({ storage: createMemoryStorage(), now: () => NOW });
  await calendar.importDataset(SEED);
  return createFetchHandler(calendar, {
    basePath: '/wp-json', namespace: 'tribe/events/v1',
    authenticate: bearerTokens({ 'tok-admin': { id: 1, role: 'administrator' } }), ...options,
  });
}

async function get(handler: FetchHandler, url: string) {
  const res = await handler(new Request(url));
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), text, json: JSON.parse(text) as Record<string, any> };
}

/** Every absolute URL in a body or a header, but link relation names and JSON-LD vocabularies. */
function urlsIn(text: string): string[] {
  return [...text.replace(/\\\//g, '/').matchAll(/https?:\/\/[^"\s<>,]+/g)].map((m) => m[0])
    .filter((url) => !/^https?:\/\/(api\.w\.org\/|schema\.org)/.test(url));
}

describe('the reference layout (basePath /wp-json, namespace tribe/events/v1)', () => {
  const reads = [
    '', '/', '/doc', '/events', '/events?per_page=1&page=2', '/events/11', '/events/by-slug/gig-1', '/venues', '/venues/5',
    '/organizers', '/organizers/6', '/categories', '/categories?per_page=1', '/categories/9', '/tags', '/tags/4',
  ];

  it.each(reads)('emits only URLs of the layout for %s', async (path) => {
    const handler = await setup();
    const res = await get(handler, `${API}${path}`);
    expect(res.status).toBe(200);
    const urls = [...urlsIn(res.text), ...urlsIn(res.headers.link ?? '')];
    for (const url of urls) {
      if (url.startsWith(`${ORIGIN}/wp-json`)) expect(url).toMatch(/^https:\/\/events\.example\.org\/wp-json\/tribe\/events\/v1(\/|$|\?)/);
      else expect(url, 'a permalink of the site').toMatch(/^https:\/\/events\.example\.org\/(event|venue|organizer|events\/category|tag)\/|^https:\/\/events\.example\.org\/$/);
    }
    expect(res.text).not.toContain('cal/events');
  });

  it('puts the pagination links in the layout, in the body and the Link header', async () => {
    const res = await get(await setup(), `${API}/events?per_page=1&page=2`);
    expect(res.json.next_rest_url).toMatch(new RegExp(`^${API.replace(/\./g, '\\.')}/events/\\?`));
    expect(res.json.previous_rest_url).toMatch(new RegExp(`^${API.replace(/\./g, '\\.')}/events/\\?`));
    expect(res.headers.link).toBe(`<${res.json.next_rest_url}>; rel="next", <${res.json.previous_rest_url}>; rel="prev"`);
    const terms = await get(await setup(), `${API}/categories?per_page=1`);
    expect(terms.json.next_rest_url).toMatch(new RegExp(`^${API.replace(/\./g, '\\.')}/categories/\\?(per_page=1&)?page=2$`));
    expect(terms.json.categories[0].urls).toEqual({ self: `${API}/categories/9`, collection: `${API}/categories`, up: `${API}/categories/2` });
  });

  it('describes the namespace under its own name, linked to the layout', async () => {
    const res = await get(await setup(), API);
    expect(res.json.namespace).toBe('tribe/events/v1');
    expect(Object.keys(res.json.routes)).toContain('/tribe/events/v1/events/(?P<id>\\d+)');
    expect(res.json.routes['/tribe/events/v1/events']._links.self[0].href).toBe(`${API}/events`);
    expect((await get(await setup(), `${API}/doc`)).json.servers).toEqual([{ url: `${API}/` }]);
  });

  it('serves nothing under the default namespace', async () => {
    const res = await get(await setup(), `${ORIGIN}/cal/events/v1/events`);
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('rest_no_route');
  });
});

describe('the plain-permalink form (?rest_route=)', () => {
  const pairs = [
    ['/tribe/events/v1', ''],
    ['/tribe/events/v1/events&per_page=1&page=2', '/events?per_page=1&page=2'],
    ['/tribe/events/v1/events/11', '/events/11'],
    ['/tribe/events/v1/events/by-slug/gig-2', '/events/by-slug/gig-2'],
    ['/tribe/events/v1/venues&per_page=1', '/venues?per_page=1'],
    ['/tribe/events/v1/categories/9', '/categories/9'],
    ['/tribe/events/v1/tags', '/tags'],
    ['/tribe/events/v1/doc', '/doc'],
  ] as const;

  it.each(pairs)('answers ?rest_route=%s as the pretty form does', async (route, pretty) => {
    const handler = await setup();
    const expected = await get(handler, `${API}${pretty}`);
    for (const front of ['/', '/index.php']) {
      const res = await get(handler, `${ORIGIN}${front}?rest_route=${route}`);
      expect(res.status).toBe(expected.status);
      expect(res.text).toBe(expected.text);
      expect(res.headers['x-tec-total']).toBe(expected.headers['x-tec-total']);
      expect(res.headers.link).toBe(expected.headers.link);
    }
  });

  it('writes through it, with authentication', async () => {
    const handler = await setup();
    const res = await handler(new Request(`${ORIGIN}/?rest_route=/tribe/events/v1/tags`, {
      method: 'POST', headers: { authorization: 'Bearer tok-admin', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Free' }),
    }));
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${API.replace(/\./g, '\\.')}/tags/\\d+$`));
  });

  it('answers routes outside the namespace with rest_no_route', async () => {
    const handler = await setup();
    for (const route of ['/wp/v2/posts', '/', '/tribe/events/v1/nothing']) {
      const res = await get(handler, `${ORIGIN}/?rest_route=${route}`);
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('rest_no_route');
    }
  });

  it('is served at the path of the site URL', async () => {
    const handler = await setup({ basePath: '/blog/wp-json', siteUrl: `${ORIGIN}/blog` });
    const res = await get(handler, `${ORIGIN}/blog/?rest_route=/tribe/events/v1/events/11`);
    expect(res.json.rest_url).toBe(`${ORIGIN}/blog/wp-json/tribe/events/v1/events/11`);
    expect((await get(handler, `${ORIGIN}/?rest_route=/tribe/events/v1/events/11`)).status).toBe(404);
  });
});

describe('application-password style credentials (bearerTokens with basic: true)', () => {
  const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;
  const draftRead = async (handler: FetchHandler, authorization?: string) => handler(new Request(`${API}/events?status=draft`, {
    headers: authorization ? { authorization } : {},
  }));

  it('accepts the token as the password of HTTP Basic credentials', async () => {
    const handler = await setup({ authenticate: bearerTokens({ 'abcd efgh ijkl': { id: 1, role: 'administrator' } }, { basic: true }) });
    const res = await draftRead(handler, basic('admin', 'abcd efgh ijkl'));
    expect(res.status).toBe(200);
    expect((await draftRead(handler, 'Bearer abcd')).status).toBe(401);
  });

  it('refuses a wrong password, malformed credentials, and Basic when not enabled', async () => {
    const on = await setup({ authenticate: bearerTokens({ 'secret-password': { id: 1, role: 'administrator' } }, { basic: true }) });
    for (const header of [basic('admin', 'wrong'), 'Basic !!!', `Basic ${btoa('no-colon')}`]) {
      const res = await draftRead(on, header);
      expect(res.status, header).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('rest_invalid_token');
    }
    const off = await setup({ authenticate: bearerTokens({ 'secret-password': { id: 1, role: 'administrator' } }) });
    expect((await draftRead(off, basic('admin', 'secret-password'))).status).toBe(401);
    // Anonymous callers may not ask for drafts at all.
    expect((await draftRead(on)).status).toBe(400);
  });
});
