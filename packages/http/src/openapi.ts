// GET /doc (behaviour reference: "GET /doc"): an OpenAPI 3 document generated from the route table and the
// operations' argument schemas, so the documentation cannot drift from validation.
import { SHARED_SCHEMAS, type ArgSpecs } from '@evcal/core/binding';
import { COMPONENTS } from './openapi-components';
import { inputSchema } from './namespace-index';
import { feedRoutes, isNegotiated } from './ical-routes';
import { routes, syncRoutes, type Route } from './route-table';

const INFO = {
  version: '1.0.0',
  title: 'The Events Calendar REST API',
  description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
};

/**
 * The resource a route's operations are grouped under (OpenAPI `tags`): the collection its
 * path starts with (`/events.ics` is an events route). The document's top level keeps the
 * reference's keys, so the tags are named there by the operations alone.
 */
function collectionOf(route: Route): string {
  const first = route.path.split('/')[1] ?? '';
  return first.replace(/\.ics$/, '');
}

/**
 * The `operationId` of a route's method: its operation's name, with the method where one
 * route takes several (`events.update.put`), so that every id is unique.
 */
function operationId(route: Route, method: string): string {
  return route.methods.length > 1 ? `${route.operation}.${method}` : route.operation;
}

/** The response schema of a route's success body: its operation's declared result. */
function successSchema(route: Route): Record<string, unknown> {
  if (!route.result || route.result === 'iCalendar') return { type: 'object', additionalProperties: true };
  return { $ref: `#/components/schemas/${route.result}` };
}

const ERROR = { $ref: '#/components/schemas/Error' };
const ERRORS: Record<string, string> = {
  '400': 'A parameter is missing or invalid (rest_missing_callback_param, rest_invalid_param)',
  '401': 'Authentication is needed (rest_forbidden) or the credentials are not valid',
  '403': 'The caller may not do this, or the item is not accessible',
  '404': 'No such route, event or page',
  '410': 'The item is already in the trash',
  '429': 'Too many requests from this client (rest_too_many_requests), when the server limits them; Retry-After says when to try again',
  '503': 'The storage cannot be reached (rest_service_unavailable), takes no writes (rest_read_only), or failed while committing a write that may have been saved (rest_write_outcome_unknown); Retry-After says when to try again',
};
/** Writes: a concurrent write may get in the way; an idempotency key may be in use or reused. */
const WRITE_ERRORS: Record<string, string> = {
  '409': 'A concurrent write got in the way (rest_conflict), or a request with this Idempotency-Key is still being processed (rest_idempotency_key_in_use, with Retry-After); sending the request again may succeed',
  '422': 'This Idempotency-Key was already used for another request (rest_idempotency_key_reused)',
  '507': 'The storage is full (rest_insufficient_storage): nothing was written; reads still work',
};
/** Routes that take a body: it may be too large. */
const BODY_ERRORS: Record<string, string> = {
  '413': 'The request body is larger than the server accepts (rest_payload_too_large)',
};

