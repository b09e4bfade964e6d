// `evcal serve`: the calendar over HTTP as a standalone server, with what operators need
// around it: accounts from the storage, /healthz and /readyz, an access log with request ids,
// and a graceful stop.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import {
  createAccounts, createCalendar, createWebhookDispatcher, DEFAULT_ROLES, describeNextAttempt, formatWall, instantToWall, isStorageFault, MAX_ID,
  type Principal, type WebhookDispatcher,
} from '@evcal/core';
import {
  accountCredentials, anonymousWithoutAuthorization, createFetchHandler, createLanguageHandler, createWebhookSender, lookupAddresses,
  memoryCredentialFailureLimit, memoryRateLimit, weakSecret,
  type Authenticate, type FetchHandlerOptions, type HandlerRequest,
} from '@evcal/http';
import { incomingMessageOf, toNodeHandler } from '@evcal/http/node';
import { asBulkLoad } from './bulk-load';
import { requestContextOf, requestIdHeader, withAccessLog, type RequestContext } from './access-log';
import { ensureDemoAdministrator, type DemoAdministrator } from './demo-account';
import { healthRoutes } from './health';
import { createLogger, errorFields, type Logger } from './logger';
import { DEFAULT_STORAGE, openStorage } from './storage-url';
import { createSitePages, isSitePath } from './web/site-pages';

export interface ServeOptions {
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** 0 picks a free port. @default 8080 */
  readonly port?: number;
  /** A storage URL: `memory`, `json:<file>`, `sqlite:<file>`, `postgres://…`. @default 'sqlite:./data/evcal.db' */
  readonly storage?: string;
  /** The site time zone. @default 'UTC' */
  readonly timezone?: string;
  /** Fixed bearer-token users (tests and demos), besides the accounts kept in the storage. */
  readonly users?: readonly ServeUser[];
  /** A dataset file loaded before listening. */
  readonly seed?: string;
  /** A dataset object loaded before listening (after `seed`) when the calendar is still empty. */
  readonly dataset?: unknown;
  /**
   * When the storage has no administrator, make one (`admin`) with a bearer token, kept in the
   * storage like any account; `RunningServer.demoAdministrator` tells who it is, and the token
   * when it was made by this start (`--demo`). @default false
   */
  readonly demoAdministrator?: boolean;
  readonly defaultPerPage?: number;
  readonly maxPerPage?: number;
  /** Freeze the clock at this instant. */
  readonly now?: Date;
  /** Origins allowed to call the API from a browser (`'*'` for any). @default none: CORS off */
  readonly corsOrigins?: readonly string[];
  /** Requests per minute allowed per client (user, else address). @default unlimited */
  readonly rateLimit?: number;
  /**
   * Languages served: the first at `/cal/events/v1`, each at `/<language>/cal/events/v1`.
   * @default ['en'], without language addresses
   */
  readonly languages?: readonly string[];
  /** Refuse changes to existing records without `If-Match` (428). @default false */
  readonly requireIfMatch?: boolean;
  /** Where the API is mounted, before the namespace (`/wp-json` for the reference's layout). @default '' */
  readonly basePath?: string;
  /** The namespace of the routes (`tribe/events/v1` for the reference's layout). @default 'cal/events/v1' */
  readonly namespace?: string;
  /** Behind one reverse proxy: client addresses and URLs from its X-Forwarded-* headers. @default false */
  readonly trustProxy?: boolean;
  /**
   * The public origin (`https://cal.example.org`): every URL the server writes (API links,
   * pages, canonical addresses, the sitemap, feeds) is built on it, whatever the request's
   * Host (or X-Forwarded-*) says. @default the origin each request names
   */
  readonly siteUrl?: string;
  /** Where logs go (JSON lines). @default a logger at level info on stdout (asynchronous: logger.ts) */
  readonly logger?: Logger;
  /** How long requests in flight may take to finish once the server is asked to stop. @default 10000 */
  readonly shutdownTimeoutMs?: number;
  /** Days the change log keeps entries and tombstones (docs/sync.md). @default 30 */
  readonly changeRetentionDays?: number;
  /** Seconds the answer of a write sent with an Idempotency-Key is kept (docs/http.md, "Retries"). @default 86400 */
  readonly idempotencyTtlSeconds?: number;
  /** Webhook delivery (docs/webhooks.md): the server sends what the outbox holds. */
  readonly webhooks?: ServeWebhookOptions;
  /** How long a slow or idle client may hold a connection. */
  readonly timeouts?: ServeTimeouts;
}

