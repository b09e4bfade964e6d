// The rate-limit hook: the handler asks it before doing any work for a request; a refusal is
// answered with 429 and `Retry-After`. `memoryRateLimit` is a small fixed-window limiter for
// one process; behind several processes use a shared store (Redis, the proxy) in your own hook.
import type { Principal } from '@evcal/core';
import { clientAddress } from './client-address';
import type { HandlerRequest } from './handler-request';

export interface RateLimitRequest {
  readonly request: HandlerRequest;
  /** The authenticated caller, if any. */
  readonly principal: Principal | undefined;
  /** The route path, e.g. `/events/{id}`. */
  readonly route: string;
}

/** `allowed: false` refuses the request; `retryAfterSeconds` becomes the `Retry-After` header. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly retryAfterSeconds?: number;
}

export type RateLimit = (request: RateLimitRequest) => RateLimitDecision | Promise<RateLimitDecision>;

export interface MemoryRateLimitOptions {
  /** Requests allowed per window and key. */
  readonly limit: number;
  /** The window, in milliseconds. @default 60000 */
  readonly windowMs?: number;
  /**
   * What counts as one client. @default the principal's id, else the client address a bridge
   * recorded (`clientAddress`: the socket's, or `X-Forwarded-For` under `trustProxy`), else
   * one bucket shared by every anonymous request
   */
  readonly key?: (request: RateLimitRequest) => string;
  /** The clock. @default Date.now */
  readonly now?: () => number;
}

/** A fixed-window limiter kept in this process. */
export function memoryRateLimit(options: MemoryRateLimitOptions): RateLimit {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const key = options.key ?? defaultKey;
  const windows = new Map<string, { start: number; count: number }>();
  return (req) => {
    const t = now();
    const k = key(req);
    let w = windows.get(k);
    if (!w || t - w.start >= windowMs) {
      if (windows.size > 100_000) windows.clear();
      w = { start: t, count: 0 };
      windows.set(k, w);
    }
    w.count += 1;
    if (w.count <= options.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - t) / 1000)) };
  };
}

function defaultKey({ request, principal }: RateLimitRequest): string {
  if (principal) return `user:${principal.id}`;
  const address = clientAddress(request);
  return address ? `ip:${address}` : 'anonymous';
}
