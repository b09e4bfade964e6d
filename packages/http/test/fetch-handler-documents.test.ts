// createFetchHandler over a real calendar on memory storage: list headers, parameter parsing
// through HTTP (§8.4-§8.6), the namespace root (§7.1), /doc (§7.2) and the term routes.
import { toJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';
import { eventListArgs } from '@evcal/core/binding';
import { NS, ROOT, send, setup } from './support/fetch-calendar.ts';

/** The targets of an RFC 8288 Link header, by relation type. */
function parseLinkHeader(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const m = /^\s*<([^>]*)>\s*;\s*rel="([^"]+)"\s*$/.exec(part);
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}

describe('list headers', () => {
  it('sends X-TEC-Total, X-TEC-TotalPages and an RFC 8288 Link header with next and prev', async () => {
    const handler = await setup();
    const res = await send(handler, '/events?per_page=1&page=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-tec-total')).toBe('3');
    expect(res.headers.get('x-tec-totalpages')).toBe('3');
    expect(res.json).toMatchObject({ total: 3, total_pages: 3 });
    const links = parseLinkHeader(res.headers.get('link'));
    expect(links).toEqual({ next: res.json.next_rest_url, prev: res.json.previous_rest_url });
  });

  it('links only the next page from the first page and only the previous one from the last', async () => {
    const handler = await setup();
    const first = await send(handler, '/events?per_page=1');
    expect(Object.keys(parseLinkHeader(first.headers.get('link')))).toEqual(['next']);
    const last = await send(handler, '/events?per_page=1&page=3');
    expect(Object.keys(parseLinkHeader(last.headers.get('link')))).toEqual(['prev']);
  });

  it('sends no Link header when everything fits on one page', async () => {
    const handler = await setup();
    const res = await send(handler, '/events');
    expect(res.headers.get('link')).toBeNull();
    expect(res.headers.get('x-tec-total')).toBe('3');
    expect(res.headers.get('x-tec-totalpages')).toBe('1');
  });

  it('links pages that the handler serves', async () => {
    const handler = await setup();
    const first = await send(handler, '/events?per_page=1');
    const next = await send(handler, parseLinkHeader(first.headers.get('link')).next!);
    expect(next.status).toBe(200);
    expect(next.json.events.map((e: { id: number }) => e.id)).toEqual([34]);
    expect(Object.keys(parseLinkHeader(next.headers.get('link'))).sort()).toEqual(['next', 'prev']);
  });

  it.each([
    ['/venues', '1'],
    ['/categories?hide_empty=false', '1'],
    ['/tags', '0'],
  ])('sends the totals on %s', async (path, total) => {
    const handler = await setup();
    const res = await send(handler, path);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-tec-total')).toBe(total);
    expect(res.headers.get('x-tec-totalpages')).toBe(total === '0' ? '0' : '1');
  });

  it('exposes the totals and Link to browsers', async () => {
    const handler = await setup();
    const exposed = (await send(handler, '/events')).headers.get('access-control-expose-headers') ?? '';
    const names = exposed.split(',').map((s) => s.trim().toLowerCase());
    expect(names).toEqual(expect.arrayContaining(['x-tec-total', 'x-tec-totalpages', 'link']));
  });
});

