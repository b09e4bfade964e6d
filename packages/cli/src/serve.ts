// `evcal serve`: the calendar over HTTP as a standalone server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { createCalendar, createWebhookDispatcher, DEFAULT_ROLES, MAX_ID, type Principal, type Storage, type WebhookDispatcher } from '@evcal/core';
import {
  bearerTokens, createFetchHandler, createLanguageHandler, createWebhookSender, memoryRateLimit, toNodeHandler, type FetchHandlerOptions,
} from '@evcal/http';
import { DEFAULT_STORAGE, openStorage } from './storage-url';

export interface ServeOptions {
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** 0 picks a free port. @default 8080 */
  readonly port?: number;
  /** A storage URL: `memory`, `json:<file>`, `sqlite:<file>`, `postgres://…`. @default 'sqlite:./data/evcal.db' */
  readonly storage?: string;
  /** The site time zone. @default 'UTC' */
  readonly timezone?: string;
  /** Bearer-token users. */
  readonly users?: readonly ServeUser[];
  /** A dataset file loaded before listening. */
  readonly seed?: string;
  /** A dataset object loaded before listening (after `seed`) when the calendar is still empty. */
  readonly dataset?: unknown;
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
  /** Days the change log keeps entries and tombstones (docs/sync.md). @default 30 */
  readonly changeRetentionDays?: number;
  /** Webhook delivery (docs/webhooks.md): the server sends what the outbox holds. */
  readonly webhooks?: ServeWebhookOptions;
}

export interface ServeWebhookOptions {
  /** An attempt without an answer after this long fails. @default 10000 */
  readonly timeoutMs?: number;
  /** Delays before the retries, in ms. @default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h */
  readonly retrySchedule?: readonly number[];
  /** Deliver to private, loopback and link-local addresses too. @default false */
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
  close(): Promise<void>;
}

/** Starts the server; resolves once it listens. */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const storage = await openStorage(options.storage ?? DEFAULT_STORAGE);
  let server: Server | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  try {
    const users = options.users ?? [];
    const frozen = options.now?.getTime();
    const calendar = createCalendar({
      storage,
      timezone: options.timezone ?? 'UTC',
      ...(frozen !== undefined ? { now: () => frozen } : {}),
      limits: { defaultPerPage: options.defaultPerPage ?? 10, maxPerPage: options.maxPerPage ?? 50 },
      users: { exists: (id) => users.some((u) => u.id === id) },
      ...(options.changeRetentionDays !== undefined ? { changes: { retentionDays: options.changeRetentionDays } } : {}),
    });
    if (options.seed) await calendar.importDataset(await readDataset(options.seed));
    if (options.dataset && (await storage.sequences.peek('post')) === 0) await calendar.importDataset(options.dataset);
    const basePath = options.basePath ?? '';
    const namespace = options.namespace ?? 'cal/events/v1';
    const handlerOptions: FetchHandlerOptions = {
      basePath,
      namespace,
      authenticate: bearerTokens(new Map(users.map((u) => [u.token, principalOf(u)])), { basic: true }),
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
    server = createServer(toNodeHandler(handler));
    server.keepAliveTimeout = 5_000;
    await listen(server, options.port ?? 8080, options.host ?? '127.0.0.1');
    // Deliveries survive a crash in the outbox; a delivery claimed by a server that stopped is
    // taken over once its lease (twice the time-out, and a second) has run out.
    const timeoutMs = options.webhooks?.timeoutMs ?? 10_000;
    dispatcher = createWebhookDispatcher(calendar, {
      send: createWebhookSender({ timeoutMs, allowPrivateAddresses: options.webhooks?.allowPrivateAddresses ?? false }),
      leaseMs: 2 * timeoutMs + 1_000,
      ...(options.webhooks?.retrySchedule ? { retrySchedule: options.webhooks.retrySchedule } : {}),
    });
    dispatcher.start();
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const origin = `http://${host}:${address.port}`;
    const running = server;
    const sender = dispatcher;
    return {
      origin,
      apiRoot: `${origin}${basePath}/${namespace}`,
      languageRoots: Object.fromEntries(languages.map((l) => [l, `${origin}${basePath}/${l.toLowerCase()}/${namespace}`])),
      close: async () => {
        await sender.stop();
        await closeServer(running, storage);
      },
    };
  } catch (error) {
    await dispatcher?.stop();
    if (server?.listening) server.close();
    await storage.close();
    throw error;
  }
}

/** Parses `id:role:token`. */
export function parseUser(spec: string): ServeUser {
  const m = /^(\d+):([a-z_]+):(\S+)$/.exec(spec);
  if (!m) throw new Error(`--user must be id:role:token, got "${spec}"`);
  if (Number(m[1]) < 1 || Number(m[1]) > MAX_ID) throw new Error(`--user ${spec}: the id must be between 1 and ${MAX_ID}`);
  const role = m[2]!;
  if (!(role in DEFAULT_ROLES)) throw new Error(`--user ${spec}: unknown role "${role}" (one of ${Object.keys(DEFAULT_ROLES).join(', ')})`);
  return { id: Number(m[1]), role, token: m[3]! };
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

async function closeServer(server: Server, storage: Storage): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  });
  await storage.close();
}
