// A small site running the reference, served over real HTTP from the responses recorded in
// ../shared/fixtures/tec-site: the records are those recordings' objects as they are, and the
// server answers with the reference's rules around them (per_page capped, next_rest_url as
// the reference writes it, 404 past the end of post lists, terms' next_rest_url losing every
// filter, anonymous callers seeing published records only, application passwords over Basic,
// hidden events left out of lists, protected content redacted). Faults can be queued per path.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export type Json = Record<string, any>;

const FIXTURES = fileURLToPath(new URL('../../../../../shared/fixtures/tec-site/', import.meta.url));
export const fixture = (name: string): Json => JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8'));

export const SITE = 'https://events.example.org';
export const USER = 'admin';
export const APP_PASSWORD = 'abcd efgh ijkl mnop qrst uvwx';

/** The site's records as the recordings show them (authenticated lists: every status). */
export function recordedSite() {
  const list = (name: string, key: string) => structuredClone(fixture(name).response.body[key]) as Json[];
  return {
    events: list('list-status-csv-auth', 'events'),
    venues: list('venues-list-default-auth', 'venues'),
    organizers: list('organizers-list-default-auth', 'organizers'),
    categories: list('categories-list-auth', 'categories'),
    tags: list('tags-list-auth', 'tags'),
    /** Post passwords, which the API never shows. */
    passwords: new Map<number, string>(),
  };
}
export type SiteData = ReturnType<typeof recordedSite>;

export interface Fault {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface FakeReference {
  readonly origin: string;
  /** `${origin}/wp-json/tribe/events/v1` */
  readonly api: string;
  readonly data: SiteData;
  readonly requests: { url: string; authorization: string | undefined; at: number }[];
  /** Answers the next requests whose path and query start with `prefix` (after the API root) with these faults, in order. */
  fail(prefix: string, ...faults: Fault[]): void;
  /** The largest page; the reference's is 50. */
  maxPerPage: number;
  /** Lists a next page on the last page of the event list too (as when an event is deleted between two requests). */
  phantomNext: boolean;
  close(): Promise<void>;
}

const NS = 'tribe/events/v1';
const ALL_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit'];
const ANY = ['publish', 'future', 'draft', 'pending', 'private'];

export async function startFakeReference(data: SiteData = recordedSite()): Promise<FakeReference> {
  const faults = new Map<string, Fault[]>();
  const requests: FakeReference['requests'] = [];
  let server: Server;
  const fake: FakeReference = {
    origin: '', api: '', data, requests, maxPerPage: 50, phantomNext: false,
    fail: (prefix, ...list) => faults.set(prefix, [...(faults.get(prefix) ?? []), ...list]),
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ url: url.pathname + url.search, authorization: req.headers.authorization, at: Date.now() });
    const route = url.pathname.startsWith(`/wp-json/${NS}`) ? url.pathname.slice(`/wp-json/${NS}`.length) : undefined;
    const rel = route === undefined ? undefined : `${route}${url.search}`;
    for (const [prefix, queue] of faults) {
      if (rel !== undefined && rel.startsWith(prefix) && queue.length > 0) {
        const f = queue.shift()!;
        res.writeHead(f.status, { 'content-type': 'application/json; charset=UTF-8', ...f.headers });
        return res.end(f.body ?? JSON.stringify({ code: 'internal_server_error', message: 'Fault', data: { status: f.status } }));
      }
    }
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=UTF-8', link: `<${SITE}/wp-json/>; rel="https://api.w.org/"`, ...headers,
      });
      res.end(JSON.stringify(body));
    };
    const auth = req.headers.authorization;
    let admin = false;
    if (auth) {
      const decoded = /^Basic (.+)$/.exec(auth) ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
      if (decoded !== `${USER}:${APP_PASSWORD}`) {
        return send(401, { code: 'incorrect_password', message: 'The provided password is an invalid application password.', data: { status: 401 } });
      }
      admin = true;
    }
    if (route === undefined) return send(404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    const [status, body, headers] = answer(data, fake, route, url.searchParams, admin);
    send(status, body, headers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, { origin, api: `${origin}/wp-json/${NS}` });
}

type Answer = [number, unknown, Record<string, string>?];

