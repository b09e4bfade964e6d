// A response before it becomes a web `Response`. The fetch handler builds this, and bridges
// that write to something else than a web stream (node:http) take it as it is: a web Response
// would have them copy the body into a stream and read it back out for nothing.
import type { FetchHandler } from './fetch-handler';

export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body: JSON text, or UTF-8 pieces to send one after the other (a list joined from its
   * items' cached texts); null for none (HEAD, 204, 304).
   */
  readonly body: string | readonly Uint8Array[] | null;
}

/**
 * The handler behind a fetch handler, answering in wire form. `signal` tells that the client
 * went away (default: the request's own signal); a bridge that watches its connection itself
 * passes it here instead of making the web Request follow it, which costs more than the rest
 * of building the Request.
 */
export type WireHandler = (request: Request, signal?: AbortSignal) => Promise<WireResponse>;

const WIRE = Symbol.for('evcal.http.wire');

/** A fetch handler over a wire handler, which bridges can reach with `wireOf`. */
export function fetchHandlerOf(wire: WireHandler): FetchHandler {
  const handler: FetchHandler = async (request) => {
    const w = await wire(request);
    return new Response(typeof w.body === 'string' || w.body === null ? w.body : new Blob(w.body as Uint8Array<ArrayBuffer>[]), { status: w.status, headers: w.headers });
  };
  return Object.assign(handler, { [WIRE]: wire });
}

/** The wire handler behind a fetch handler made by evcal, if it is one. */
export function wireOf(handler: FetchHandler): WireHandler | undefined {
  return (handler as { [WIRE]?: WireHandler })[WIRE];
}
