// The route table as data: every route of the interface, in the reference's registration
// order. The router, the namespace descriptor and /doc all read this one table.
import {
  changesArgs, eventListArgs, eventPathIdArg, eventReadArgs, eventSlugArg, eventWriteArgs,
  linkedPostIdArg, linkedPostListArgs, linkedPostSlugArg, linkedPostWriteArgs, readArgs,
  termIdArg, termListArgs, termWriteArgs, webhookIdArg, webhookWriteArgs, type ArgSpecs,
} from '@evcal/core';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The iCalendar feed routes' operations (ical-routes.ts). */
export type FeedOperationName = 'events.feed' | 'events.feedOne' | 'events.feedBySlug';

/** The operations of evcal's own routes for keeping a copy in sync. */
export type SyncOperationName = 'changes.list' | `webhooks.${'list' | 'create' | 'get' | 'update' | 'delete'}`;

/** The calendar operation a route runs. */
export type OperationName =
  | 'root' | 'doc' | FeedOperationName | SyncOperationName
  | `${'events' | 'venues' | 'organizers'}.${'list' | 'create' | 'get' | 'getBySlug' | 'update' | 'updateBySlug' | 'patch' | 'patchBySlug' | 'delete' | 'deleteBySlug'}`
  | `${'categories' | 'tags'}.${'list' | 'create' | 'get' | 'update' | 'delete'}`;

export interface Route {
  /** Path under the API root in OpenAPI form, e.g. `/events/{id}`. */
  readonly path: string;
  readonly methods: readonly Method[];
  readonly operation: OperationName;
  /** The arguments, as the operation declares them. */
  readonly args: ArgSpecs;
  /** Success status. */
  readonly status: 200 | 201;
  readonly summary: string;
  /** Path parameters other than digits (`{id}`) and slugs (`{slug}`): their regular expressions. */
  readonly params?: Readonly<Record<string, string>>;
}

const UPDATE = ['POST', 'PUT'] as const;

function postRoutes(collection: 'events' | 'venues' | 'organizers'): Route[] {
  const kind = collection === 'events' ? 'event' : collection === 'venues' ? 'venue' : 'organizer';
  const list = collection === 'events' ? eventListArgs : linkedPostListArgs(kind as 'venue' | 'organizer');
  const write = (mode: 'create' | 'replace' | 'patch'): ArgSpecs => collection === 'events'
    ? eventWriteArgs(mode)
    : linkedPostWriteArgs(kind as 'venue' | 'organizer', mode === 'create' ? 'create' : 'update');
  const id = collection === 'events' ? { id: eventPathIdArg } : { id: linkedPostIdArg(kind as 'venue' | 'organizer') };
  const slug = collection === 'events' ? { slug: eventSlugArg } : { slug: linkedPostSlugArg(kind as 'venue' | 'organizer') };
  const read = collection === 'events' ? eventReadArgs : readArgs;
  const one = `/${collection}/{id}`;
  const bySlug = `/${collection}/by-slug/{slug}`;
  const a = kind === 'venue' ? 'a' : 'an';
  return [
    { path: `/${collection}`, methods: ['GET'], operation: `${collection}.list`, args: list, status: 200, summary: `List ${collection}` },
    { path: `/${collection}`, methods: ['POST'], operation: `${collection}.create`, args: write('create'), status: 201, summary: `Create ${a} ${kind}` },
    { path: one, methods: ['GET'], operation: `${collection}.get`, args: { ...id, ...read }, status: 200, summary: `Read ${a} ${kind}` },
    { path: one, methods: UPDATE, operation: `${collection}.update`, args: { ...id, ...write('replace') }, status: 200, summary: `Update ${a} ${kind}; omitted fields take their defaults` },
    { path: one, methods: ['PATCH'], operation: `${collection}.patch`, args: { ...id, ...write('patch') }, status: 200, summary: `Change some fields of ${a} ${kind}` },
    { path: one, methods: ['DELETE'], operation: `${collection}.delete`, args: id, status: 200, summary: `Move ${a} ${kind} to the trash` },
    { path: bySlug, methods: ['GET'], operation: `${collection}.getBySlug`, args: { ...slug, ...read }, status: 200, summary: `Read ${a} ${kind} by slug` },
    { path: bySlug, methods: UPDATE, operation: `${collection}.updateBySlug`, args: { ...slug, ...write('replace') }, status: 200, summary: `Update ${a} ${kind} by slug; omitted fields take their defaults` },
    { path: bySlug, methods: ['PATCH'], operation: `${collection}.patchBySlug`, args: { ...slug, ...write('patch') }, status: 200, summary: `Change some fields of ${a} ${kind} by slug` },
    { path: bySlug, methods: ['DELETE'], operation: `${collection}.deleteBySlug`, args: slug, status: 200, summary: `Move ${a} ${kind} to the trash by slug` },
  ];
}

