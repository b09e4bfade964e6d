// What the server knows about each request while it runs, for its access log line: its id
// (the client's X-Request-Id when it is a sensible one, else a new UUID, echoed back), when it
// started, and who it turned out to be. Kept on node's request under a symbol of this module, so
// that the authentication hook, deep in the API handler, can say who the user is. (An
// AsyncLocalStorage would do it too, for about a third of the CPU a 304 takes; a WeakMap keyed
// by the request cost about 1.3 µs of a 304's 25, most of it in the collector's ephemerons:
// `node bench/scratch/overhead-driver.mjs cli`.)
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger';

export interface RequestContext {
  readonly id: string;
  readonly started: number;
  /** The authenticated user's id, once known. */
  userId?: number;
}

const CONTEXT = Symbol('evcal request context');
type Served = IncomingMessage & { [CONTEXT]?: RequestContext };

/** What the access log knows of a request being served, if it is one. */
export function requestContextOf(req: IncomingMessage): RequestContext | undefined {
  return (req as Served)[CONTEXT];
}

export interface AccessLogOptions {
  readonly logger: Logger;
  /** Trust X-Forwarded-For for the logged address (the last entry). */
  readonly trustProxy: boolean;
}

/** What the line of a request served needs once its response closes (kept on its context: no closure per request). */
interface Logged extends RequestContext {
  readonly logger: Logger;
  readonly trustProxy: boolean;
}

/**
 * Wraps a request listener: gives each request its id (for the `X-Request-Id` response header,
 * which the listener sends: see `requestIdHeader`), keeps its context, and logs one line when
 * the response is sent or the client goes away (`status` 499 then).
 */
export function withAccessLog(
  listener: (req: IncomingMessage, res: ServerResponse) => void, options: AccessLogOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { logger, trustProxy } = options;
  // The level is fixed: below info (`--log-level warn`), no line is written and nothing is kept for one.
  const logsRequests = logger.enabled('info');
  const logsStarts = logger.enabled('debug');
  return (req, res) => {
    const id = requestIdOf(req.headers['x-request-id']);
    const started = performance.now();
    if (logsStarts || logsRequests) {
      const context: Logged = { id, started, logger, trustProxy };
      (req as Served)[CONTEXT] = context;
      if (logsStarts) logger.debug('request started', requestFields(req, context));
      // One function for every response (it finds its request on `res.req`): nothing made per
      // request. `on`, not `once`: a response closes once, and `once` makes a wrapper each time.
      res.on('close', logClosed);
    } else {
      (req as Served)[CONTEXT] = { id, started };
    }
    listener(req, res);
  };
}

/** The line of a request whose response has closed. */
function logClosed(this: ServerResponse): void {
  const context = requestContextOf(this.req) as Logged;
  context.logger.info('request', requestFields(this.req, context, this));
}

/**
 * The fields of a request's line: who asked for what, and once its response has closed (`closed`),
 * how it ended. Without `closed` (the `request started` line, debug) those are undefined, which a
 * line leaves out.
 */
function requestFields(req: IncomingMessage, context: Logged, closed?: ServerResponse): Record<string, unknown> {
  return {
    request_id: context.id, method: req.method, path: redactedPath(req.url ?? '/'), address: addressOf(req, context.trustProxy),
    status: closed && (closed.writableFinished ? closed.statusCode : 499),
    duration_ms: closed && Math.round((performance.now() - context.started) * 10) / 10,
    user_id: closed && (context.userId ?? null),
  };
}

/** The `X-Request-Id` header of a request served under `withAccessLog` (for `toNodeHandler`'s `headers`). */
export function requestIdHeader(req: IncomingMessage): Readonly<Record<string, string>> | undefined {
  const context = requestContextOf(req);
  return context && { 'x-request-id': context.id };
}

/** Query parameters whose values are secrets: replaced in logged paths. */
const SECRET_PARAMS = /^(access_token|token|auth|authorization|password|pass|pwd|secret|api_key|apikey|key|_wpnonce|signature|code)$/i;

/** Anything in a query that could name a secret parameter, encoded or not; most queries have none. */
const MAYBE_SECRET = /token|auth|pass|pwd|secret|key|nonce|signature|code|%|\+/i;

/** The path and query of a request URL with the values of secret parameters replaced. */
export function redactedPath(url: string): string {
  const q = url.indexOf('?');
  if (q < 0 || !MAYBE_SECRET.test(url.slice(q + 1))) return url;
  const params = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // Kept as sent.
    }
    // `a[password]` is the parameter `password` to PHP-style parsers.
    const base = decoded.replace(/\[.*$/, '');
    return eq >= 0 && SECRET_PARAMS.test(base) ? `${name}=REDACTED` : pair;
  });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

/** A client's request id when it is one (1 to 128 visible characters of a safe set), else a new one. */
function requestIdOf(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && /^[A-Za-z0-9._:@/+=-]{1,128}$/.test(given) ? given : randomUUID();
}

function addressOf(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').at(-1)?.trim();
  return last || req.socket.remoteAddress;
}
