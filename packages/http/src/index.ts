// @evcal/http: the evcal API as a web-standard fetch handler, with bridges for node:http,
// Express, Connect and Next.js.
export { createFetchHandler } from './fetch-handler';
export type { FetchHandler, FetchHandlerOptions } from './fetch-handler';
export { createLanguageHandler } from './language-handler';
export type { LanguageHandlerOptions } from './language-handler';
export { LANGUAGES, translator } from './i18n/translator';
export type { Catalogue, Translator } from './i18n/translator';
export { bearerTokens, invalidCredentials } from './auth';
export type { Authenticate, BearerTokenOptions } from './auth';
export { toNodeHandler } from './node-handler';
export { clientAddress } from './client-address';
export type { NodeHandler, NodeHandlerOptions } from './node-handler';
export { toNextHandlers } from './next-handlers';
export type { NextHandlers, NextRouteHandler } from './next-handlers';
export { routes, syncRoutes, createRouter, wordpressPattern } from './route-table';
export type { Route, Method, OperationName, FeedOperationName, SyncOperationName, Router, RouteMatch } from './route-table';
export { createWebhookSender, signWebhook, isPrivateAddress } from './webhook-sender';
export type { WebhookSenderOptions } from './webhook-sender';
export { feedRoutes } from './ical-routes';
export { openApiDocument } from './openapi';
export { namespaceIndex } from './namespace-index';
export { parsePhpParams } from './php-params';
export type { PhpValue, PhpParseLimits } from './php-params';
export { wireError } from './wire-errors';
export type { CorsOptions } from './cors';
export { memoryRateLimit } from './rate-limit';
export type { RateLimit, RateLimitDecision, RateLimitRequest, MemoryRateLimitOptions } from './rate-limit';
export type { WireErrorBody } from './wire-errors';
