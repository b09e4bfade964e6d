// Generated requests for the property tests of the HTTP binding: random routes, methods,
// callers, encodings and parameter values meant to break things, over a small seed calendar.
import fc from 'fast-check';
import { feedRoutes, routes, syncRoutes } from '../../src/index';

export const NOW = Date.UTC(2026, 10, 22, 12);
export const ORIGIN = 'http://cal.test';
export const TOKENS = {
  't-administrator': { id: 1, role: 'administrator' }, 't-editor': { id: 2, role: 'editor' },
  't-author': { id: 3, role: 'author' }, 't-contributor': { id: 4, role: 'contributor' }, 't-subscriber': { id: 5, role: 'subscriber' },
};

export const SEED = {
  categories: [{ id: 10, name: 'Music', slug: 'music' }, { id: 11, name: 'Jazz', slug: 'jazz', parent: 10 }],
  tags: [{ id: 20, name: 'Free', slug: 'free' }],
  venues: [{ id: 100, venue: 'Hall', status: 'publish', author: 1, city: 'Rome' }, { id: 101, venue: 'Back room', status: 'draft', author: 4 }],
  organizers: [{ id: 200, organizer: 'Ada', status: 'publish', author: 1 }, { id: 201, organizer: 'Bob', status: 'publish', author: 3 }],
  events: [
    { id: 300, title: 'Gig', slug: 'gig', status: 'publish', author: 1, timezone: 'UTC', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 23:00:00', categories: [11], tags: [20], venue: [100], organizer: [200] },
    { id: 301, title: 'Draft', status: 'draft', author: 4, timezone: 'UTC', start_date: '2026-12-02 20:00:00', end_date: '2026-12-02 23:00:00', password: 'pw' },
  ],
};

// Values meant to break things: SQL and LIKE metacharacters, NUL, huge numbers, bad dates,
// long strings, wrong types, deep nesting.
const NASTY = [
  '', '0', '-1', '1e309', '1e300', 'NaN', 'Infinity', '9223372036854775807', '2147483648', '3.5', ' 7 ', '+3',
  "' OR 1=1 --", '"; DROP TABLE evcal_events; --', '%', '_', '%_\\', '\\', '\u0000', 'a\u0000b', '\uFFFD', '\uD800',
  '<script>alert(1)</script>', 'javascript:alert(1)', 'http://', 'https://x.example/a.jpg', '[]', '{}', 'true', 'false', 'null',
  '2026-13-45', '2026-02-30', 'tomorrow 9am', '@0', '0000-00-00 00:00:00', 'UTCfoo', 'Mars/Base', 'Europe/Rome', 'any', 'publish,draft',
  'x'.repeat(5000), 'é'.repeat(300), '😀'.repeat(100), 'music', 'gig', '300', '100', '10,11', 'asc', 'count',
];
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 2 ** 53, 1e300)) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom('id', 'venue', 'organizer', 'url', '0', '1'), fc.string({ maxLength: 5 })), tie('v'), { maxKeys: 3 })),
})).v;

const ALL_ROUTES = [...routes, ...feedRoutes, ...syncRoutes];
const ARG_NAMES = [...new Set(ALL_ROUTES.flatMap((r) => Object.keys(r.args))), '_fields', '_method', '_envelope', 'force', 'context', 'password', 'junk'];
const PATHS = [...new Set(ALL_ROUTES.map((r) => r.path))];
const idPart = fc.constantFrom('300', '301', '100', '101', '200', '10', '11', '20', '0', '1', '999999', '9223372036854775807', '99999999999999999999999');
const slugPart = fc.constantFrom('gig', 'hall', 'ada', 'nope', '%25', '%00', 'a%2Fb', 'x'.repeat(300), 'caf%C3%A9', '..', '%F0%9F%98%80');
const path = fc.oneof(
  { weight: 9, arbitrary: fc.tuple(fc.constantFrom(...PATHS), idPart, slugPart).map(([p, id, slug]) => p.replace('{id}', id).replace('{slug}', slug)) },
  { weight: 1, arbitrary: fc.constantFrom('/events/abc', '/events/by-slug/', '/nope', '/events/300/extra', '//events', '/EVENTS', '/events?') },
);

export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Record<string, unknown>;
  readonly encoding: 'query' | 'json' | 'form' | 'raw';
  readonly raw: string;
  readonly token: string | undefined;
}

export const request: fc.Arbitrary<FuzzRequest> = fc.record({
  method: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
  path,
  params: fc.dictionary(fc.constantFrom(...ARG_NAMES), value, { maxKeys: 6 }),
  encoding: fc.constantFrom('query', 'json', 'form', 'raw'),
  raw: fc.oneof(fc.constantFrom('{"title":', '[1,2]', 'null', '"x"', '{"title":"A","start_date":"now","end_date":"now"}', '\u0000', ''), fc.string({ maxLength: 40 })),
  token: fc.constantFrom(undefined, 't-administrator', 't-editor', 't-author', 't-contributor', 't-subscriber', 'not-a-token'),
});

/** PHP-style pairs of nested values: a[0]=x, a[b]=y. */
function flatten(obj: Record<string, unknown>, prefix = ''): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (v === null || v === undefined) continue;
    if (typeof v === 'object') out.push(...flatten(v as Record<string, unknown>, key));
    else out.push([key, String(v)]);
  }
  return out;
}

/** The request, sent to the API root `api` (e.g. `http://cal.test/cal/events/v1`). */
export function toRequest(r: FuzzRequest, api: string): Request {
  const url = new URL(`${api}${r.path}`);
  const headers: Record<string, string> = r.token ? { authorization: `Bearer ${r.token}` } : {};
  let body: string | undefined;
  if (r.encoding === 'query' || r.method === 'GET' || r.method === 'HEAD') {
    for (const [k, v] of flatten(r.params)) url.searchParams.append(k, v);
  } else if (r.encoding === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(r.params);
  } else if (r.encoding === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(flatten(r.params)).toString();
  } else {
    headers['content-type'] = 'application/json';
    body = r.raw;
  }
  return new Request(url, { method: r.method, headers, ...(body !== undefined ? { body } : {}) });
}
