// `evcal serve`: the calendar over HTTP as a standalone server, with what operators need
// around it: accounts from the storage, /healthz and /readyz, an access log with request ids,
// and a graceful stop. Composed here from its parts: the options' types (serve-options.ts), the
// node server's timeouts and stop (node-server.ts), the read replicas (open-replicas.ts,
// read-routing.ts), the logging of storage faults (storage-fault-log.ts).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { createAccounts, createCalendar, createWebhookDispatcher, describeNextAttempt, formatWall, instantToWall, isStorageFault, type WebhookDispatcher } from '@evcal/core';
import {
  accountCredentials, createFetchHandler, createLanguageHandler, createWebhookSender, fetchHandlerOf, lookupAddresses,
  memoryCredentialFailureLimit, memoryRateLimit, type FetchHandlerOptions,
} from '@evcal/http';
import { toNodeHandler } from '@evcal/http/node';
import { asBulkLoad } from './bulk-load';
import { requestIdHeader, withAccessLog } from './access-log';
import { ensureDemoAdministrator } from './demo-account';
import { healthRoutes } from './health';
import { createLogger, errorFields } from './logger';
import { createNodeServer, listen, stopServer } from './node-server';
import { openReplicas } from './open-replicas';
import { DEFAULT_STORAGE, isPostgresUrl, openStorage, StorageUrlError } from './storage-url';
import { noteCommit, readRouter, routedStorage, WEB_ANSWERS, WIRE_ANSWERS } from './read-routing';
import type { ReplicaSet } from './replica-set';
import { contextOf, noteUser } from './request-user';
import type { RunningServer, ServeOptions } from './serve-options';
import { principalOf } from './serve-users';
import { backgroundErrors, causeOf, STORAGE_FAULT_LOG } from './storage-fault-log';
import { createSitePages, isSitePath } from './web/site-pages';

/** Starts the server; resolves once it listens. */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  const storageUrl = options.storage ?? DEFAULT_STORAGE;
  const onConnectionError = (error: Error) => logger.warn('storage connection lost', errorFields(error));
  // PostgreSQL: each write's position goes to its writer (read-routing.ts), replicas or not.
  const postgres = isPostgresUrl(storageUrl);
  const onPreparingOff = (error: Error) => logger.warn(
    'prepared statements turned off: a pooler in transaction mode lost one (add ?prepare=false to the storage URL to skip this)', errorFields(error));
  const storage = await openStorage(storageUrl, { onConnectionError, ...(postgres ? { onCommit: noteCommit, onPreparingOff } : {}) });
  let server: Server | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  let replicas: ReplicaSet | undefined;
  try {
    const maxLagMs = options.replicaMaxLagMs ?? 5_000;
    if (options.readReplicas?.length) {
      if (!postgres) throw new StorageUrlError('--read-replica needs a postgres:// storage: replicas are hot standbys of it');
      replicas = await openReplicas(storageUrl, options.readReplicas, storage, maxLagMs, logger);
    }
    const router = postgres ? readRouter({ primary: storage, ...(replicas ? { replicas } : {}), cookieMaxAgeSeconds: Math.max(60, Math.ceil((2 * maxLagMs) / 1000)) }) : undefined;
    // A storage that takes no writes (a PostgreSQL hot standby) is served read-only: reads
    // answered, writes refused with 503 rest_read_only, nothing written in the background.
    const state = await storage.readiness();
    const readOnly = state.ready && state.writable === false && state.reason === 'read_only';
    if (readOnly) logger.warn('the storage takes no writes: serving reads, refusing writes (503 rest_read_only), sending no webhooks', { detail: state.detail });
    const users = options.users ?? [];
    const allowPrivateAddresses = options.webhooks?.allowPrivateAddresses ?? false;
    const frozen = options.now?.getTime();
    // Token expiry follows the real clock, whatever the calendar's.
    const accounts = createAccounts({ storage });
    const calendar = createCalendar({
      // Reads of each request where its route says (read-routing.ts); on other storages, the storage.
      storage: router ? routedStorage(storage) : storage,
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
    const routedApi = router ? fetchHandlerOf((request) => router.run(request, () => handler.handle(request), WIRE_ANSWERS)) : handler;
    const api = toNodeHandler(routedApi, { trustProxy: options.trustProxy === true, headers: answerHeaders, ...publicOrigin });
    const apiRoots = languages.length
      ? Object.fromEntries(languages.map((l, i) => [l.toLowerCase(), i === 0 ? `${basePath}/${namespace}` : `${basePath}/${l.toLowerCase()}/${namespace}`]))
      : { en: `${basePath}/${namespace}` };
    const sitePages = createSitePages({
      calendar,
      apiRoots,
      today: () => formatWall(instantToWall(calendar.config.now(), calendar.config.zone)).slice(0, 10),
      onError: (error) => logger.error('unexpected error in a page', errorFields(error)),
    });
    const routedPages = router ? (request: Request) => router.run(request, () => sitePages(request), WEB_ANSWERS) : sitePages;
    const pages = toNodeHandler(routedPages, { trustProxy: options.trustProxy === true, headers: answerHeaders, ...publicOrigin });
    // The API's addresses stay the API's, even where a page's address would match (a base path such as /event).
    const apiPrefixes = [`${basePath}/${namespace}`, ...languages.map((l) => `${basePath}/${l.toLowerCase()}/${namespace}`)].map((p) => p.toLowerCase());
    const isPage = (url: string) => isSitePath(url) && !apiPrefixes.some((p) => {
      const path = url.toLowerCase();
      return path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`);
    });
    const health = healthRoutes({ storage, logger, stopping: () => stopping, ...(replicas ? { replicas: replicas.states } : {}) });
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
    server = createNodeServer(options.timeouts ?? {}, listener);
    // Series without an end are stored up to the recurrence horizon: moved along at start and
    // every hour, so that no request has to wait for it (docs/recurrence.md).
    if (!readOnly) {
      await calendar.extendRecurrences().catch((error: unknown) => {
        // A storage that takes no writes now (full, read-only) still serves what it holds.
        if (!isStorageFault(error)) throw error;
        logger.warn('extending recurring events failed: the storage takes no writes now', { code: error.code, cause: causeOf(error) });
      });
    }
    const horizon = setInterval(() => {
      calendar.extendRecurrences().catch((error: unknown) => logger.error('extending recurring events failed', errorFields(error)));
    }, 3_600_000);
    horizon.unref();
    if (readOnly) clearInterval(horizon);
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
    if (!readOnly) dispatcher.start();
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
          await replicas?.close();
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
    await replicas?.close();
    await storage.close();
    throw error;
  }
}

async function readDataset(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`--seed ${file}: not JSON (${(e as Error).message})`);
  }
}
