// The one writer of the node bridge (toNodeHandler): every answer, evcal's or another fetch
// handler's made into one (`wireOfResponse`), is written to node's response here: one
// `writeHead` with every header, its body's length when known, and the body in one system
// call (the socket corked), or chunk by chunk as a feed's chunks come.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isPieces, type WireResponse } from './wire-response';

/** Headers as node's `writeHead` takes them: a repeated header (Set-Cookie) as a list. */
type NodeHeaders = OutgoingHttpHeaders;

/** An answer as the writer takes it: a web Response's may repeat headers. */
export interface NodeAnswer extends Omit<WireResponse, 'headers'> {
  readonly headers: Readonly<NodeHeaders>;
}

/** Writes an answer, with `extra` headers of the bridge's own (a request id); resolves once written. */
export function writeAnswer(w: NodeAnswer, res: ServerResponse, extra: Readonly<Record<string, string>> | undefined): void | Promise<void> {
  const body = w.body;
  if (body === null) {
    res.writeHead(w.status, extra === undefined ? w.headers : withHeaders(w.headers, extra));
    res.end();
    return;
  }
  if (typeof body === 'string' || isPieces(body)) {
    const pieces = typeof body === 'string' ? [Buffer.from(body, 'utf8')] : body;
    let length = 0;
    for (const piece of pieces) length += piece.byteLength;
    // The answer's headers, the bridge's and the length copied once into the one writeHead.
    const headers = withHeaders(w.headers, extra);
    headers['content-length'] = length;
    res.writeHead(w.status, headers);
    if (pieces.length === 1) {
      res.end(pieces[0]);
      return;
    }
    // Pieces already encoded: written as they are, in one system call.
    res.cork();
    for (const piece of pieces) res.write(piece);
    res.end();
    return;
  }
  res.writeHead(w.status, extra === undefined ? w.headers : withHeaders(w.headers, extra));
  return writeChunks(body, res);
}

/** A web Response (of a fetch handler that is not evcal's) as an answer: its body read whole, its headers as sent. */
export async function wireOfResponse(response: Response): Promise<NodeAnswer> {
  const headers: NodeHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = response.body === null ? null : [new Uint8Array(await response.arrayBuffer())];
  return { status: response.status, headers, body };
}

/**
 * `headers` with `more` added, copied name by name into a new object. V8 takes a slow path for
 * an object spread that adds names (`{ ...headers, name: value }`): one more header that way cost
 * a bare node:http server about 3 µs of the 11 a 304 takes, copied this way 0.5 µs
 * (`node bench/scratch/overhead-driver.mjs plain plain-id plain-loop`, Node 20).
 */
function withHeaders(headers: Readonly<NodeHeaders>, more: Readonly<NodeHeaders> | undefined): NodeHeaders {
  const out: NodeHeaders = {};
  for (const name in headers) out[name] = headers[name];
  for (const name in more) out[name] = more[name];
  return out;
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
