// The handler's answer before it is written anywhere: status, headers and body as plain
// values, the body already encoded (UTF-8 bytes) by the one encoder here. Bridges write it to
// their transport as it is (toNodeHandler to a node response, through node-writer.ts); a web
// `Response` is made of it only for callers that want one (the fetch door).
import type { HandlerRequest } from './handler-request';

export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body: encoded pieces, sent one after the other (evcal's handler answers every JSON
   * body so: `jsonBody`, or a list joined from its items' kept bytes); null for none (HEAD,
   * 204, 304); or text in chunks, sent as they come (an iCalendar feed), read once. A chunk
   * that fails cuts the response: the client sees it end early rather than complete. Text
   * (`string`) is accepted from other handlers and encoded as UTF-8 when written.
   */
  readonly body: string | readonly Uint8Array[] | AsyncIterable<string> | null;
}

/** An answer at once (a remembered one), or one still to come. */
export type WireAnswer = WireResponse | Promise<WireResponse>;

/** evcal's handler: a request in, its answer out. */
export type WireHandler = (request: HandlerRequest) => Promise<WireResponse>;

/** A web-standard fetch handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * evcal's handler as a web-standard fetch handler, and as itself: bridges call `answer` with
 * the request they have and write its answer to their transport directly.
 */
export interface EvcalHandler extends FetchHandler {
  /**
   * The one way in: the request's answer, given at once where the handler has it without
   * waiting on anything (a list or read remembered and unchanged since, where the storage
   * reads its change counter at once), else a promise of it. Bridges that write to their
   * transport synchronously (toNodeHandler) write an answer given at once in the same turn.
   */
  readonly answer: (request: HandlerRequest) => WireAnswer;
  /** `answer`, always as a promise. */
  readonly handle: WireHandler;
  /**
   * @deprecated `answer` gives an answer at once where there is one. Not set on evcal's
   * handlers any more; a bridge that asks it must call `handle` when it gives nothing.
   */
  readonly answerNow?: (request: HandlerRequest) => WireResponse | undefined;
}

/**
 * The fetch handler over a handler (`answer`: an answer at once or a promise of it): its
 * answers as web Responses. `answerNow`, the older form of an answer at once, is asked first
 * when given.
 */
export function fetchHandlerOf(
  answer: (request: HandlerRequest) => WireAnswer, answerNow?: (request: HandlerRequest) => WireResponse | undefined,
): EvcalHandler {
  const one = answerNow ? (request: HandlerRequest): WireAnswer => answerNow(request) ?? answer(request) : answer;
  const handle = async (request: HandlerRequest) => one(request);
  const fetch = async (request: Request) => toResponse(await one(request));
  return Object.assign(fetch, { answer: one, handle });
}

/** Whether an answer is still to come. */
export function isPending<T extends object>(answer: T | PromiseLike<T>): answer is PromiseLike<T> {
  return typeof (answer as Partial<PromiseLike<T>>).then === 'function';
}

const utf8 = new TextEncoder();

/** The one encoding of a JSON body: its text as UTF-8, one piece. */
export function jsonBody(value: unknown): readonly Uint8Array[] {
  return [utf8.encode(JSON.stringify(value))];
}

/** Text already serialised (a kept answer's JSON), encoded as every body is. */
export function textBody(text: string): readonly Uint8Array[] {
  return [utf8.encode(text)];
}

/** A web Response of an answer. */
export function toResponse(w: WireResponse): Response {
  const body = w.body === null || typeof w.body === 'string' ? w.body
    : isPieces(w.body) ? (w.body.length === 1 ? w.body[0] as Uint8Array<ArrayBuffer> : new Blob(w.body as Uint8Array<ArrayBuffer>[])) : streamOf(w.body);
  return new Response(body, { status: w.status, headers: w.headers });
}

/** Whether a body is encoded pieces (a list) rather than chunks still to come (a feed). */
export function isPieces(body: readonly Uint8Array[] | AsyncIterable<string>): body is readonly Uint8Array[] {
  return Array.isArray(body);
}

/** A web stream of UTF-8 bytes read from the chunks on demand; cancelling it stops them. */
function streamOf(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(utf8.encode(value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
