// The address of the client behind a request, for the rate limiter and for apps' hooks.
import type { HandlerRequest } from './handler-request';

/**
 * The client's address, when the request came through a bridge that knows it (toNodeHandler):
 * the socket's remote address, or with `trustProxy` the last `X-Forwarded-For` address (the
 * one the proxy saw; earlier ones are whatever the client sent).
 */
export function clientAddress(request: HandlerRequest): string | undefined {
  return request.clientAddress;
}