// Validators (docs/http.md, "Caching and optimistic concurrency").
const header = (name: string, description: string) => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });
const IF_NONE_MATCH_READ = header('If-None-Match', 'ETags of representations you hold: 304 Not Modified when one is still current');
const IF_MATCH = header('If-Match', 'Change only if the resource still has one of these ETags (* for any existing state); else 412');
const IF_NONE_MATCH_WRITE = header('If-None-Match', 'Change only if the resource has none of these ETags (* refuses any existing state); else 412');
// Retries (docs/http.md, "Retries"): the IETF httpapi draft's Idempotency-Key.
const IDEMPOTENCY_KEY = header('Idempotency-Key', 'A key of your choosing, best a random UUID: 1 to 255 printable ASCII characters, as a Structured Field string ("…") or bare (else 400 rest_invalid_idempotency_key). The write runs once per key: a repeat with the same key, address and body while the server keeps the key (24 hours by default) gets the first answer again, with Idempotent-Replayed: true');
const REPLAYED = { schema: { type: 'string', enum: ['true'] }, description: 'This answer is the one kept for the request\'s Idempotency-Key, sent again: nothing was written this time' };
const ETAG = { schema: { type: 'string' }, description: 'The entity tag of the representation (weak for lists)' };
const CACHE_CONTROL = { schema: { type: 'string' }, description: 'no-cache: caches keep the answer but check it with If-None-Match each time' };
const LIST_HEADERS = {
  'X-TEC-Total': { schema: { type: 'integer' }, description: 'Items in all pages' },
  'X-TEC-TotalPages': { schema: { type: 'integer' }, description: 'Pages' },
  Link: { schema: { type: 'string' }, description: 'The next and previous pages (rel="next", rel="prev")' },
};
const NOT_MODIFIED = { description: 'Not modified: the representation you hold is current', headers: { ETag: ETAG, 'Cache-Control': CACHE_CONTROL } };
const WRITE_CONDITIONS = {
  '412': { description: 'The resource changed since you read it (rest_precondition_failed)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  '428': { description: 'This server needs If-Match on changes (rest_precondition_required)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
};

/** Route-specific meanings of an error status. */
const ERRORS_OF: Partial<Record<Route['operation'], Record<string, string>>> = {
  'changes.list': { '410': 'The sync token has expired (changes-token-expired) or was not issued by this calendar (changes-token-invalid): list everything again' },
  'webhooks.get': { '404': 'No webhook endpoint has this ID (webhook-not-found)' },
  'webhooks.update': { '404': 'No webhook endpoint has this ID (webhook-not-found)' },
  'webhooks.delete': { '404': 'No webhook endpoint has this ID (webhook-not-found)' },
};

/**
 * How a route takes part in validators: reads answer 304, changes to an existing resource take
 * preconditions; answers without validators (the change feed, webhook endpoints) do neither.
 */
function validation(route: Route): 'read' | 'change' | 'create' | 'plain' {
  const { kind } = route.action;
  if (route.validators === false || kind === 'write') return 'plain';
  return kind === 'change' || kind === 'create' ? kind : 'read';
}

function operation(route: Route, method: string): Record<string, unknown> {
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const inBody = method !== 'get' && method !== 'delete';
  const parameters: Record<string, unknown>[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(route.args as ArgSpecs)) {
    const schema: Record<string, unknown> = {
      ...inputSchema(spec, SHARED_REFS),
      ...(spec.default !== undefined && typeof spec.default !== 'function' ? { default: spec.default } : {}),
    };
    if (pathNames.includes(name)) {
      parameters.push({ name, in: 'path', required: true, description: spec.description, schema: pathSchema(route, name, schema) });
    } else if (inBody) {
      // A schema that describes itself (the forms a date takes) keeps its text under the argument's.
      properties[name] = typeof schema.description === 'string' ? { description: spec.description, allOf: [schema] } : { ...schema, description: spec.description };
      if (spec.required) required.push(name);
    } else {
      // Lists written as text in a query separate their items with commas (style form, not exploded).
      parameters.push({ name, in: 'query', required: spec.required === true, description: spec.description, schema, ...(takesArray(schema) ? { style: 'form', explode: false } : {}) });
    }
  }
  const bodySchema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  const kind = validation(route);
  if (kind === 'read') parameters.push(IF_NONE_MATCH_READ);
  if (kind === 'change') parameters.push(IF_MATCH, IF_NONE_MATCH_WRITE);
  const writes = method !== 'get';
  if (writes) parameters.push(IDEMPOTENCY_KEY);
  return {
    tags: [collectionOf(route)],
    operationId: operationId(route, method),
    summary: route.summary,
    ...(parameters.length ? { parameters } : {}),
    security: security(route, method),
    ...(inBody && Object.keys(properties).length ? {
      requestBody: {
        // A body its operation cannot do without (its required arguments) is required.
        ...(required.length ? { required: true } : {}),
        content: {
          'application/json': { schema: bodySchema },
          'application/x-www-form-urlencoded': { schema: bodySchema },
        },
      },
    } : {}),
    responses: {
      [String(route.status)]: {
        description: route.summary,
        headers: kind === 'read' ? { ETag: ETAG, 'Cache-Control': CACHE_CONTROL, ...(route.action.kind === 'list' ? LIST_HEADERS : {}) }
          : { ...(kind === 'plain' ? {} : { ETag: ETAG }), ...(writes ? { 'Idempotent-Replayed': REPLAYED } : {}) },
        content: successContent(route),
      },
      ...(kind === 'read' ? { '304': NOT_MODIFIED } : {}),
      ...Object.fromEntries(Object.entries({
        ...ERRORS, ...(inBody ? BODY_ERRORS : {}), ...(writes ? WRITE_ERRORS : {}), ...ERRORS_OF[route.operation],
      }).map(([code, description]) => [code, { description, content: { 'application/json': { schema: ERROR } } }])),
      ...(kind === 'change' ? WRITE_CONDITIONS : {}),
    },
  };
}

/**
 * The schema of a path parameter: what its route's pattern lets through. An id is digits (the
 * number the argument takes); a slug anything but `.` and `..` (which URLs resolve away) and
 * names ending in `.ics` (the address of the event's iCalendar feed); others their own pattern.
 */
function pathSchema(route: Route, name: string, schema: Record<string, unknown>): Record<string, unknown> {
  const own = route.params?.[name];
  if (own !== undefined) return { ...schema, pattern: `^${own}$` };
  if (name === 'id') {
    const number = ((schema.anyOf as Record<string, unknown>[] | undefined) ?? [schema]).find((s) => s.type === 'integer' || s.type === 'number');
    return { type: 'integer', minimum: typeof number?.minimum === 'number' ? number.minimum : 0 };
  }
  if (name === 'slug') return { ...schema, pattern: String.raw`^(?!\.\.?$)(?![\s\S]*\.[iI][cC][sS]$)[\s\S]+$` };
  return schema;
}

/** Whether a parameter's schema offers an array (a list). */
function takesArray(schema: Record<string, unknown>): boolean {
  return schema.type === 'array' || ((schema.anyOf as Record<string, unknown>[] | undefined) ?? []).some((s) => s.type === 'array');
}

/**
 * Who may call: anyone (reads: `{}`), or callers with credentials (writes, and webhook
 * endpoints, which are for administrators): a bearer token or an application password.
 */
function security(route: Route, method: string): Record<string, string[]>[] {
  const signedIn: Record<string, string[]>[] = [{ bearerAuth: [] }, { basicAuth: [] }];
  return method === 'get' && !route.operation.startsWith('webhooks.') ? [{}, ...signedIn] : signedIn;
}

const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'A token made with evcal tokens create (or --user): Authorization: Bearer <token>' },
  basicAuth: { type: 'http', scheme: 'basic', description: 'A user name and one of their application passwords, as WordPress takes them' },
};

