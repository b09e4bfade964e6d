// Slows down guessing: after a few failed credentials from one client address, that address
// must wait before it may present credentials again, a wait that doubles with every further
// failure up to a cap; a success clears it. While it waits, a request with credentials gets
// 429 with Retry-After without its credentials being checked; requests without credentials
// are not affected. Kept in this process and bounded: the least recently failing addresses
// are forgotten first.
import { isCalendarError } from '@evcal/core';
import type { Authenticate } from './auth';
import { clientAddress } from './client-address';
import type { HandlerRequest } from './handler-request';

export interface CredentialFailureLimit {
  /** Seconds `key` must wait before presenting credentials again; 0 when it may now. */
  wait(key: string): number;
  failed(key: string): void;
  succeeded(key: string): void;
}

export interface MemoryCredentialFailureLimitOptions {
  /** Failures allowed before the waits begin. @default 5 */
  readonly freeFailures?: number;
  /** The first wait, doubled with each further failure. @default 1000 */
  readonly baseDelayMs?: number;
  /** The longest wait. @default 60000 */
  readonly maxDelayMs?: number;
  /** A client whose last failure is this old starts afresh. @default 900000 (15 minutes) */
  readonly forgetAfterMs?: number;
  /** Addresses remembered at most; beyond, the least recently failing is forgotten. @default 10000 */
  readonly maxClients?: number;
  /** The clock. @default Date.now */
  readonly now?: () => number;
}

/** A failure limit kept in this process. */
export function memoryCredentialFailureLimit(options: MemoryCredentialFailureLimitOptions = {}): CredentialFailureLimit {
  const free = options.freeFailures ?? 5;
  const base = options.baseDelayMs ?? 1_000;
  const max = options.maxDelayMs ?? 60_000;
  const forget = options.forgetAfterMs ?? 900_000;
  const maxClients = options.maxClients ?? 10_000;
  const now = options.now ?? Date.now;
  /** Failures in a row and when the last one was, per key; Map order is the order of last failure. */
  const clients = new Map<string, { failures: number; last: number }>();
  const current = (key: string) => {
    const c = clients.get(key);
    if (c && now() - c.last >= forget) {
      clients.delete(key);
      return undefined;
    }
    return c;
  };
  return {
    wait(key) {
      const c = current(key);
      if (!c || c.failures < free) return 0;
      const until = c.last + Math.min(max, base * 2 ** (c.failures - free));
      return Math.max(0, Math.ceil((until - now()) / 1000));
    },
    failed(key) {
      const failures = (current(key)?.failures ?? 0) + 1;
      clients.delete(key);
      clients.set(key, { failures, last: now() });
      if (clients.size > maxClients) clients.delete(clients.keys().next().value!);
    },
    succeeded(key) {
      clients.delete(key);
    },
  };
}

/** What authentication came to under a failure limit: the principal, or the seconds to wait. */
export type LimitedAuthentication = { readonly principal: Awaited<ReturnType<Authenticate>> } | { readonly retryAfter: number };

/** Runs `authenticate` for a request, counting its failures against its client address. */
export async function authenticateLimited(
  authenticate: Authenticate, limit: CredentialFailureLimit | undefined, request: HandlerRequest,
): Promise<LimitedAuthentication> {
  if (!limit || !request.headers.has('authorization')) return { principal: await authenticate(request) };
  const key = clientAddress(request) ?? 'unknown';
  const retryAfter = limit.wait(key);
  if (retryAfter > 0) return { retryAfter };
  try {
    const principal = await authenticate(request);
    limit.succeeded(key);
    return { principal };
  } catch (error) {
    if (isCalendarError(error) && CREDENTIAL_FAILURES.has(error.code)) limit.failed(key);
    throw error;
  }
}

const CREDENTIAL_FAILURES = new Set(['invalid_credentials', 'unknown_user', 'unknown_email', 'incorrect_password']);
