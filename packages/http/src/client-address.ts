// The address of the client behind a request. A web `Request` does not carry it, so the
// bridges that know it (toNodeHandler) record it here for the rate limiter and for apps.

const addresses = new WeakMap<Request, string>();

/** Records the client address of a request (for bridges). */
export function setClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

/**
 * The client's address, when the request came through a bridge that knows it: the socket's
 * remote address, or with `trustProxy` the last `X-Forwarded-For` address (the one the proxy saw).
 */
export function clientAddress(request: Request): string | undefined {
  return addresses.get(request);
}
