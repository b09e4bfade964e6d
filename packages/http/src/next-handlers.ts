// toNextHandlers: the route handlers of a Next.js catch-all route
// (`app/<mount>/[...path]/route.ts`): `export const { GET, POST, ... } = toNextHandlers(handler)`.
import type { FetchHandler } from './fetch-handler';

export type NextRouteHandler = (request: Request) => Promise<Response>;

export interface NextHandlers {
  readonly GET: NextRouteHandler;
  readonly HEAD: NextRouteHandler;
  readonly POST: NextRouteHandler;
  readonly PUT: NextRouteHandler;
  readonly PATCH: NextRouteHandler;
  readonly DELETE: NextRouteHandler;
  readonly OPTIONS: NextRouteHandler;
}

export function toNextHandlers(handler: FetchHandler): NextHandlers {
  const route: NextRouteHandler = (request) => handler(request);
  return { GET: route, HEAD: route, POST: route, PUT: route, PATCH: route, DELETE: route, OPTIONS: route };
}
