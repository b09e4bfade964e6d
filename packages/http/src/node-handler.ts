// toNodeHandler: the fetch handler as a node:http / Express / Connect request listener.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerRequest, HeaderReader } from './handler-request';
import { writeAnswer, wireOfResponse, type NodeAnswer } from './node-writer';
import { isPending, type EvcalHandler, type FetchHandler, type WireAnswer } from './wire-response';

/** What node:http, Express and Connect pass a request handler. */
export type NodeHandler = (req: IncomingMessage & { body?: unknown; originalUrl?: string }, res: ServerResponse, next?: (error?: unknown) => void) => void;

export interface NodeHandlerOptions {
  /**
   * Trust `X-Forwarded-Proto` and `X-Forwarded-Host` for the request's origin, and
   * `X-Forwarded-For` for the client address (behind one proxy you control): its last entry,
   * the address the proxy saw, as proxies append to what the client sent.
   * @default false
   */
  readonly trustProxy?: boolean;
  /**
   * The public origin of the site (`https://cal.example.org`): every request's URL is built
   * on it, whatever the Host header (or, with `trustProxy`, X-Forwarded-Proto and -Host)
   * says, so the URLs in answers name the public address behind any proxy.
   * @default the origin the request names
   */
  readonly origin?: string;
  /**
   * Headers added to every answer of the handler (a request id, say), given node's request.
   * They go into the one `writeHead` of the answer: a header set with `res.setHeader` before
   * the handler runs makes node merge every other header one by one (a few µs a request).
   */
  readonly headers?: (req: IncomingMessage) => Readonly<Record<string, string>> | undefined;
}

/**
 * Adapts a fetch handler. The request URL is rebuilt from `originalUrl` (Express keeps the
 * mount path there), so absolute URLs in responses are right under any mount. A body another
 * middleware already read (`req.body`, e.g. from `express.json()`) is used as is; otherwise
 * the body is streamed, and the handler's size cap applies. A client that disconnects aborts
 * the request's signal.
 *
 * evcal's handlers (those with `answer`) are called with the request as node gave it (a
 * `HandlerRequest` over its headers, no web Request); an answer they give at once (a
 * remembered one) is written in the turn the request arrived in. Any other fetch handler gets a
 * web Request, and its Response is made into an answer. Every answer is written by the one
 * writer (node-writer.ts).
 */
export function toNodeHandler(handler: FetchHandler | EvcalHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const answer = 'answer' in handler ? handler.answer : legacyAnswer(handler);
  const extra = options.headers;
  return (req, res, next) => {
    const request = new NodeRequest(req, res, options);
    const fail = (error: unknown) => {
      if (request.gone) return;
      if (next) next(error);
      else {
        res.statusCode = 500;
        if (!res.headersSent) for (const [name, value] of Object.entries(headersOrNone(extra, req))) res.setHeader(name, value);
        res.end();
      }
    };
    const write = (w: NodeAnswer) => {
      const written = writeAnswer(w, res, extra?.(req));
      if (written !== undefined) return written.then(drainBody);
      drainBody();
      return undefined;
    };
    const drainBody = () => {
      if (request.read && !req.readableEnded) request.read.drain();
    };
    let served: PromiseLike<void> | undefined;
    try {
      const w: NodeAnswer | PromiseLike<NodeAnswer> = answer ? answer(request) : handler(webRequest(request)).then(wireOfResponse);
      // An answer given at once is written in this turn; thrown here, an error would leave
      // node's request listener and end the process.
      served = isPending(w) ? w.then(write) : write(w);
    } catch (error) {
      fail(error);
      return;
    }
    served?.then(undefined, fail);
  };
}

/** A handler of the older form (`handle`, and perhaps `answerNow`, without `answer`) as one way in; none for a plain fetch handler. */
function legacyAnswer(handler: FetchHandler | EvcalHandler): ((request: HandlerRequest) => WireAnswer) | undefined {
  if (!('handle' in handler)) return undefined;
  const { handle, answerNow } = handler as Pick<EvcalHandler, 'handle' | 'answerNow'>;
  return answerNow ? (request) => answerNow(request) ?? handle(request) : handle;
}

/** The headers hook's headers for a failed request: none when the hook is what failed. */
function headersOrNone(extra: NodeHandlerOptions['headers'], req: IncomingMessage): Readonly<Record<string, string>> {
  try {
    return extra?.(req) ?? {};
  } catch {
    return {};
  }
}

/**
 * The node:http request a handler's request was made from by `toNodeHandler` (undefined for
 * any other): for hooks such as `authenticate` that keep state of their own per request (an
 * access log noting who the caller turned out to be) in a WeakMap keyed by it.
 */
export function incomingMessageOf(request: HandlerRequest): IncomingMessage | undefined {
  return request instanceof NodeRequest ? request.incoming : undefined;
}

type NodeRequestIn = IncomingMessage & { body?: unknown; originalUrl?: string };

/** Node's request as evcal's handler reads it: its header object read in place, its body streamed when asked for. */
class NodeRequest implements HandlerRequest {
  readonly method: string;
  readonly url: string;
  headers: HeaderReader;
  readonly clientAddress: string | undefined;
  /** The streamed body, once asked for. */
  read: NodeBody | undefined;
  private parsedBody: BodyInit | undefined;
  private abort: AbortController | undefined;

  /** The request as node gave it. */
  get incoming(): IncomingMessage {
    return this.req;
  }