/**
 * Bounds on what a client may take of a connection, so that a slow or idle one cannot hold a
 * socket for minutes (node's own defaults: 60 s for headers, 300 s for a request, no idle limit).
 */
export interface ServeTimeouts {
  /** Until the request's headers have arrived; then 408 and closed. @default 10000 */
  readonly headersMs?: number;
  /** Until the whole request (headers and body) has arrived; then 408 and closed. Answers may take longer. @default 30000 */
  readonly requestMs?: number;
  /** A kept-alive connection waiting for its next request. @default 5000 */
  readonly keepAliveMs?: number;
  /** A connection on which nothing was sent or received. @default 60000 */
  readonly idleMs?: number;
}

export interface ServeWebhookOptions {
  /** An attempt without an answer after this long fails. @default 10000 */
  readonly timeoutMs?: number;
  /** Delays before the retries, in ms. @default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h */
  readonly retrySchedule?: readonly number[];
  /** Accept endpoints on private, loopback and link-local addresses, and deliver to them. @default false */
  readonly allowPrivateAddresses?: boolean;
}

export interface ServeUser extends Principal {
  readonly token: string;
}

export interface RunningServer {
  /** The origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string;
  /** The API root, e.g. `http://127.0.0.1:8080/cal/events/v1`. */
  readonly apiRoot: string;
  /** The API root of each language served with `languages`, e.g. `{ de: 'http://…/de/cal/events/v1' }`. */
  readonly languageRoots: Readonly<Record<string, string>>;
  /** With `demoAdministrator`: the storage's administrator, and its token when this start made it. */
  readonly demoAdministrator?: DemoAdministrator;
  /**
   * Stops accepting connections, lets requests in flight finish (up to `shutdownTimeoutMs`,
   * then cuts them), then closes the storage. Called again while stopping, cuts at once.
   */
  close(): Promise<void>;
}

