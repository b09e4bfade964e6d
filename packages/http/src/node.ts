// @evcal/http/node: the bridge to node:http, Express and Connect.
export { incomingMessageOf, toNodeHandler } from './node-handler';
export type { NodeHandler, NodeHandlerOptions } from './node-handler';
