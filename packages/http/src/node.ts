// @evcal/http/node: the bridge to node:http, Express and Connect.
export { toNodeHandler } from './node-handler';
export type { NodeHandler, NodeHandlerOptions } from './node-handler';