function answer(data: SiteData, fake: FakeReference, route: string, q: URLSearchParams, admin: boolean): Answer {
  const api = `${SITE}/wp-json/${NS}`;
  if (route === '' || route === '/') {
    const routes = ['', '/doc', '/events', '/events/(?P<id>\\d+)', '/venues', '/venues/(?P<id>\\d+)', '/organizers', '/organizers/(?P<id>\\d+)', '/categories', '/tags']
      .map((r) => [`/${NS}${r}`, { namespace: NS, methods: ['GET'] }]);
    return [200, { namespace: NS, routes: Object.fromEntries(routes), _links: { up: [{ href: `${SITE}/wp-json/` }] } }];
  }
  const single = /^\/(events|venues|organizers)\/(\d+)$/.exec(route);
  if (single) return singlePost(data, single[1]!, Number(single[2]), q, admin);
  const list = /^\/(events|venues|organizers|categories|tags)\/?$/.exec(route);
  if (!list) return [404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }];
  const collection = list[1]!;
  const perPage = Math.min(Number(q.get('per_page') ?? 10), fake.maxPerPage);
  const page = Number(q.get('page') ?? 1);
  if (collection === 'categories' || collection === 'tags') {
    const terms = [...data[collection]].sort(q.get('orderby') === 'id' ? (a, b) => a.id - b.id : (a, b) => a.name.localeCompare(b.name));
    const items = terms.slice((page - 1) * perPage, page * perPage);
    const totalPages = Math.ceil(terms.length / perPage);
    const base = `${api}/${collection}/`;
    return [200, {
      rest_url: base, total: terms.length, total_pages: totalPages, [collection]: items,
      ...(page < totalPages ? { next_rest_url: `${base}?page=${page + 1}` } : {}),
    }, { 'X-TEC-Total': String(terms.length), 'X-TEC-TotalPages': String(totalPages) }];
  }
  const requested = q.get('status')?.split(',').map((s) => s.trim());
  if (requested && !admin && requested.join() !== 'publish') return invalidParam('status');
  if (requested && requested.some((s) => !ALL_STATUSES.includes(s))) return invalidParam('status');
  const statuses = requested ?? (admin ? ANY : ['publish']);
  let posts = data[collection as 'events' | 'venues' | 'organizers'].filter((p) => statuses.includes(p.status));
  const params: [string, string][] = [['per_page', String(perPage)]];
  if (collection === 'events') {
    posts = posts.filter((e) => !e.hide_from_listings);
    // The default window starts on the recording day; `end_date` filters on the end.
    const start = dayBound(q.get('start_date') ?? '2026-11-22', '00:00:00');
    const end = dayBound(q.get('end_date') ?? '2028-11-22', '23:59:59');
    posts = posts.filter((e) => e.start_date >= start && e.end_date <= end).sort((a, b) => a.start_date.localeCompare(b.start_date) || a.id - b.id);
    params.push(['start_date', start], ['end_date', end]);
  }
  params.push(['status', requested?.join(',') ?? (admin ? 'any' : 'publish')]);
  const items = posts.slice((page - 1) * perPage, page * perPage).map((p) => redacted(data, p, collection));
  if (items.length === 0 && page > 1) {
    const code = `${collection.slice(0, -1)}-archive-page-not-found`;
    return [404, { code, message: `The requested ${collection.slice(0, -1)} archive page does not exist`, data: { status: 404 } }];
  }
  const totalPages = Math.ceil(posts.length / perPage);
  const qs = (pairs: [string, string][]) => new URLSearchParams(pairs).toString();
  const hasNext = page < totalPages || (fake.phantomNext && collection === 'events');
  return [200, {
    [collection]: items,
    rest_url: `${api}/${collection}/?page=${page}&${params.map(([k, v]) => `${k}=${v}`).join('&')}`,
    ...(hasNext ? { next_rest_url: `${api}/${collection}/?${qs([...params, ['page', String(page + 1)]])}` } : {}),
    ...(page > 1 ? { previous_rest_url: `${api}/${collection}/?${qs(page === 2 ? params : [...params, ['page', String(page - 1)]])}` } : {}),
    total: posts.length,
    total_pages: totalPages,
  }, { 'X-TEC-Total': String(posts.length), 'X-TEC-TotalPages': String(totalPages) }];
}

function singlePost(data: SiteData, collection: string, id: number, q: URLSearchParams, admin: boolean): Answer {
  const post = data[collection as 'events' | 'venues' | 'organizers'].find((p) => p.id === id);
  const other = ['events', 'venues', 'organizers'].some((c) => data[c as 'events'].some((p) => p.id === id));
  if (collection !== 'events') {
    return post ? [200, admin && q.get('context') === 'edit' ? post : redacted(data, post, collection)] : invalidParam('id');
  }
  if (!post) {
    return other
      ? [400, { code: 'rest-invalid-event-id', message: 'The specified ID is not a valid event.', data: { status: 400 } }]
      : [404, { code: 'rest-event-not-found', message: `Event with ID ${id} does not exist.`, data: { status: 404 } }];
  }
  if (post.status === 'trash') return [403, { code: 'event-no-longer-available', message: 'This event is no longer available', data: { status: 403 } }];
  if (post.status !== 'publish' && !admin) return [403, { code: 'event-not-accessible', message: 'The requested event is not accessible', data: { status: 403 } }];
  if (data.passwords.has(id) && !(admin && q.get('context') === 'edit')) {
    return [403, { code: 'event-password-protected', message: 'The requested event is not accessible without a password', data: { status: 403 } }];
  }
  return [200, { ...post, json_ld: { '@context': 'http://schema.org', '@type': 'Event', name: post.title } }];
}

/** The reference's redaction of protected content in lists (a subset of its key table). */
function redacted(data: SiteData, post: Json, collection: string): Json {
  if (!data.passwords.has(post.id)) return post;
  const out: Json = { ...post };
  for (const k of ['description', 'excerpt', 'cost', 'website', 'email', 'phone', 'address', 'city', 'zip']) if (k in out) out[k] = '';
  for (const k of ['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) if (k in out) out[k] = null;
  for (const k of ['categories', 'tags', 'venue', 'organizer']) if (k in out) out[k] = [];
  if ('image' in out) out.image = false;
  if ('cost_details' in out) out.cost_details = { currency_symbol: '', currency_position: '', currency_code: '', values: [] };
  if (collection === 'venues') out.venue = [];
  if (collection === 'organizers') out.organizer = [];
  return out;
}

function invalidParam(name: string): Answer {
  return [400, { code: 'rest_invalid_param', message: `Invalid parameter(s): ${name}`, data: { status: 400, params: { [name]: 'Invalid parameter.' } } }];
}

/** `YYYY-MM-DD[ HH:MM:SS]` at the start or end of its day, as the reference's inclusive dates. */
function dayBound(value: string, time: string): string {
  return `${value.slice(0, 10)} ${time}`;
}
