// Where each request of a server with read replicas reads (docs/operations.md, "Read
// replicas"). The calendar is given one storage; which database its reads go to is decided per
// request and kept in the request's async context, so core's storage interface stays as it is:
//
// - Writes, transactions and everything but reads go to the primary, always.
// - Reads of a request go to a replica when the request is an anonymous GET or HEAD (lists,
//   single reads, feeds, pages, /changes) and a replica is within the lag allowed and has
//   replayed what the request must see: the position in its `Evcal-Position` header or
//   `evcal_position` cookie (what the caller wrote last), the change counter its list
//   validator (`If-None-Match`) names, the one its sync token (`since`) names. Otherwise the
//   primary. Authenticated callers (editors) read from the primary.
// - A write's answer carries the change counter after its commit (`Evcal-Position` and a
//   cookie): any server that gets it back reads from a replica only once that replica has
//   replayed it, so a caller reads its own writes everywhere.
// - A replica never answers a validator it cannot vouch for: a conditional request whose tag is
//   not a list's it was routed on, and that the replica does not answer 304, is answered by the
//   primary. A read the replica fails (it went away, a query cancelled by its recovery) is
//   answered by the primary, and the replica is skipped until it answers again.
import { AsyncLocalStorage } from 'node:async_hooks';
import { decodeSyncToken, listTagChange, type Storage } from '@evcal/core';
import type { HandlerRequest, WireResponse } from '@evcal/http';
import type { ReplicaSet } from './replica-set';

/** The header a write's answer carries, and a later request may send back. */
export const POSITION_HEADER = 'evcal-position';
/** The cookie a write's answer sets, with the same value. */
export const POSITION_COOKIE = 'evcal_position';

interface Route {
  /** Where this request's reads go. */
  readonly reads: Storage;
  /** The change counter after the request's last commit, for its answer. */
  committed: number;
}

const routes = new AsyncLocalStorage<Route>();

/** Notes a commit's position for the request that made it (the storage's `onCommit`). */
export function noteCommit(position: number): void {
  const route = routes.getStore();
  if (route && position > route.committed) route.committed = position;
}

const READS = new Set(['get', 'getMany', 'getBySlug', 'findByName', 'list', 'countByTerm']);

/**
 * `primary`, with the reads of each request going where its route says (the primary outside
 * any request: background work). Writes and transactions go to the primary.
 */
export function routedStorage(primary: Storage): Storage {
  const reads = () => routes.getStore()?.reads ?? primary;
  const routed = <K extends 'events' | 'venues' | 'organizers' | 'categories' | 'tags'>(name: K): Storage[K] => {
    const methods = primary[name] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    return Object.fromEntries(Object.keys(methods).map((method) => [method, READS.has(method)
      ? (...args: unknown[]) => (reads()[name] as unknown as typeof methods)[method]!(...args)
      : (...args: unknown[]) => methods[method]!(...args)])) as unknown as Storage[K];
  };
  return {
    capabilities: primary.capabilities,
    events: routed('events'),
    venues: routed('venues'),
    organizers: routed('organizers'),
    categories: routed('categories'),
    tags: routed('tags'),
    users: primary.users,
    tokens: primary.tokens,
    changes: {
      append: (entries) => primary.changes.append(entries),
      read: (from, limit) => reads().changes.read(from, limit),
      state: () => reads().changes.state(),
      prune: (cutoff) => primary.changes.prune(cutoff),
    },
    webhooks: primary.webhooks,
    idempotency: primary.idempotency,
    sequences: primary.sequences,
    lastChange: () => reads().lastChange(),
    readiness: () => primary.readiness(),
    transaction: (fn) => primary.transaction(fn),
    close: () => primary.close(),
  };
}

export interface ReadRouterOptions {
  readonly primary: Storage;
  /** None: every read goes to the primary (a server that only hands out positions). */
  readonly replicas?: ReplicaSet;
  /** How long the position cookie lasts. */
  readonly cookieMaxAgeSeconds: number;
}

