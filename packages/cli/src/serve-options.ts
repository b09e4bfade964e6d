// The options of `serve()` and what it returns: the types of `@evcal/cli`'s server as a
// function, with their defaults, apart from serve.ts that composes the server from them (and
// read by serve-command.ts, which maps the command line and the options file onto them).
import type { Principal } from '@evcal/core';
import type { DemoAdministrator } from './demo-account';
import type { Logger } from './logger';

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
  /**
   * PostgreSQL hot standbys of the storage (`postgres://` URLs; their schema is the storage's
   * unless they name one) that anonymous reads go to while within `replicaMaxLagMs` (read-routing.ts).
   * @default none
   */
  readonly readReplicas?: readonly string[];
  /** How far behind the primary a replica may be and still be read. @default 5000 */
  readonly replicaMaxLagMs?: number;
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
