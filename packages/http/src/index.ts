// @evcal/http: the evcal API as a web-standard fetch handler. The bridges are subpaths:
// @evcal/http/node (node:http, Express, Connect) and @evcal/http/next (Next.js).
export { createFetchHandler } from './fetch-handler';
export type { FetchHandlerOptions } from './fetch-handler';
export { fetchHandlerOf } from './wire-response';
export type { EvcalHandler, FetchHandler, WireHandler, WireResponse } from './wire-response';
export type { HandlerRequest, HeaderReader } from './handler-request';
export { createLanguageHandler } from './language-handler';
export type { LanguageHandlerOptions } from './language-handler';
export { LANGUAGES, translator } from './i18n/translator';
export type { Catalogue, Translator } from './i18n/translator';
export { accountCredentials, anonymousWithoutAuthorization, bearerTokens, invalidCredentials, MIN_SECRET_LENGTH, weakSecret } from './auth';
export type { AccountCredentialsOptions, Authenticate, BearerTokenOptions } from './auth';
export { memoryCredentialFailureLimit } from './credential-limit';
export type { CredentialFailureLimit, MemoryCredentialFailureLimitOptions } from './credential-limit';
export { clientAddress } from './client-address';
export { routes, syncRoutes, createRouter, wordpressPattern } from './route-table';
export type {
  Route, RouteAction, RouteAnswer, RouteOperation, RoutePlanner, FeedKind, Method, OperationName, FeedOperationName, SyncOperationName, Router, RouteMatch,
} from './route-table';
export { createWebhookSender, signWebhook, isPrivateAddress, lookupAddresses } from './webhook-sender';
export type { WebhookSenderOptions } from './webhook-sender';
export { feedRoutes } from './ical-routes';
export { openApiDocument } from './openapi';
export { namespaceIndex } from './namespace-index';
export { parsePhpParams } from './php-params';
export type { PhpValue, PhpParseLimits } from './php-params';
export { wireError } from './wire-errors';
// Entity tags as the handler makes them (for other handlers of the same server: evcal serve's pages).
export { entityTag, variantOf, parseEntityTags, noneMatch } from './conditional';
export type { EntityTags } from './conditional';
export { TransportError, isTransportError } from './transport-errors';
export type { TransportErrorCode } from './transport-errors';
export type { CorsOptions } from './cors';
export { memoryRateLimit } from './rate-limit';
export type { RateLimit, RateLimitDecision, RateLimitRequest, MemoryRateLimitOptions } from './rate-limit';
export type { WireErrorBody } from './wire-errors';