/** The shared schemas (core's SHARED_SCHEMAS) as components, and what refers to each. */
const SHARED_REFS = new Map<unknown, string>(Object.entries(SHARED_SCHEMAS).map(([name, schema]) => [schema, `#/components/schemas/${name}`]));
const SHARED_COMPONENTS = Object.fromEntries(Object.entries(SHARED_SCHEMAS).map(([name, schema]) => [name, inputSchema({ schema, description: '' })]));

/** The media types of a success: JSON, iCalendar for the feeds, and both where `Accept` chooses (ical-routes.ts). */
function successContent(route: Route): Record<string, unknown> {
  const calendar = { 'text/calendar': { schema: { type: 'string' } } };
  if (route.action.kind === 'feed') return calendar;
  const json = { 'application/json': { schema: successSchema(route) } };
  return isNegotiated(route.action) ? { ...json, ...calendar } : json;
}

/** The OpenAPI document; `apiRoot` is the API root as the client reached it. */
export function openApiDocument(apiRoot: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of [...routes, ...feedRoutes, ...syncRoutes]) {
    if (route.path === '') continue;
    const item = (paths[route.path] ??= {});
    for (const method of route.methods) item[method.toLowerCase()] = operation(route, method.toLowerCase());
  }
  return {
    openapi: '3.0.0',
    info: INFO,
    components: { schemas: { ...COMPONENTS, ...SHARED_COMPONENTS }, securitySchemes: SECURITY_SCHEMES },
    // With a trailing slash, as the reference serves it and its clients read it (the conformance
    // suite's SwaggerDocumentationCest checks it), though the paths begin with one.
    servers: [{ url: `${apiRoot}/` }],
    paths,
  };
}
