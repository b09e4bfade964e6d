// What evcal's handler reads of a request. A web `Request` is one as it is; the node bridge
// makes one straight from node's request, because building a web Request (URL, Headers,
// undici's checks) costs more than answering a 304 does.

/** Request headers, read by name (case-insensitive). */
export interface HeaderReader {
  get(name: string): string | null;
  has(name: string): boolean;
}

/** A request as evcal's handler, and the hooks it calls (`authenticate`, `rateLimit`…), read it. */
export interface HandlerRequest {
  /** The method as sent (upper case for every method node:http parses). */
  readonly method: string;
  /** The absolute URL: origin, path and query. */
  readonly url: string;
  readonly headers: HeaderReader;
  /** The body as a web stream, or null when there is none. */
  readonly body: ReadableStream<Uint8Array> | null;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /**
   * The client's address, where the bridge knows it: the socket's remote address, or with
   * `trustProxy` the first `X-Forwarded-For` address. A web `Request` carries none.
   */
  readonly clientAddress?: string;
}