describe('parameter parsing through HTTP (§8.4-§8.6)', () => {
  const perPageOf = (restUrl: string) => new URL(restUrl).searchParams.get('per_page');

  it.each([
    ['3', '3'], ['3.0', '3'], ['+3', '3'], ['%203', '3'], ['3%20', '3'], ['1e1', '10'], ['010', '10'], ['1000', '50'],
  ])('accepts per_page=%s as %s', async (raw, effective) => {
    const handler = await setup();
    const res = await send(handler, `/events?per_page=${raw}`);
    expect(res.status).toBe(200);
    expect(perPageOf(res.json.rest_url)).toBe(effective);
  });

  it.each(['0', '-1', '2.5', 'abc', ''])('refuses per_page=%j with 400 rest_invalid_param', async (raw) => {
    const handler = await setup();
    const res = await send(handler, `/events?per_page=${raw}`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('rest_invalid_param');
    expect(res.json.data.params).toHaveProperty('per_page');
  });

  it.each([
    ['true', [34]], ['TRUE', [34]], ['1', [34]], ['false', [12, 35]], ['0', [12, 35]],
  ])('reads featured=%s as a WordPress boolean', async (raw, ids) => {
    const handler = await setup();
    const res = await send(handler, `/events?featured=${raw}`);
    expect(res.status).toBe(200);
    expect(res.json.events.map((e: { id: number }) => e.id)).toEqual(ids);
  });

  it.each(['yes', 'on', '', '2'])('refuses featured=%j', async (raw) => {
    const handler = await setup();
    const res = await send(handler, `/events?featured=${raw}`);
    expect(res.status).toBe(400);
    expect(res.json.data.params).toHaveProperty('featured');
  });

  it.each(['', '0'])('refuses strict_dates=%j (an empty string)', async (raw) => {
    const handler = await setup();
    const res = await send(handler, `/events?strict_dates=${raw}`);
    expect(res.status).toBe(400);
    expect(res.json.data.params).toHaveProperty('strict_dates');
  });

  it.each([
    ['a CSV', 'include=12,35'],
    ['a CSV with spaces', 'include=12%20,%2035'],
    ['a PHP array', 'include[]=12&include[]=35'],
    ['an indexed PHP array', 'include[0]=12&include[1]=35'],
    ['a CSV with an encoded comma', 'include=12%252C35'],
    ['a CSV with empty items', 'include=12,,35,'],
  ])('reads a list given as %s', async (_name, query) => {
    const handler = await setup();
    const res = await send(handler, `/events?${query}`);
    expect(res.status).toBe(200);
    expect(res.json.events.map((e: { id: number }) => e.id).sort()).toEqual([12, 35]);
  });

  it('keeps only the last value of a repeated plain key', async () => {
    const handler = await setup();
    const res = await send(handler, '/events?include=12&include=35');
    expect(res.json.events.map((e: { id: number }) => e.id)).toEqual([35]);
  });

  it.each([
    ['status=publish', 200],
    ['status[]=publish', 200],
    ['status=publish,draft', 400],
    ['status[]=publish&status[]=draft', 400],
  ])('lets an anonymous caller ask for %s only if it is exactly publish', async (query, status) => {
    const handler = await setup();
    expect((await send(handler, `/events?${query}`)).status).toBe(status);
  });
});

describe('the namespace root (§7.1)', () => {
  it('lists every route keyed by its reference pattern, in registration order', async () => {
    const handler = await setup();
    const res = await send(handler, '');
    expect(res.json.namespace).toBe('cal/events/v1');
    const linked = (c: string) => [`${NS}/${c}`, `${NS}/${c}/(?P<id>\\d+)`, `${NS}/${c}/by-slug/(?P<slug>[^/]+)`];
    expect(Object.keys(res.json.routes)).toEqual([
      NS, `${NS}/doc`,
      ...linked('events'), ...linked('venues'), ...linked('organizers'),
      `${NS}/categories`, `${NS}/categories/(?P<id>\\d+)`, `${NS}/tags`, `${NS}/tags/(?P<id>\\d+)`,
      // evcal's iCalendar feeds, after the reference's routes, then its change feed and webhook endpoints.
      `${NS}/events\\.ics`, `${NS}/events/(?P<id>\\d+)\\.ics`, `${NS}/events/by-slug/(?P<slug>[^/]+)\\.ics`,
      `${NS}/changes`, `${NS}/webhooks`, `${NS}/webhooks/(?P<id>[A-Za-z0-9_-]+)`,
    ]);
  });

  it('describes a parameterised route with its methods and no self link', async () => {
    const handler = await setup();
    const route = (await send(handler, '')).json.routes[`${NS}/events/(?P<id>\\d+)`];
    expect(route.namespace).toBe('cal/events/v1');
    expect([...route.methods].sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
    expect(route).not.toHaveProperty('_links');
    expect(route.endpoints.length).toBeGreaterThan(0);
    expect(route.endpoints[0].args.id.required).toBe(true);
  });

  it('describes the arguments of each endpoint with "required"', async () => {
    const handler = await setup();
    const events = (await send(handler, '')).json.routes[`${NS}/events`];
    expect(events.methods).toEqual(['GET', 'POST']);
    const [list, create] = events.endpoints;
    expect(list.methods).toEqual(['GET']);
    expect(list.args.page).toMatchObject({ default: 1, required: false });
    expect(create.methods).toEqual(['POST']);
    expect(create.args.title).toMatchObject({ required: true });
    expect(create.args.description).toMatchObject({ required: false });
  });

  it('describes the root route itself with namespace and context', async () => {
    const handler = await setup();
    const self = (await send(handler, '')).json.routes[NS];
    expect(self.endpoints).toEqual([{
      methods: ['GET'],
      args: { namespace: { default: 'cal/events/v1', required: false }, context: { default: 'view', required: false } },
    }]);
    expect(self._links.self[0].href).toBe(ROOT);
  });
});

describe('/doc (§7.2)', () => {
  it('is an OpenAPI 3.0.0 document with info, components, servers and paths in that order', async () => {
    const handler = await setup();
    const res = await send(handler, '/doc');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(res.json.openapi).toBe('3.0.0');
    expect(res.json.info).toEqual({
      version: '1.0.0',
      title: 'The Events Calendar REST API',
      description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
    });
    expect(res.json.servers).toEqual([{ url: `${ROOT}/` }]);
    expect(Object.keys(res.json.components.schemas).sort()).toEqual(
      // The reference's names, then the list envelopes, the embedded term and the error, evcal's sync representations, and the time zones arguments take.
      ['CategoryList', 'ChangeEnvelope', 'ChangedOccurrences', 'ChangedRecord', 'Changes', 'CostDetails', 'DateDetails', 'EmbeddedTerm', 'Error', 'Event', 'EventList',
        'Image', 'ImageSize', 'OccurrenceActions', 'Organizer', 'OrganizerList', 'TagList', 'Term', 'TimeZone', 'Tombstone', 'Venue', 'VenueList', 'WebhookDeliveryStatus', 'WebhookEndpoint', 'WebhookEndpointList'],
    );
  });

  it('documents every path with GET', async () => {
    const handler = await setup();
    const { paths } = (await send(handler, '/doc')).json;
    const linked = (c: string) => [`/${c}`, `/${c}/{id}`, `/${c}/by-slug/{slug}`];
    expect(Object.keys(paths)).toEqual([
      '/doc', ...linked('events'), ...linked('venues'), ...linked('organizers'),
      '/categories', '/categories/{id}', '/tags', '/tags/{id}',
      '/events.ics', '/events/{id}.ics', '/events/by-slug/{slug}.ics',
      '/changes', '/webhooks', '/webhooks/{id}',
    ]);
    for (const [path, item] of Object.entries(paths as Record<string, Record<string, unknown>>)) expect(item, path).toHaveProperty('get');
  });

  it('carries an entity tag, and answers 304 to a client that has the document', async () => {
    const handler = await setup();
    const first = await send(handler, '/doc');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await send(handler, '/doc', { headers: { 'if-none-match': etag } });
    expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', etag]);
    expect((await send(handler, '/doc', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('groups the operations by resource (a tag each) and names each with a unique operationId', async () => {
    const handler = await setup();
    const { paths } = (await send(handler, '/doc')).json as { paths: Record<string, Record<string, { tags: string[]; operationId: string }>> };
    const operations = Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, ...op })));
    const tagged = (tag: string) => operations.filter((o) => o.tags.join() === tag).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(new Set(operations.map((o) => o.tags.join()))).toEqual(new Set(['doc', 'events', 'venues', 'organizers', 'categories', 'tags', 'changes', 'webhooks']));
    expect(tagged('tags')).toEqual(['GET /tags', 'POST /tags', 'GET /tags/{id}', 'POST /tags/{id}', 'PUT /tags/{id}', 'PATCH /tags/{id}', 'DELETE /tags/{id}']);
    expect(tagged('events')).toEqual(expect.arrayContaining(['GET /events', 'GET /events.ics', 'GET /events/by-slug/{slug}.ics', 'DELETE /events/{id}']));
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(paths['/events']!.get!.operationId).toBe('events.list');
    expect([paths['/events/{id}']!.post!.operationId, paths['/events/{id}']!.put!.operationId]).toEqual(['events.update.post', 'events.update.put']);
  });

  it('documents the GET /events query parameters with the JSON schemas of their valibot validators', async () => {
    const handler = await setup();
    const { parameters: all } = (await send(handler, '/doc')).json.paths['/events'].get;
    // The query parameters, then the validator header (docs/http.md).
    const parameters = all.filter((p: { in: string }) => p.in === 'query');
    expect(parameters.map((p: { name: string }) => p.name)).toEqual(Object.keys(eventListArgs));
    expect(all.filter((p: { in: string }) => p.in === 'header').map((p: { name: string }) => p.name)).toEqual(['If-None-Match']);
    for (const p of parameters as Array<{ name: string; in: string; required: boolean; description: string; schema: Record<string, unknown> }>) {
      const spec = eventListArgs[p.name as keyof typeof eventListArgs];
      const derived = toJsonSchema(spec.schema, { target: 'openapi-3.0', typeMode: 'input', errorMode: 'ignore' }) as Record<string, unknown>;
      delete derived.$schema;
      const { default: _default, ...schema } = p.schema;
      expect(p.in, p.name).toBe('query');
      expect(p.required, p.name).toBe(false);
      expect(p.description, p.name).toBe(spec.description);
      expect(schema, p.name).toEqual(derived);
    }
    const page = parameters.find((p: { name: string }) => p.name === 'page');
    expect(page.schema.default).toBe(1);
  });

  it('documents the id of /events/{id} as a required path parameter', async () => {
    const handler = await setup();
    const { parameters } = (await send(handler, '/doc')).json.paths['/events/{id}'].get;
    expect(parameters.find((p: { name: string }) => p.name === 'id')).toMatchObject({ in: 'path', required: true });
  });

  it('documents the required fields of POST /events in its request body', async () => {
    const handler = await setup();
    const post = (await send(handler, '/doc')).json.paths['/events'].post;
    const schema = post.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(schema.required).toEqual(['title', 'start_date', 'end_date']);
    expect(Object.keys(post.responses)).toContain('201');
  });
});

describe('terms', () => {
  it.each(['categories', 'tags'])('creates in /%s with 201 and a Location header naming the new term', async (collection) => {
    const handler = await setup();
    const res = await send(handler, `/${collection}`, { json: { name: 'Brand new' }, as: 'admin' });
    expect(res.status).toBe(201);
    const location = res.headers.get('location');
    expect(location).toBe(`${ROOT}/${collection}/${res.json.id}`);
    const read = await send(handler, location!);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ id: res.json.id, name: 'Brand new' });
  });

  it('answers a duplicate term name with 400 term_exists and the existing id', async () => {
    const handler = await setup();
    const res = await send(handler, '/categories', { json: { name: 'Music' }, as: 'admin' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: 7 } });
  });
});
