// @evcal/http: the evcal API as a web-standard fetch handler. The bridges are subpaths:
// @evcal/http/node (node:http, Express, Connect) and @evcal/http/next (Next.js).
export { createFetchHandler } from './fetch-handler';
export type { FetchHandler, FetchHandlerOptions } from './fetch-handler';
export { createLanguageHandler } from './language-handler';
export type { LanguageHandlerOptions } from './language-handler';
export { LANGUAGES, translator } from './i18n/translator';
export type { Catalogue, Translator } from './i18n/translator';
export { bearerTokens, invalidCredentials } from './auth';
export type { Authenticate, BearerTokenOptions } from './auth';
export { clientAddress } from './client-address';
export { routes, createRouter, wordpressPattern } from './route-table';
export type { Route, RouteAction, RouteOperation, RoutePlanner, FeedKind, Method, OperationName, FeedOperationName, Router, RouteMatch } from './route-table';
export { feedRoutes } from './ical-routes';
export { openApiDocument } from './openapi';
export { namespaceIndex } from './namespace-index';
export { parsePhpParams } from './php-params';
export type { PhpValue, PhpParseLimits } from './php-params';
export { wireError } from './wire-errors';
export { TransportError, isTransportError } from './transport-errors';
export type { TransportErrorCode } from './transport-errors';
export type { CorsOptions } from './cors';
export { memoryRateLimit } from './rate-limit';
export type { RateLimit, RateLimitDecision, RateLimitRequest, MemoryRateLimitOptions } from './rate-limit';
export type { WireErrorBody } from './wire-errors';
