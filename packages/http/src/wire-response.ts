// A response before it becomes a web `Response`. The fetch handler builds this, and bridges
// that write to something else than a web stream (node:http) take it as it is: a web Response
// would have them copy the body into a stream and read it back out for nothing.
import type { FetchHandler } from './fetch-handler';

export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body: JSON text, or UTF-8 pieces to send one after the other (a list joined from its
   * items' cached texts); null for none (HEAD, 204, 304); or text in chunks, sent as they come
   * (an iCalendar feed), read once. A chunk that fails cuts the response: the client sees it
   * end early rather than complete.
   */
  readonly body: string | readonly Uint8Array[] | AsyncIterable<string> | null;
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
    const body = w.body === null || typeof w.body === 'string' ? w.body
      : isPieces(w.body) ? new Blob(w.body as Uint8Array<ArrayBuffer>[]) : streamOf(w.body);
    return new Response(body, { status: w.status, headers: w.headers });
  };
  return Object.assign(handler, { [WIRE]: wire });
}

/** Whether a body is encoded pieces (a list) rather than chunks still to come (a feed). */
export function isPieces(body: readonly Uint8Array[] | AsyncIterable<string>): body is readonly Uint8Array[] {
  return Array.isArray(body);
}

/** The wire handler behind a fetch handler made by evcal, if it is one. */
export function wireOf(handler: FetchHandler): WireHandler | undefined {
  return (handler as { [WIRE]?: WireHandler })[WIRE];
}

/** A web stream of UTF-8 bytes read from the chunks on demand; cancelling it stops them. */
function streamOf(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
