// The route table as data: every route of the interface, in the reference's registration
// order. The router, the namespace descriptor and /doc all read this one table.
import { type Calendar, type CallContext, type ListPlan, type ListStability } from '@evcal/core';
import { OPERATIONS, type ArgSpecs, type OperationDeclaration, type OperationName as CalendarOperationName, type WireArgs } from '@evcal/core/binding';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The calendar operation a route runs (core's declarations), or the namespace index and /doc. */
export type OperationName = 'root' | 'doc' | CalendarOperationName;
/** The iCalendar feed routes' operations (ical-routes.ts). */
export type FeedOperationName = Extract<CalendarOperationName, `events.feed${string}`>;
/** The operations of evcal's own routes for keeping a copy in sync. */
export type SyncOperationName = Extract<CalendarOperationName, `${'changes' | 'webhooks'}.${string}`>;

/**
 * What a route's operation answers: a record's `Representation` (its value, its validator and,
 * when already made, its JSON text), with `stable` when the read was kept (core's
 * kept-reads.ts); or only a value, where answers have no validator (the change feed, webhook
 * endpoints).
 */
export interface RouteAnswer {
  readonly value: object;
  readonly validator?: string;
  readonly bytes?: Uint8Array;
  readonly stable?: ListStability;
}
/**
 * A calendar operation as the handler calls it: the request's parameters, which the operation
 * validates (the wire carries any JSON), and the call context. Every single-record operation
 * of a `Calendar` is one (their inputs are typed for apps; over HTTP the validation speaks).
 */
export type RouteOperation = (params: WireArgs, ctx: CallContext) => Promise<RouteAnswer>;
/** A list operation, planned before it is read (its validator comes first: a 304 reads nothing). */
export type RoutePlanner = (params: WireArgs, ctx: CallContext) => Promise<ListPlan<object>>;
/** Which iCalendar feed answers: the list's, or one event's by id or by slug. */
export type FeedKind = 'list' | 'id' | 'slug';

/**
 * What a route does and how its answer is made, read by the handler (no dispatch by name):
 * - `list`: planned, a weak ETag, 304 to a matching If-None-Match, X-TEC-* totals and Link;
 * - `read`: Cache-Control and Vary; a strong ETag when the answer has a validator, and 304 to
 *   a matching If-None-Match; a kept answer (`stable`) is remembered for anonymous callers;
 * - `create`: 201, with a `Location` header when `location` says where: the answer's own
 *   address (`self`: its `urls.self`) or the route's path and the answer's `id` (`id`);
 * - `change`: a write to an existing resource, whose If-Match / If-None-Match are preconditions;
 * - `write`: a write to an existing resource that has no validator (a webhook endpoint): no preconditions;
 * - `feed`: an iCalendar feed; `list` and `read` routes with `feed` answer one when `Accept` asks.
 */
export type RouteAction =
  | { readonly kind: 'root' }
  | { readonly kind: 'doc' }
  | { readonly kind: 'list'; readonly plan: (calendar: Calendar) => RoutePlanner; readonly feed?: FeedKind }
  | { readonly kind: 'read'; readonly run: (calendar: Calendar) => RouteOperation; readonly feed?: FeedKind }
  | { readonly kind: 'create'; readonly run: (calendar: Calendar) => RouteOperation; readonly location?: 'self' | 'id' }
  | { readonly kind: 'change'; readonly run: (calendar: Calendar) => RouteOperation }
  | { readonly kind: 'write'; readonly run: (calendar: Calendar) => RouteOperation }
  | { readonly kind: 'feed'; readonly feed: FeedKind };

export interface Route {
  /** Path under the API root in OpenAPI form, e.g. `/events/{id}`. */
  readonly path: string;
  readonly methods: readonly Method[];
  /** The operation's name (documentation, tests). */
  readonly operation: OperationName;
  /** What the handler runs. */
  readonly action: RouteAction;
  /** The arguments: the very declarations the operation parses its input with (core's OPERATIONS). */
  readonly args: ArgSpecs;
  /** What a success answers with (core's OPERATIONS); absent for the namespace index and /doc. */
  readonly result?: OperationDeclaration['result'];
  /** Success status. */
  readonly status: 200 | 201;
  readonly summary: string;
  /** Path parameters other than digits (`{id}`) and slugs (`{slug}`): their regular expressions. */
  readonly params?: Readonly<Record<string, string>>;
  /** False when the answers carry no validator (no ETag, no 304): the change feed and webhook endpoints. */
  readonly validators?: false;
}

const UPDATE = ['POST', 'PUT'] as const;

/** A route of a calendar operation: its arguments and result are the operation's declaration, never restated here. */
export function operationRoute(operation: CalendarOperationName, route: Omit<Route, 'operation' | 'args' | 'result'>): Route {
  const { args, result } = OPERATIONS[operation] as OperationDeclaration;
  return { ...route, operation, args, result };
}

function postRoutes(collection: 'events' | 'venues' | 'organizers'): Route[] {
  const kind = collection === 'events' ? 'event' : collection === 'venues' ? 'venue' : 'organizer';
  const one = `/${collection}/{id}`;
  const bySlug = `/${collection}/by-slug/{slug}`;
  const a = kind === 'venue' ? 'a' : 'an';
  const events = collection === 'events';
  const ops = (c: Calendar) => c[collection];
  return [
    operationRoute(`${collection}.list`, { path: `/${collection}`, methods: ['GET'], action: { kind: 'list', plan: (c) => ops(c).planList, ...(events ? { feed: 'list' as const } : {}) }, status: 200, summary: `List ${collection}` }),
    operationRoute(`${collection}.create`, { path: `/${collection}`, methods: ['POST'], action: { kind: 'create', run: (c) => ops(c).create }, status: 201, summary: `Create ${a} ${kind}` }),
    operationRoute(`${collection}.get`, { path: one, methods: ['GET'], action: { kind: 'read', run: (c) => (events ? c.events.getJson : ops(c).get), ...(events ? { feed: 'id' as const } : {}) }, status: 200, summary: `Read ${a} ${kind}` }),
    operationRoute(`${collection}.update`, { path: one, methods: UPDATE, action: { kind: 'change', run: (c) => ops(c).update }, status: 200, summary: `Update ${a} ${kind}; omitted fields take their defaults` }),
    operationRoute(`${collection}.patch`, { path: one, methods: ['PATCH'], action: { kind: 'change', run: (c) => ops(c).patch }, status: 200, summary: `Change some fields of ${a} ${kind}` }),
    operationRoute(`${collection}.delete`, { path: one, methods: ['DELETE'], action: { kind: 'change', run: (c) => ops(c).delete }, status: 200, summary: `Move ${a} ${kind} to the trash` }),
    operationRoute(`${collection}.getBySlug`, { path: bySlug, methods: ['GET'], action: { kind: 'read', run: (c) => ops(c).getBySlug, ...(events ? { feed: 'slug' as const } : {}) }, status: 200, summary: `Read ${a} ${kind} by slug` }),
    operationRoute(`${collection}.updateBySlug`, { path: bySlug, methods: UPDATE, action: { kind: 'change', run: (c) => ops(c).updateBySlug }, status: 200, summary: `Update ${a} ${kind} by slug; omitted fields take their defaults` }),
    operationRoute(`${collection}.patchBySlug`, { path: bySlug, methods: ['PATCH'], action: { kind: 'change', run: (c) => ops(c).patchBySlug }, status: 200, summary: `Change some fields of ${a} ${kind} by slug` }),
    operationRoute(`${collection}.deleteBySlug`, { path: bySlug, methods: ['DELETE'], action: { kind: 'change', run: (c) => ops(c).deleteBySlug }, status: 200, summary: `Move ${a} ${kind} to the trash by slug` }),
  ];
}

function termRoutes(collection: 'categories' | 'tags'): Route[] {
  const taxonomy = collection === 'categories' ? 'category' : 'tag';
  const ops = (c: Calendar) => c[collection];
  return [
    operationRoute(`${collection}.list`, { path: `/${collection}`, methods: ['GET'], action: { kind: 'list', plan: (c) => ops(c).planList }, status: 200, summary: `List ${collection}` }),
    // The reference answers a new term with its address in `Location` (as WordPress's term controller does).
    operationRoute(`${collection}.create`, { path: `/${collection}`, methods: ['POST'], action: { kind: 'create', run: (c) => ops(c).create, location: 'self' }, status: 201, summary: `Create a ${taxonomy}` }),
    operationRoute(`${collection}.get`, { path: `/${collection}/{id}`, methods: ['GET'], action: { kind: 'read', run: (c) => ops(c).get }, status: 200, summary: `Read a ${taxonomy}` }),
    operationRoute(`${collection}.update`, { path: `/${collection}/{id}`, methods: ['POST', 'PUT', 'PATCH'], action: { kind: 'change', run: (c) => ops(c).update }, status: 200, summary: `Update a ${taxonomy} (only the fields sent change)` }),
    operationRoute(`${collection}.delete`, { path: `/${collection}/{id}`, methods: ['DELETE'], action: { kind: 'change', run: (c) => ops(c).delete }, status: 200, summary: `Delete a ${taxonomy} for good` }),
  ];
}

/** Every route, in registration order: the namespace root first. */
export const routes: readonly Route[] = [
  { path: '', methods: ['GET'], operation: 'root', action: { kind: 'root' }, args: {}, status: 200, summary: 'Describe the namespace and its routes' },
  { path: '/doc', methods: ['GET'], operation: 'doc', action: { kind: 'doc' }, args: {}, status: 200, summary: 'The OpenAPI document of this API' },
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
export const syncRoutes: readonly Route[] = withoutValidators([
  operationRoute('changes.list', {
    path: '/changes', methods: ['GET'], action: { kind: 'read', run: (c) => plain(c.changes.list) }, status: 200,
    summary: 'The records changed after a sync token, as they are now, and tombstones of those gone; without a token, a token for now',
  }),
  operationRoute('webhooks.list', { path: '/webhooks', methods: ['GET'], action: { kind: 'read', run: (c) => plain(c.webhooks.list) }, status: 200, summary: 'List webhook endpoints (administrators)' }),
  operationRoute('webhooks.create', {
    path: '/webhooks', methods: ['POST'], action: { kind: 'create', run: (c) => plain(c.webhooks.create), location: 'id' }, status: 201,
    summary: 'Register a webhook endpoint (administrators); the answer carries its secret',
  }),
  operationRoute('webhooks.get', {
    path: '/webhooks/{id}', methods: ['GET'], action: { kind: 'read', run: (c) => plain(c.webhooks.get) }, status: 200,
    summary: 'Read a webhook endpoint, with its secret (administrators)', params: WEBHOOK_ID,
  }),
  operationRoute('webhooks.update', {
    path: '/webhooks/{id}', methods: ['POST', 'PUT', 'PATCH'], action: { kind: 'write', run: (c) => plain(c.webhooks.update) },
    status: 200, summary: 'Change a webhook endpoint: only the fields sent change (administrators)', params: WEBHOOK_ID,
  }),
  operationRoute('webhooks.delete', {
    path: '/webhooks/{id}', methods: ['DELETE'], action: { kind: 'write', run: (c) => plain(c.webhooks.delete) }, status: 200,
    summary: 'Remove a webhook endpoint and its waiting deliveries (administrators)', params: WEBHOOK_ID,
  }),
]);

/** An operation whose answers have no validator (the change feed, webhook endpoints), as a route runs it. */
function plain(operation: (params: WireArgs, ctx: CallContext) => Promise<object>): RouteOperation {
  return async (params, ctx) => ({ value: await operation(params, ctx) });
}

function withoutValidators(table: Route[]): Route[] {
  return table.map((route) => ({ ...route, validators: false }));
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