function termRoutes(collection: 'categories' | 'tags'): Route[] {
  const taxonomy = collection === 'categories' ? 'category' : 'tag';
  const id = { id: termIdArg(taxonomy) };
  return [
    { path: `/${collection}`, methods: ['GET'], operation: `${collection}.list`, args: termListArgs(taxonomy), status: 200, summary: `List ${collection}` },
    { path: `/${collection}`, methods: ['POST'], operation: `${collection}.create`, args: termWriteArgs(taxonomy, true), status: 201, summary: `Create a ${taxonomy}` },
    { path: `/${collection}/{id}`, methods: ['GET'], operation: `${collection}.get`, args: id, status: 200, summary: `Read a ${taxonomy}` },
    { path: `/${collection}/{id}`, methods: ['POST', 'PUT', 'PATCH'], operation: `${collection}.update`, args: { ...id, ...termWriteArgs(taxonomy, false) }, status: 200, summary: `Update a ${taxonomy} (only the fields sent change)` },
    { path: `/${collection}/{id}`, methods: ['DELETE'], operation: `${collection}.delete`, args: id, status: 200, summary: `Delete a ${taxonomy} for good` },
  ];
}

/** Every route, in registration order: the namespace root first. */
export const routes: readonly Route[] = [
  { path: '', methods: ['GET'], operation: 'root', args: {}, status: 200, summary: 'Describe the namespace and its routes' },
  { path: '/doc', methods: ['GET'], operation: 'doc', args: {}, status: 200, summary: 'The OpenAPI document of this API' },
  ...postRoutes('events'),
  ...postRoutes('venues'),
  ...postRoutes('organizers'),
  ...termRoutes('categories'),
  ...termRoutes('tags'),
];

/**
 * evcal's routes beyond the reference's (docs/sync.md, docs/webhooks.md): the change feed and
 * webhook endpoints. Served, described by the namespace index and documented in /doc like the
 * others.
 */
const WEBHOOK_ID = { id: '[A-Za-z0-9_-]+' };
export const syncRoutes: readonly Route[] = [
  {
    path: '/changes', methods: ['GET'], operation: 'changes.list', args: changesArgs, status: 200,
    summary: 'The records changed after a sync token, as they are now, and tombstones of those gone; without a token, a token for now',
  },
  { path: '/webhooks', methods: ['GET'], operation: 'webhooks.list', args: {}, status: 200, summary: 'List webhook endpoints (administrators)' },
  { path: '/webhooks', methods: ['POST'], operation: 'webhooks.create', args: webhookWriteArgs(true), status: 201, summary: 'Register a webhook endpoint (administrators); the answer carries its secret' },
  { path: '/webhooks/{id}', methods: ['GET'], operation: 'webhooks.get', args: { id: webhookIdArg }, status: 200, summary: 'Read a webhook endpoint, with its secret (administrators)', params: WEBHOOK_ID },
  {
    path: '/webhooks/{id}', methods: ['POST', 'PUT', 'PATCH'], operation: 'webhooks.update', args: { id: webhookIdArg, ...webhookWriteArgs(false) }, status: 200,
    summary: 'Change a webhook endpoint: only the fields sent change (administrators)', params: WEBHOOK_ID,
  },
  { path: '/webhooks/{id}', methods: ['DELETE'], operation: 'webhooks.delete', args: { id: webhookIdArg }, status: 200, summary: 'Remove a webhook endpoint and its waiting deliveries (administrators)', params: WEBHOOK_ID },
];

/** Writes to an existing record: If-Match and If-None-Match are their preconditions (not webhook endpoints). */
export function isConditionalWrite(operation: OperationName): boolean {
  return /^(events|venues|organizers|categories|tags)\.(update|updateBySlug|patch|patchBySlug|delete|deleteBySlug)$/.test(operation);
}

/** `/events/{id}` as the reference writes route patterns: `/events/(?P<id>\d+)`. */
export function wordpressPattern(path: string, params: Readonly<Record<string, string>> = {}): string {
  let out = path.replace(/\./g, '\\.');
  for (const [name, pattern] of Object.entries(params)) out = out.replace(`{${name}}`, `(?P<${name}>${pattern})`);
  return out.replace('{id}', '(?P<id>\\d+)').replace('{slug}', '(?P<slug>[^/]+)');
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

export interface Router {
  /** The route for a path and method, or which methods the path has (none: no such path). */
  match(path: string, method: string): { match?: RouteMatch; allowed: readonly Method[] };
}

/**
 * A router over a route table (the reference's routes and evcal's sync routes by default). Ids
 * are digits, unless the route gives their pattern; slugs are one or more characters other than `/`.
 */
export function createRouter(table: readonly Route[] = [...routes, ...syncRoutes]): Router {
  const compiled = table.map((route) => {
    let source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    for (const [name, pattern] of Object.entries(route.params ?? {})) source = source.replace(`{${name}}`, `(?<${name}>${pattern})`);
    source = source.replace('{id}', '(?<id>\\d+)').replace('{slug}', '(?<slug>[^/]+)');
    return { route, regex: new RegExp(`^${source}/?$`, 'i') };
  });
  return {
    match(path, method) {
      const allowed: Method[] = [];
      let match: RouteMatch | undefined;
      for (const { route, regex } of compiled) {
        const m = regex.exec(path);
        if (!m) continue;
        allowed.push(...route.methods.filter((x) => !allowed.includes(x)));
        if (!match && (route.methods as readonly string[]).includes(method)) {
          const params: Record<string, string> = {};
          for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = safeDecode(v);
          match = { route, params };
        }
      }
      return { ...(match ? { match } : {}), allowed };
    },
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
