// @evcal/http/next: the bridge to a Next.js catch-all route.
export { toNextHandlers } from './next-handlers';
export type { NextHandlers, NextRouteHandler } from './next-handlers';
