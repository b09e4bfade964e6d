// How the client sends a request: writes carry an `Idempotency-Key`, so the server runs each
// at most once per key however often it arrives (docs/http.md, "Retries"); a call that gets no
// answer (a network failure, a timeout of the connection), or 409, 429 or 503, is sent again
// up to `retries` times with the same key. A write without a key is never sent again: the
// server may have written it before the answer was lost.

export interface SendOptions {
  readonly fetch: (request: Request) => Promise<Response>;
  /** A fresh key per write (`true`: a random UUID), keys from a function, or none (`false`). */
  readonly idempotencyKeys: boolean | (() => string);
  /** How many times a call is sent again. */
  readonly retries: number;
  /** The first pause before sending again, doubled each time; `Retry-After` wins when the server gives one. */
  readonly retryDelayMs: number;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Answers after which sending again may succeed: a concurrent write or a key still in use (409), a rate limit (429), the storage unavailable (503). */
const RETRIED_STATUSES = new Set([409, 429, 503]);
/** The longest pause, whatever Retry-After asks. */
const MAX_PAUSE_MS = 60_000;

export function sender(options: SendOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const keyed = withKey(request, options.idempotencyKeys);
    const repeatable = !WRITES.has(keyed.method) || keyed.headers.has('idempotency-key');
    const attempts = repeatable ? options.retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      const backoff = options.retryDelayMs * 2 ** (attempt - 1);
      let response: Response;
      try {
        // Each attempt sends a copy (a body is read once); the last sends the request itself.
        response = await options.fetch(last ? keyed : keyed.clone());
      } catch (error) {
        if (last || keyed.signal.aborted) throw error;
        await pause(backoff);
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      await response.body?.cancel();
      await pause(retryAfterMs(response.headers.get('retry-after')) ?? backoff);
    }
  };
}

/** The request with an Idempotency-Key when it is a write that has none and keys are on. */
function withKey(request: Request, keys: boolean | (() => string)): Request {
  if (keys === false || !WRITES.has(request.method) || request.headers.has('idempotency-key')) return request;
  const headers = new Headers(request.headers);
  headers.set('idempotency-key', typeof keys === 'function' ? keys() : globalThis.crypto.randomUUID());
  return new Request(request, { headers });
}

/** `Retry-After` in ms: seconds, or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_PAUSE_MS) : undefined;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
