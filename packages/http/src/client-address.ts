// The address of the client behind a request, for the rate limiter and for apps' hooks.
import type { HandlerRequest } from './handler-request';

/**
 * The client's address, when the request came through a bridge that knows it (toNodeHandler):
 * the socket's remote address, or with `trustProxy` the first `X-Forwarded-For` address.
 */
export function clientAddress(request: HandlerRequest): string | undefined {
  return request.clientAddress;
}
