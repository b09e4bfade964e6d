// GET /doc (behaviour.md §7.2): an OpenAPI 3 document generated from the route table and the
// operations' argument schemas, so the documentation cannot drift from validation.
import type { ArgSpecs } from '@evcal/core';
import { COMPONENTS } from './openapi-components';
import { inputSchema } from './namespace-index';
import { routes, type Route } from './route-table';

const INFO = {
  version: '1.0.0',
  title: 'The Events Calendar REST API',
  description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
};

/** The response schema of a route's success body. */
function successSchema(route: Route): Record<string, unknown> {
  const [collection = ''] = route.path.split('/').filter(Boolean);
  const ref = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' }[collection];
  if (!ref) return { type: 'object' };
  const item = { $ref: `#/components/schemas/${ref}` };
  if (!route.operation.endsWith('.list')) return item;
  return {
    type: 'object',
    properties: {
      [collection]: { type: 'array', items: item },
      rest_url: { type: 'string' },
      next_rest_url: { type: 'string' },
      previous_rest_url: { type: 'string' },
      total: { type: 'integer' },
      total_pages: { type: 'integer' },
    },
  };
}

const ERRORS: Record<string, string> = {
  '400': 'A parameter is missing or invalid (rest_missing_callback_param, rest_invalid_param)',
  '401': 'Authentication is needed (rest_forbidden) or the credentials are not valid',
  '403': 'The caller may not do this, or the item is not accessible',
  '404': 'No such route, event or page',
  '410': 'The item is already in the trash',
};

function operation(route: Route, method: string): Record<string, unknown> {
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const inBody = method !== 'get' && method !== 'delete';
  const parameters: Record<string, unknown>[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(route.args as ArgSpecs)) {
    const schema = {
      ...inputSchema(spec),
      ...(spec.default !== undefined && typeof spec.default !== 'function' ? { default: spec.default } : {}),
    };
    if (pathNames.includes(name)) {
      parameters.push({ name, in: 'path', required: true, description: spec.description, schema });
    } else if (inBody) {
      properties[name] = { ...schema, description: spec.description };
      if (spec.required) required.push(name);
    } else {
      parameters.push({ name, in: 'query', required: spec.required === true, description: spec.description, schema });
    }
  }
  const bodySchema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  return {
    summary: route.summary,
    ...(parameters.length ? { parameters } : {}),
    ...(inBody && Object.keys(properties).length ? {
      requestBody: {
        content: {
          'application/json': { schema: bodySchema },
          'application/x-www-form-urlencoded': { schema: bodySchema },
        },
      },
    } : {}),
    responses: {
      [String(route.status)]: { description: route.summary, content: { 'application/json': { schema: successSchema(route) } } },
      ...Object.fromEntries(Object.entries(ERRORS).map(([code, description]) => [code, { description }])),
    },
  };
}

/** The OpenAPI document; `apiRoot` is the API root as the client reached it. */
export function openApiDocument(apiRoot: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.path === '') continue;
    const item = (paths[route.path] ??= {});
    for (const method of route.methods) item[method.toLowerCase()] = operation(route, method.toLowerCase());
  }
  return {
    openapi: '3.0.0',
    info: INFO,
    components: { schemas: COMPONENTS },
    servers: [{ url: `${apiRoot}/` }],
    paths,
  };
}
