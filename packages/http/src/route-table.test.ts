// The route table against the interface's endpoint summary (interface.md "Endpoint summary",
// behaviour reference: "Route table"): every path with exactly its methods, ids are digits, slugs are one or
// more characters other than "/", a trailing slash is tolerated, and a known path with an
// unknown method matches nothing (the fetch handler answers 404 rest_no_route, "Request pipeline" step 1).
import { describe, expect, it } from 'vitest';
import { createRouter, routes, wordpressPattern, type Method } from './route-table';

/** The endpoint summary of interface.md, one row per path: the methods it answers. */
const SUMMARY: ReadonlyArray<readonly [path: string, methods: readonly Method[]]> = [
  ['', ['GET']],
  ['/doc', ['GET']],
  ...(['events', 'venues', 'organizers'] as const).flatMap((c) => [
    [`/${c}`, ['GET', 'POST']],
    [`/${c}/{id}`, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']],
    [`/${c}/by-slug/{slug}`, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']],
  ] as const),
  ...(['categories', 'tags'] as const).flatMap((c) => [
    [`/${c}`, ['GET', 'POST']],
    [`/${c}/{id}`, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']],
  ] as const),
];

const ALL_METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A concrete request path for a pattern. */
const concrete = (path: string) => path.replace('{id}', '42').replace('{slug}', 'a-slug');

const router = createRouter();

describe('the route table', () => {
  it('has exactly the paths of the endpoint summary', () => {
    const paths = new Set(routes.map((r) => r.path));
    expect([...paths].sort()).toEqual(SUMMARY.map(([p]) => p).sort());
  });

  it.each(SUMMARY)('%j answers exactly %j', (path, methods) => {
    const declared = routes.filter((r) => r.path === path).flatMap((r) => r.methods);
    expect([...declared].sort()).toEqual([...methods].sort());
    // No method is claimed by two routes of the same path.
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('lists the namespace root first and /doc second, as the reference registers them', () => {
    expect(routes[0]!.path).toBe('');
    expect(routes[1]!.path).toBe('/doc');
  });

  it.each([
    ['/events', 'POST'], ['/venues', 'POST'], ['/organizers', 'POST'], ['/categories', 'POST'], ['/tags', 'POST'],
  ] as const)('%s %s creates with status 201', (path, method) => {
    const route = routes.find((r) => r.path === path && r.methods.includes(method));
    expect(route?.status).toBe(201);
    expect(route?.operation).toMatch(/\.create$/);
  });

  it('declares the path parameter of every parameterised route', () => {
    for (const route of routes) {
      for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) expect(route.args, `${route.path} declares ${name}`).toHaveProperty(name!);
    }
  });

  it.each([
    ['/events/{id}', '/events/(?P<id>\\d+)'],
    ['/events/by-slug/{slug}', '/events/by-slug/(?P<slug>[^/]+)'],
    ['/tags', '/tags'],
  ])('writes %s as the reference pattern %s', (path, pattern) => {
    expect(wordpressPattern(path)).toBe(pattern);
  });
});

describe('createRouter', () => {
  describe('every route of the summary matches with each of its methods', () => {
    const cases = SUMMARY.flatMap(([path, methods]) => methods.map((m) => [m, concrete(path), path] as const));
    it.each(cases)('%s %j', (method, requestPath, pattern) => {
      const { match, allowed } = router.match(requestPath, method);
      expect(match?.route.path).toBe(pattern);
      expect(match?.route.methods).toContain(method);
      expect([...allowed].sort()).toEqual([...SUMMARY.find(([p]) => p === pattern)![1]].sort());
    });
  });

  it.each(SUMMARY.flatMap(([path, methods]) => ALL_METHODS.filter((m) => !methods.includes(m)).map((m) => [m, concrete(path), methods] as const)))(
    'an unknown method on a known path: %s %j matches nothing and reports the allowed methods',
    (method, requestPath, methods) => {
      const { match, allowed } = router.match(requestPath, method);
      expect(match).toBeUndefined();
      expect([...allowed].sort()).toEqual([...methods].sort());
    },
  );

  it.each(['OPTIONS', 'HEAD', 'TRACE', 'get'])('a method outside the table (%s) matches nothing on /events', (method) => {
    const { match, allowed } = router.match('/events', method);
    expect(match).toBeUndefined();
    expect([...allowed].sort()).toEqual(['GET', 'POST']);
  });

  it.each([
    ['/events/12', { id: '12' }],
    ['/events/0', { id: '0' }],
    ['/events/007', { id: '007' }],
    ['/venues/99999999999999999999', { id: '99999999999999999999' }],
    ['/categories/3', { id: '3' }],
    ['/events/by-slug/summer-gig', { slug: 'summer-gig' }],
    ['/events/by-slug/123', { slug: '123' }],
    ['/events/by-slug/a.b~c', { slug: 'a.b~c' }],
    ['/organizers/by-slug/caf%C3%A9', { slug: 'café' }],
    ['/events/by-slug/a%2Fb', { slug: 'a/b' }],
    ['/events/by-slug/%E0%A4', { slug: '%E0%A4' }], // malformed escapes are kept as sent, never a throw
  ])('captures %s as %j', (path, params) => {
    expect(router.match(path, 'GET').match?.params).toEqual(params);
  });

  it.each([
    ['an id with letters', '/events/abc'],
    ['an id with a letter suffix', '/events/12a'],
    ['a negative id', '/events/-1'],
    ['a decimal id', '/events/1.5'],
    ['a non-ASCII digit id', '/events/١٢'],
    ['an empty id', '/events//'],
    ['an empty slug', '/events/by-slug/'],
    ['no slug segment', '/events/by-slug'],
    ['a slug with a slash', '/events/by-slug/a/b'],
    ['a by-slug route for categories', '/categories/by-slug/music'],
    ['a by-slug route for tags', '/tags/by-slug/free'],
    ['an extra segment', '/events/12/extra'],
    ['an unknown collection', '/widgets'],
    ['a collection prefix', '/eventsx'],
    ['two trailing slashes', '/events/12//'],
    ['a path without its leading slash', 'events'],
  ])('does not match %s (%s)', (_name, path) => {
    for (const method of ALL_METHODS) {
      const { match, allowed } = router.match(path, method);
      expect(match).toBeUndefined();
      expect(allowed).toEqual([]);
    }
  });

  it.each([
    ['/', ''],
    ['/doc/', '/doc'],
    ['/events/', '/events'],
    ['/events/12/', '/events/{id}'],
    ['/events/by-slug/gig/', '/events/by-slug/{slug}'],
    ['/tags/7/', '/tags/{id}'],
  ])('tolerates a trailing slash: %s', (path, pattern) => {
    const { match } = router.match(path, 'GET');
    expect(match?.route.path).toBe(pattern);
  });

  it('does not count the trailing slash as part of a slug', () => {
    expect(router.match('/events/by-slug/gig/', 'GET').match?.params).toEqual({ slug: 'gig' });
  });

  it('matches the root of the namespace with an empty path', () => {
    expect(router.match('', 'GET').match?.route.operation).toBe('root');
  });

  it('prefers the id route to the slug route only by shape: /events/by-slug/12 is a slug', () => {
    const { match } = router.match('/events/by-slug/12', 'GET');
    expect(match?.route.operation).toBe('events.getBySlug');
    expect(match?.params).toEqual({ slug: '12' });
  });

  it.each([
    ['GET', '/events', 'events.list'],
    ['POST', '/events', 'events.create'],
    ['GET', '/events/5', 'events.get'],
    ['POST', '/events/5', 'events.update'],
    ['PUT', '/events/5', 'events.update'],
    ['PATCH', '/events/5', 'events.patch'],
    ['DELETE', '/events/5', 'events.delete'],
    ['PUT', '/venues/by-slug/hall', 'venues.updateBySlug'],
    ['PATCH', '/organizers/by-slug/ada', 'organizers.patchBySlug'],
    ['DELETE', '/organizers/by-slug/ada', 'organizers.deleteBySlug'],
    ['PATCH', '/categories/3', 'categories.update'],
    ['DELETE', '/tags/3', 'tags.delete'],
    ['GET', '/doc', 'doc'],
  ])('%s %s runs %s', (method, path, operation) => {
    expect(router.match(path, method).match?.route.operation).toBe(operation);
  });

  it('routes over a custom table', () => {
    const custom = createRouter([{ path: '/ping', methods: ['GET'], operation: 'doc', action: { kind: 'doc' }, args: {}, status: 200, summary: 'ping' }]);
    expect(custom.match('/ping', 'GET').match?.route.summary).toBe('ping');
    expect(custom.match('/events', 'GET').allowed).toEqual([]);
  });
});
