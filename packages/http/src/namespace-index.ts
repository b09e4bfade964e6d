// GET on the namespace root (behaviour reference: "Namespace index"): the namespace and its routes,
// keyed by the reference's route patterns, with each endpoint's arguments.
import { toJsonSchema } from '@valibot/to-json-schema';
import type { ArgSpec } from '@evcal/core/binding';
import { feedRoutes } from './ical-routes';
import { routes, syncRoutes, wordpressPattern, type Method, type Route } from './route-table';

export function namespaceIndex(namespace: string, apiRoot: string, siteRoot: string): Record<string, unknown> {
  const byPath = new Map<string, Route[]>();
  for (const route of [...routes, ...feedRoutes, ...syncRoutes]) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  const described: Record<string, unknown> = {};
  for (const [path, group] of byPath) {
    const methods = [...new Set(group.flatMap((r) => r.methods))];
    const key = `/${namespace}${wordpressPattern(path, group[0]!.params)}`;
    described[key] = {
      namespace,
      methods,
      endpoints: group.map((r) => ({ methods: r.methods, args: describeArgs(r.args, path === '' ? namespace : undefined) })),
      ...(path.includes('{') ? {} : { _links: { self: [{ href: `${apiRoot}${path}` }] } }),
    };
  }
  return { namespace, routes: described, _links: { up: [{ href: `${siteRoot}/` }] } };
}

/** Argument data as WordPress shows it: JSON-schema keywords and `required`. */
export function describeArgs(args: Readonly<Record<string, ArgSpec>>, namespace?: string): Record<string, unknown> {
  if (namespace !== undefined) {
    return {
      namespace: { default: namespace, required: false },
      context: { default: 'view', required: false },
    };
  }
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(args)) {
    out[name] = {
      ...(spec.default !== undefined && typeof spec.default !== 'function' ? { default: spec.default } : {}),
      ...inputSchema(spec),
      // The argument's own text, as WordPress gives it (a schema's text on the forms it takes is /doc's).
      description: spec.description,
      required: spec.required === true,
    };
  }
  return out;
}

/**
 * The JSON Schema of what a client may send for an argument. `shared` names schemas stated
 * once elsewhere (/doc's components): an argument taking one of them refers to it.
 */
export function inputSchema(spec: ArgSpec, shared?: ReadonlyMap<unknown, string>): Record<string, unknown> {
  const ref = shared?.get(spec.schema);
  // A reference beside other keywords (the argument's description) is wrapped: OpenAPI 3.0 ignores a $ref's siblings.
  if (ref !== undefined) return { allOf: [{ $ref: ref }] };
  const schema = toJsonSchema(spec.schema, { target: 'openapi-3.0', typeMode: 'input', errorMode: 'ignore' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export type { Method };
