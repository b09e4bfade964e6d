// toNodeHandler: the fetch handler as a node:http / Express / Connect request listener.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setClientAddress } from './client-address';
import type { FetchHandler } from './fetch-handler';
import { isPieces, wireOf, type WireResponse } from './wire-response';

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
}

/**
 * Adapts a fetch handler. The request URL is rebuilt from `originalUrl` (Express keeps the
 * mount path there), so absolute URLs in responses are right under any mount. A body another
 * middleware already read (`req.body`, e.g. from `express.json()`) is used as is; otherwise
 * the body is streamed, and the handler's size cap applies. A client that disconnects aborts
 * the request (the `Request`'s signal; evcal's own handler gets the signal beside it). evcal's
 * handlers' answers are written directly, other handlers' through their web `Response`.
 */
export function toNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeHandler {
  // evcal's own handlers answer in wire form too: written as is, without a web Response between.
  const wire = wireOf(handler);
  return (req, res, next) => {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    // evcal's handler takes the signal beside the request; any other handler finds it on it.
    const { request, body } = toRequest(req, wire ? undefined : abort.signal, options);
    const served = wire
      ? wire(request, abort.signal).then((w) => writeWire(w, res))
      : handler(request).then((response) => writeResponse(response, res));
    served
      .then(() => {
        if (body && !req.readableEnded) body.drain();
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        if (next) next(error);
        else {
          res.statusCode = 500;
          res.end();
        }
      });
  };
}

function toRequest(
  req: IncomingMessage & { body?: unknown; originalUrl?: string }, signal: AbortSignal | undefined, options: NodeHandlerOptions,
): { request: Request; body?: NodeBody } {
  const forwarded = (name: string) => (options.trustProxy ? firstValue(req.headers[name]) : undefined);
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const protocol = forwarded('x-forwarded-proto') ?? (encrypted ? 'https' : 'http');
  const host = forwarded('x-forwarded-host') ?? req.headers.host ?? 'localhost';
  const url = new URL(req.originalUrl ?? req.url ?? '/', `${protocol}://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const init: RequestInit & { duplex?: 'half' } = { method, headers, ...(signal ? { signal } : {}) };
  let body: NodeBody | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    // Only a body whose stream a parser has consumed counts as parsed: body-parser 1 sets
    // `req.body = {}` on requests it skips, and their stream must still be read here.
    const parsed = req.readableEnded ? req.body : undefined;
    if (parsed !== undefined && (typeof parsed === 'string' || parsed instanceof Uint8Array)) {
      init.body = typeof parsed === 'string' ? parsed : Buffer.from(parsed);
    } else if (parsed !== undefined && parsed !== null && typeof parsed === 'object') {
      // Already parsed by another middleware (JSON or an extended urlencoded parser): pass the values on as JSON.
      headers.set('content-type', 'application/json');
      headers.delete('content-length');
      init.body = JSON.stringify(parsed);
    } else {
      body = nodeBody(req);
      init.body = body.stream;
      init.duplex = 'half';
    }
  }
  const request = new Request(url, init);
  const forwardedFor = options.trustProxy ? lastValue(req.headers['x-forwarded-for']) : undefined;
  setClientAddress(request, forwardedFor ?? req.socket.remoteAddress);
  return { request, ...(body ? { body } : {}) };
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

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  const body = new Uint8Array(await response.arrayBuffer());
  res.setHeader('content-length', body.byteLength);
  res.end(body);
}

async function writeWire(w: WireResponse, res: ServerResponse): Promise<void> {
  if (w.body === null) {
    res.writeHead(w.status, w.headers);
    res.end();
    return;
  }
  if (typeof w.body === 'string') {
    // Encoded once: its length and the bytes written.
    const bytes = Buffer.from(w.body, 'utf8');
    res.writeHead(w.status, { ...w.headers, 'content-length': bytes.byteLength });
    res.end(bytes);
    return;
  }
  if (!isPieces(w.body)) {
    res.writeHead(w.status, w.headers);
    await writeChunks(w.body, res);
    return;
  }
  // Pieces already encoded: written as they are, in one system call (the socket is corked).
  const pieces = w.body;
  res.writeHead(w.status, { ...w.headers, 'content-length': pieces.reduce((n, p) => n + p.byteLength, 0) });
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.end();
}

/**
 * Writes chunks as they come (chunked encoding), waiting for the socket to drain whenever it
 * buffers, and stops reading them when the client goes away. A chunk that fails destroys the
 * response, so the client sees it cut short instead of complete (the handler reported the error).
 */
async function writeChunks(chunks: AsyncIterable<string>, res: ServerResponse): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (res.destroyed) {
        await iterator.return?.();
        return;
      }
      const { done, value } = await iterator.next();
      if (done) break;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** Resolves when the response can take more, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
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