  constructor(private readonly req: NodeRequestIn, private readonly res: ServerResponse, options: NodeHandlerOptions) {
    const forwarded = (name: string) => (options.trustProxy ? firstValue(req.headers[name]) : undefined);
    const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
    const protocol = forwarded('x-forwarded-proto') ?? (encrypted ? 'https' : 'http');
    const host = forwarded('x-forwarded-host') ?? req.headers.host ?? 'localhost';
    const target = req.originalUrl ?? req.url ?? '/';
    // An absolute-form target (`GET http://host/path`) is already a URL.
    const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
    const path = absolute ? '' : `${target.startsWith('/') ? '' : '/'}${target}`;
    if (options.origin === undefined) this.url = absolute ? target : `${protocol}://${host}${path}`;
    else this.url = `${options.origin}${absolute ? target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/' : path}`;
    this.method = (req.method ?? 'GET').toUpperCase();
    this.headers = nodeHeaders(req.headers);
    this.clientAddress = (options.trustProxy ? lastValue(req.headers['x-forwarded-for']) : undefined) ?? req.socket.remoteAddress;
  }

  /**
   * Aborted when the client goes away before the answer is written. Made when first asked for
   * (most answers never look): a response already closed by then aborts it at once.
   */
  get signal(): AbortSignal {
    if (!this.abort) {
      const abort = (this.abort = new AbortController());
      if (this.gone) abort.abort();
      else this.res.once('close', () => {
        if (!this.res.writableFinished) abort.abort();
      });
    }
    return this.abort.signal;
  }

  /** Whether the client went away before the answer was written. */
  get gone(): boolean {
    return this.res.closed && !this.res.writableFinished;
  }

  /** The body: one another middleware parsed (as bytes or JSON), or the request stream itself. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.method === 'GET' || this.method === 'HEAD') return null;
    const parsed = this.parsed();
    if (parsed !== undefined) return new Response(parsed).body;
    this.read ??= nodeBody(this.req);
    return this.read.stream;
  }

  /**
   * A body a parser has consumed, as the bytes to read instead (an object parsed from JSON or
   * an extended urlencoded form goes on as JSON). Only a body whose stream was read counts:
   * body-parser 1 sets `req.body = {}` on requests it skips, and their stream must still be read.
   */
  parsed(): BodyInit | undefined {
    if (this.parsedBody !== undefined) return this.parsedBody;
    const parsed = this.req.readableEnded ? this.req.body : undefined;
    if (parsed === undefined || parsed === null) return undefined;
    if (typeof parsed === 'string') return (this.parsedBody = parsed);
    if (parsed instanceof Uint8Array) return (this.parsedBody = Buffer.from(parsed));
    if (typeof parsed === 'object') {
      this.headers = overriding(this.headers, { 'content-type': 'application/json', 'content-length': null });
      return (this.parsedBody = JSON.stringify(parsed));
    }
    return undefined;
  }
}

/** Node's header object (names already lower case) as a HeaderReader; repeated headers are joined as a web Headers joins them. */
function nodeHeaders(headers: IncomingHttpHeaders): HeaderReader {
  const value = (name: string): string | null => {
    const v = headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
  return { get: value, has: (name) => value(name) !== null };
}

/** Headers with some replaced (a string) or removed (null). */
function overriding(headers: HeaderReader, changes: Readonly<Record<string, string | null>>): HeaderReader {
  const value = (name: string): string | null => {
    const lower = name.toLowerCase();
    return lower in changes ? changes[lower]! : headers.get(lower);
  };
  return { get: value, has: (name) => value(name) !== null };
}

/** A web Request of the node request, for fetch handlers that are not evcal's. */
function webRequest(request: NodeRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request['req'].headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers, signal: request.signal };
  const body = request.body;
  if (body) {
    if (request.parsed() !== undefined) {
      headers.set('content-type', 'application/json');
      headers.delete('content-length');
    }
    init.body = body;
    init.duplex = 'half';
  }
  return new Request(request.url, init);
}

/** Bytes of a refused body still read and discarded so the connection stays usable; beyond, it is cut. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

interface NodeBody {
  readonly stream: ReadableStream<Uint8Array>;
  /** Stops delivering the body and discards the rest (idempotent). */
  drain(): void;
}

/**
 * The request body as a web stream, read on demand. When the handler does not read it to the
 * end (a body over its size cap, refused by its declared length or while streaming) the rest
 * is drained instead of destroying the socket, so the client gets the 413 and can reuse the
 * connection; a body longer than DRAIN_LIMIT is cut.
 */
function nodeBody(req: IncomingMessage): NodeBody {
  let draining = false;
  const drain = () => {
    if (draining) return;
    draining = true;
    req.removeAllListeners('data');
    let drained = 0;
    req.on('data', (chunk: Buffer) => {
      drained += chunk.byteLength;
      if (drained > DRAIN_LIMIT) req.destroy();
    });
    req.resume();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => {
        if (!draining) controller.close();
      });
      // A client that goes away mid-upload: node ends the request with an error ("aborted").
      req.once('error', (error) => {
        if (!draining) controller.error(error);
      });
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel: drain,
  });
  return { stream, drain };
}

/** The last entry of a list header: the one the nearest proxy added (entries before it are the client's to forge). */
function lastValue(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v.join(',') : v;
  return s?.split(',').at(-1)?.trim() || undefined;
}

function firstValue(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s?.split(',')[0]?.trim() || undefined;
}