/** What the router needs of an answer, whatever its form (the API's wire answers, the pages' web Responses). */
export interface AnswerForm<A> {
  status(answer: A): number;
  /** Drops an answer that will not be sent. */
  discard(answer: A): Promise<void>;
  /** The answer with these headers added. */
  withHeaders(answer: A, headers: Readonly<Record<string, string>>): A;
}

export interface ReadRouter {
  /** Answers `request` with `answer` run on its route (and again on the primary when the replica's answer cannot stand). */
  run<A>(request: HandlerRequest, answer: () => Promise<A>, form: AnswerForm<A>): Promise<A>;
}

export function readRouter(options: ReadRouterOptions): ReadRouter {
  const { primary, replicas } = options;
  return {
    async run(request, answer, form) {
      const replica = replicas && replicaFor(request, replicas);
      if (replica) {
        const first = await routes.run({ reads: replica.storage, committed: 0 }, answer);
        const status = form.status(first);
        if (status === 503 || status === 409 || status === 500) {
          // Failed on the replica (gone, or a query its recovery cancelled): the primary answers.
          replicas.failed(replica.storage);
          await form.discard(first);
        } else if (!replica.unsure || status === 304) {
          return first;
        } else {
          // A validator the replica cannot vouch for, not matched: the primary answers it.
          await form.discard(first);
        }
      }
      const route: Route = { reads: primary, committed: 0 };
      const out = await routes.run(route, answer);
      if (route.committed === 0) return out;
      return form.withHeaders(out, {
        [POSITION_HEADER]: String(route.committed),
        'set-cookie': `${POSITION_COOKIE}=${route.committed}; Path=/; Max-Age=${options.cookieMaxAgeSeconds}; HttpOnly; SameSite=Lax`,
      });
    },
  };
}

/** The API handler's answers. */
export const WIRE_ANSWERS: AnswerForm<WireResponse> = {
  status: (a) => a.status,
  async discard(a) {
    const body = a.body;
    // A feed's chunks are stopped.
    if (body !== null && typeof body === 'object' && Symbol.asyncIterator in body) await (body as AsyncIterable<string>)[Symbol.asyncIterator]().return?.();
  },
  withHeaders: (a, headers) => ({ ...a, headers: { ...a.headers, ...headers } }),
};

/** The pages' answers. */
export const WEB_ANSWERS: AnswerForm<Response> = {
  status: (a) => a.status,
  async discard(a) {
    await a.body?.cancel();
  },
  withHeaders(a, headers) {
    for (const [name, value] of Object.entries(headers)) a.headers.set(name, value);
    return a;
  },
};

/** The replica a request reads from, and whether its answer to a conditional request must be a 304 to stand; undefined: the primary. */
function replicaFor(request: HandlerRequest, replicas: ReplicaSet): { storage: Storage; unsure: boolean } | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (request.headers.has('authorization')) return undefined;
  let position = Math.max(positionOf(request.headers.get(POSITION_HEADER)), positionOf(cookie(request.headers.get('cookie'), POSITION_COOKIE)));
  let unsure = request.headers.has('if-modified-since');
  const tags = request.headers.get('if-none-match');
  if (tags) {
    for (const tag of tags.split(',')) {
      const change = listTagChange(tag);
      if (change === undefined) unsure = true;
      else position = Math.max(position, change);
    }
  }
  const since = request.url.includes('since=') ? new URL(request.url).searchParams.get('since') : null;
  // A token names the next position to read: the replica must have the one before.
  const token = since ? decodeSyncToken(since) : undefined;
  if (token) position = Math.max(position, token.change - 1);
  const storage = replicas.pick(position);
  return storage && { storage, unsure };
}

function positionOf(value: string | null | undefined): number {
  if (!value || !/^\d{1,15}$/.test(value.trim())) return 0;
  return Number(value.trim());
}

function cookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