/** Starts the server; resolves once it listens. */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  const storage = await openStorage(options.storage ?? DEFAULT_STORAGE, {
    onConnectionError: (error) => logger.warn('storage connection lost', errorFields(error)),
  });
  let server: Server | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  try {
    const users = options.users ?? [];
    const allowPrivateAddresses = options.webhooks?.allowPrivateAddresses ?? false;
    const frozen = options.now?.getTime();
    // Token expiry follows the real clock, whatever the calendar's.
    const accounts = createAccounts({ storage });
    const calendar = createCalendar({
      storage,
      // Failures of work no request waits for (publishing, pruning, webhook delivery's loop).
      onError: backgroundErrors(logger),
      timezone: options.timezone ?? 'UTC',
      ...(frozen !== undefined ? { now: () => frozen } : {}),
      limits: { defaultPerPage: options.defaultPerPage ?? 10, maxPerPage: options.maxPerPage ?? 50 },
      // Read through the call's storage: inside a write, its transaction (SQLite's one connection).
      users: { exists: async (id, s) => users.some((u) => u.id === id) || (await s.users.get(id)) !== undefined },
      ...(options.changeRetentionDays !== undefined ? { changes: { retentionDays: options.changeRetentionDays } } : {}),
      ...(options.idempotencyTtlSeconds !== undefined ? { idempotency: { ttlSeconds: options.idempotencyTtlSeconds } } : {}),
      // POST /webhooks refuses what the sender below would refuse.
      webhooks: { allowPrivateAddresses, lookup: lookupAddresses },
    });
    // Loaded as a one-time bulk load (bulk-load.ts): what V8 learns from it would slow serving.
    const seed = options.seed;
    if (seed) await asBulkLoad(async () => calendar.importDataset(await readDataset(seed)));
    // The demo's administrator first: it is the author of the demo's records.
    const demoAdministrator = options.demoAdministrator ? await ensureDemoAdministrator(accounts) : undefined;
    if (options.dataset && (await storage.sequences.peek('post')) === 0) await asBulkLoad(() => calendar.importDataset(options.dataset));
    const basePath = options.basePath ?? '';
    const namespace = options.namespace ?? 'cal/events/v1';
    const authenticate = accountCredentials(accounts, { tokens: new Map(users.map((u) => [u.token, principalOf(u)])) });
    const handlerOptions: FetchHandlerOptions = {
      basePath,
      namespace,
      authenticate: noteUser(authenticate),
      credentialFailures: memoryCredentialFailureLimit(),
      onError: (error, request) => logger.error('unexpected error', { request_id: contextOf(request)?.id, ...errorFields(error) }),
      // What the storage said is the cause (a driver's message: "database or disk is full").
      onStorageFault: (error, request) => logger.warn(STORAGE_FAULT_LOG[error.code] ?? 'storage fault', {
        request_id: contextOf(request)?.id, code: error.code, cause: causeOf(error),
      }),
      ...(options.corsOrigins?.length
        ? { cors: { origins: options.corsOrigins.includes('*') ? '*' as const : options.corsOrigins } }
        : {}),
      ...(options.rateLimit ? { rateLimit: memoryRateLimit({ limit: options.rateLimit }) } : {}),
      ...(options.requireIfMatch ? { requireIfMatch: true } : {}),
    };
    const languages = options.languages ?? [];
    const handler = languages.length
      ? createLanguageHandler(calendar, { ...handlerOptions, languages })
      : createFetchHandler(calendar, handlerOptions);
    // Requests being served: counted, not kept in a Set. A Set churned by every request rehashes
    // its table every few requests, in the old generation where the Set lives: about 200 bytes
    // of old-generation garbage a request, which made every request pay for mark-compacts
    // (`node --trace-gc`; docs/performance.md, "A 304 within its turn").
    let inFlight = 0;
    let stopping = false;
    /** What every answer carries: its request id, and while stopping `Connection: close` (its connection is closed after it). */
    const answerHeaders = (req: IncomingMessage): Readonly<Record<string, string>> | undefined => {
      const id = requestIdHeader(req);
      return stopping ? { ...id, connection: 'close' } : id;
    };
    const publicOrigin = options.siteUrl === undefined ? {} : { origin: options.siteUrl.replace(/\/+$/, '') };
    const api = toNodeHandler(handler, { trustProxy: options.trustProxy === true, headers: answerHeaders, ...publicOrigin });
    const apiRoots = languages.length
      ? Object.fromEntries(languages.map((l, i) => [l.toLowerCase(), i === 0 ? `${basePath}/${namespace}` : `${basePath}/${l.toLowerCase()}/${namespace}`]))
      : { en: `${basePath}/${namespace}` };
    const pages = toNodeHandler(createSitePages({
      calendar,
      apiRoots,
      today: () => formatWall(instantToWall(calendar.config.now(), calendar.config.zone)).slice(0, 10),
      onError: (error) => logger.error('unexpected error in a page', errorFields(error)),
    }), { trustProxy: options.trustProxy === true, headers: answerHeaders, ...publicOrigin });
    // The API's addresses stay the API's, even where a page's address would match (a base path such as /event).
    const apiPrefixes = [`${basePath}/${namespace}`, ...languages.map((l) => `${basePath}/${l.toLowerCase()}/${namespace}`)].map((p) => p.toLowerCase());
    const isPage = (url: string) => isSitePath(url) && !apiPrefixes.some((p) => {
      const path = url.toLowerCase();
      return path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`);
    });
    const health = healthRoutes({ storage, logger, stopping: () => stopping });
    // One listener for every response (a response closes once): no closure made per request.
    function settled(): void {
      inFlight -= 1;
      // Its connection, kept alive, is idle now: while stopping, close it too.
      if (stopping) server?.closeIdleConnections();
    }
    const listener = withAccessLog((req: IncomingMessage, res: ServerResponse) => {
      inFlight += 1;
      res.on('close', settled);
      // A request that arrives on a kept-alive connection while stopping is still served, and its connection closed after.
      if (stopping) res.setHeader('connection', 'close');
      // `/`, `/docs`, the records' pages, the sitemap and their files are the pages (src/web); everything else is the API.
      if (health(req, res)) return;
      if (isPage(req.url ?? '/')) pages(req, res);
      else api(req, res);
    }, { logger, trustProxy: options.trustProxy === true });
    const timeouts = options.timeouts ?? {};
    const requestMs = timeouts.requestMs ?? 30_000;
    server = createServer({
      // node checks both every connectionsCheckingInterval (30 s unless told): a second here.
      headersTimeout: Math.min(timeouts.headersMs ?? 10_000, requestMs),
      requestTimeout: requestMs,
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
    }, listener);
    // A socket idle this long is destroyed (node's default 'timeout' handling).
    server.timeout = timeouts.idleMs ?? 60_000;
    // Series without an end are stored up to the recurrence horizon: moved along at start and
    // every hour, so that no request has to wait for it (docs/recurrence.md).
    await calendar.extendRecurrences().catch((error: unknown) => {
      // A storage that takes no writes now (full, read-only) still serves what it holds.
      if (!isStorageFault(error)) throw error;
      logger.warn('extending recurring events failed: the storage takes no writes now', { code: error.code, cause: causeOf(error) });
    });
    const horizon = setInterval(() => {
      calendar.extendRecurrences().catch((error: unknown) => logger.error('extending recurring events failed', errorFields(error)));
    }, 3_600_000);
    horizon.unref();
    await listen(server, options.port ?? 8080, options.host ?? '127.0.0.1');
    // Deliveries survive a crash in the outbox; a delivery claimed by a server that stopped is
    // taken over once its lease (twice the time-out, and a second) has run out.
    const timeoutMs = options.webhooks?.timeoutMs ?? 10_000;
    dispatcher = createWebhookDispatcher(calendar, {
      send: createWebhookSender({ timeoutMs, allowPrivateAddresses }),
      leaseMs: 2 * timeoutMs + 1_000,
      onError: (error) => logger.error('webhook delivery loop failed', errorFields(error)),
      // Every failed attempt, with why and what comes next: a delivery never fails unseen.
      onFailure: (f) => logger.warn('webhook delivery failed', {
        endpoint_id: f.endpointId, url: f.url, reason: f.reason, status: f.status, attempt: f.attempt, message_id: f.messageId,
        next_attempt: f.nextAttemptAt === null ? null : new Date(f.nextAttemptAt).toISOString(), then: describeNextAttempt(f),
      }),
      ...(options.webhooks?.retrySchedule ? { retrySchedule: options.webhooks.retrySchedule } : {}),
    });
    dispatcher.start();
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const origin = `http://${host}:${address.port}`;
    const running = server;
    let closing: Promise<void> | undefined;
    const sender = dispatcher;
    return {
      origin,
      apiRoot: `${origin}${basePath}/${namespace}`,
      languageRoots: Object.fromEntries(languages.map((l) => [l, `${origin}${basePath}/${l.toLowerCase()}/${namespace}`])),
      ...(demoAdministrator ? { demoAdministrator } : {}),
      close: () => {
        if (closing) {
          // Asked again: cut what is still running.
          running.closeAllConnections();
          return closing;
        }
        stopping = true;
        clearInterval(horizon);
        // Requests finish first; then deliveries under way, then the storage.
        closing = stopServer(running, () => inFlight, async () => {
          await sender.stop();
          await storage.close();
        }, logger, options.shutdownTimeoutMs ?? 10_000)
          // The log's last lines ("stopped") are written before the process may exit.
          .finally(() => logger.flush?.());
        return closing;
      },
    };
  } catch (error) {
    await dispatcher?.stop();
    if (server?.listening) server.close();
    await storage.close();
    throw error;
  }
}

/** The log line of each fault of the storage a request meets. */
const STORAGE_FAULT_LOG: Readonly<Record<string, string>> = {
  unavailable: 'storage unavailable',
  storage_full: 'storage full: the write was refused',
  read_only: 'storage read-only: the write was refused',
  outcome_unknown: 'storage connection lost during a commit: the write may or may not have been kept',
};

/**
 * Logs failures of background work: a fault of the storage (unreachable, full, read-only) at
 * warn, once a minute per kind, since the loops that meet it try again every few seconds;
 * anything else at error, with its stack.
 */
function backgroundErrors(logger: Logger): (error: unknown) => void {
  const lastLogged = new Map<string, number>();
  return (error) => {
    if (!isStorageFault(error)) {
      logger.error('background work failed', errorFields(error));
      return;
    }
    const now = Date.now();
    if (now - (lastLogged.get(error.code) ?? -Infinity) < 60_000) return;
    lastLogged.set(error.code, now);
    logger.warn('background work failed: the storage refused it (logged once a minute)', { code: error.code, cause: causeOf(error) });
  };
}

/** The driver's or the file system's message behind a storage error. */
function causeOf(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = 'code' in cause && cause.code ? String(cause.code) : undefined;
    return code && !cause.message.startsWith(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return cause === undefined ? error.message : String(cause);
}

/** Parses `id:role:token`. */
export function parseUser(spec: string): ServeUser {
  const m = /^(\d+):([a-z_]+):(\S+)$/.exec(spec);
  if (!m) throw new Error(`--user must be id:role:token, got "${spec}"`);
  if (Number(m[1]) < 1 || Number(m[1]) > MAX_ID) throw new Error(`--user ${spec}: the id must be between 1 and ${MAX_ID}`);
  const role = m[2]!;
  if (!(role in DEFAULT_ROLES)) throw new Error(`--user ${spec}: unknown role "${role}" (one of ${Object.keys(DEFAULT_ROLES).join(', ')})`);
  const weak = weakSecret(m[3]!);
  if (weak) throw new Error(`--user ${m[1]}:${role}:…: the token ${weak}`);
  return { id: Number(m[1]), role, token: m[3]! };
}

/** What the access log knows of the request the API handler is serving. */
function contextOf(request: HandlerRequest): RequestContext | undefined {
  const incoming = incomingMessageOf(request);
  return incoming && requestContextOf(incoming);
}

/** The authentication hook, telling the access log who each request turned out to be. */
/** `accountCredentials` telling the access log who the user is (anonymous without an Authorization header, as it is). */
function noteUser(authenticate: Authenticate): Authenticate {
  return anonymousWithoutAuthorization(async (request: HandlerRequest) => {
    const principal = await authenticate(request);
    const context = contextOf(request);
    if (principal && context) context.userId = principal.id;
    return principal;
  });
}

async function readDataset(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`--seed ${file}: not JSON (${(e as Error).message})`);
  }
}

function principalOf(user: ServeUser): Principal {
  return { id: user.id, ...(user.role ? { role: user.role } : {}), ...(user.capabilities ? { capabilities: user.capabilities } : {}) };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The graceful stop: no new connections, idle ones closed, responses still to come sent with
 * `Connection: close`; once every request in flight has finished, or the deadline has
 * passed (then the rest are cut), the storage is closed.
 */
async function stopServer(server: Server, inFlight: () => number, closeStorage: () => Promise<void>, logger: Logger, deadlineMs: number): Promise<void> {
  logger.info('stopping', { in_flight: inFlight(), deadline_ms: deadlineMs });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  if ((await Promise.race([closed, deadline])) === 'deadline') {
    logger.warn('shutdown deadline passed: cutting the requests still in flight', { in_flight: inFlight() });
    server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
  await closeStorage();
  logger.info('stopped');
}
