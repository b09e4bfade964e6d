// The handler's answer before it is written anywhere: status, headers and body as plain
// values. Bridges write it to their transport as it is (toNodeHandler to a node response);
// a web `Response` is made of it only for callers that want one (the fetch handler).
import type { HandlerRequest } from './handler-request';

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

/** evcal's handler: a request in, its answer out. */
export type WireHandler = (request: HandlerRequest) => Promise<WireResponse>;

/** A web-standard fetch handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * evcal's handler as a web-standard fetch handler, and as itself (`handle`): bridges call
 * `handle` with the request they have and write its answer to their transport directly.
 */
export interface EvcalHandler extends FetchHandler {
  /** The same handler, for any request-like value, answering in wire form (no web Response). */
  readonly handle: WireHandler;
  /**
   * The answer when the handler has it at once, without waiting on anything (a 304 for a list
   * unchanged since it was last answered), else undefined: then `handle` answers. Bridges that
   * write to their transport synchronously (toNodeHandler) ask it first.
   */
  readonly answerNow?: (request: HandlerRequest) => WireResponse | undefined;
}

/** The fetch handler over a handler: its answers as web Responses. */
export function fetchHandlerOf(handle: WireHandler, answerNow?: (request: HandlerRequest) => WireResponse | undefined): EvcalHandler {
  const fetch = async (request: Request) => toResponse(answerNow?.(request) ?? await handle(request));
  return Object.assign(fetch, answerNow ? { handle, answerNow } : { handle });
}

/** A web Response of an answer. */
export function toResponse(w: WireResponse): Response {
  const body = w.body === null || typeof w.body === 'string' ? w.body
    : isPieces(w.body) ? new Blob(w.body as Uint8Array<ArrayBuffer>[]) : streamOf(w.body);
  return new Response(body, { status: w.status, headers: w.headers });
}

/** Whether a body is encoded pieces (a list) rather than chunks still to come (a feed). */
export function isPieces(body: readonly Uint8Array[] | AsyncIterable<string>): body is readonly Uint8Array[] {
  return Array.isArray(body);
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
