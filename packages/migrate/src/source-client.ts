// A client of a site running the reference (The Events Calendar REST API v1, or evcal in its
// layout): addresses in either form WordPress uses, HTTP Basic credentials, bounded
// concurrency, retries on 429 and 5xx honouring Retry-After, and errors that say what went
// wrong (a wrong URL, a server that is not the reference, bad credentials).
import { MigrationError } from './migration-error';

/** The part of `fetch` the client uses, so tests and apps can pass their own. */
export type FetchLike = (url: string, init: { headers: Record<string, string>; signal?: AbortSignal }) => Promise<{
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

export interface SourceClientOptions {
  /** The API root: `https://site/wp-json/tribe/events/v1` or `https://site/?rest_route=/tribe/events/v1`. */
  readonly from: string;
  /** An application password (or any HTTP Basic credentials the site accepts). */
  readonly credentials?: { readonly user: string; readonly password: string } | undefined;
  /** Requests in flight at once. @default 4 */
  readonly concurrency?: number;
  /** Further tries of a request answered 429 or 5xx, or lost on the network. @default 5 */
  readonly retries?: number;
  /** The longest wait a Retry-After may ask for before the client gives up on it. @default 120000 */
  readonly maxRetryAfterMs?: number;
  /** @default globalThis.fetch */
  readonly fetch?: FetchLike;
  readonly signal?: AbortSignal | undefined;
}

/** A JSON answer. */
export interface SourceResponse {
  readonly status: number;
  readonly body: unknown;
  readonly total: number | undefined;
}

export interface SourceClient {
  /** The API root as given, without a trailing slash. */
  readonly root: string;
  readonly authenticated: boolean;
  /** The URL of a route below the API root (`/events`), with query parameters. */
  url(route: string, params?: Readonly<Record<string, string>>): string;
  /** The query parameters of a URL the source emitted (`next_rest_url`), without `rest_route`. */
  paramsOf(url: string): Record<string, string>;
  /** GET a URL of `url()`; retries what is worth retrying, throws MigrationError for the rest. */
  get(url: string, options?: { retryNetwork?: boolean }): Promise<SourceResponse>;
}

export function createSourceClient(options: SourceClientOptions): SourceClient {
  const address = parseRoot(options.from);
  const fetchImpl = options.fetch ?? (globalThis.fetch as unknown as FetchLike);
  const retries = options.retries ?? 5;
  const maxRetryAfter = options.maxRetryAfterMs ?? 120_000;
  const limit = semaphore(options.concurrency ?? 4);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'evcal-migrate' };
  if (options.credentials) headers.authorization = `Basic ${base64(`${options.credentials.user}:${options.credentials.password}`)}`;
  const signal = options.signal;

  async function attempt(url: string): Promise<{ status: number; text: string; retryAfter: string | null; total: string | null }> {
    const res = await fetchImpl(url, { headers, ...(signal ? { signal } : {}) });
    return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after'), total: res.headers.get('x-tec-total') };
  }

  return {
    root: address.display,
    authenticated: options.credentials !== undefined,
    url: address.url,
    paramsOf(url) {
      const params: Record<string, string> = {};
      try {
        for (const [k, v] of new URL(url).searchParams) if (k !== 'rest_route') params[k] = v;
      } catch {
        // a next_rest_url that is not a URL: no parameters (the caller stops paging)
      }
      return params;
    },
    async get(url, { retryNetwork = true } = {}) {
      for (let tryNo = 0; ; tryNo++) {
        signal?.throwIfAborted();
        let answer: Awaited<ReturnType<typeof attempt>>;
        try {
          answer = await limit(() => attempt(url));
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          if (!retryNetwork || tryNo >= retries) {
            throw new MigrationError('unreachable', `cannot reach ${redactUrl(url)}: ${describeNetworkError(error)}`);
          }
          await sleep(backoff(tryNo), signal);
          continue;
        }
        if ((answer.status === 429 || answer.status >= 500) && tryNo < retries) {
          const wait = retryAfterMs(answer.retryAfter) ?? backoff(tryNo);
          if (wait > maxRetryAfter) {
            throw new MigrationError('http_error', `${redactUrl(url)} answered ${answer.status} and asks to wait ${Math.round(wait / 1000)} s; try again later`);
          }
          await sleep(wait, signal);
          continue;
        }
        let body: unknown;
        try {
          body = answer.text === '' ? null : JSON.parse(answer.text);
        } catch {
          throw new MigrationError('not_reference', `${redactUrl(url)} answered ${answer.status} with something other than JSON: is it The Events Calendar's REST API?`);
        }
        const total = answer.total === null ? undefined : Number(answer.total);
        return { status: answer.status, body, total: Number.isFinite(total) ? total : undefined };
      }
    },
  };
}

/** The error body's `code` and `message`, when it has the reference's shape. */
export function errorOf(body: unknown): { code: string; message: string } | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const { code, message } = body as { code?: unknown; message?: unknown };
  return typeof code === 'string' ? { code, message: typeof message === 'string' ? message : '' } : undefined;
}

/** A URL without credentials, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}

// ---- helpers ----

interface RootAddress {
  readonly display: string;
  url(route: string, params?: Readonly<Record<string, string>>): string;
}

/**
 * The pretty form puts the route in the path; the plain-permalink form in `rest_route`, with
 * the other parameters after it (as WordPress's add_query_arg writes them).
 */
function parseRoot(from: string): RootAddress {
  let root: URL;
  try {
    root = new URL(from);
  } catch {
    throw new MigrationError('bad_url', `--from must be the API root URL, e.g. https://example.org/wp-json/tribe/events/v1; got "${from}"`);
  }
  if (root.protocol !== 'http:' && root.protocol !== 'https:') throw new MigrationError('bad_url', `--from must be an http(s) URL, got "${from}"`);
  if (root.username || root.password) throw new MigrationError('bad_url', 'give credentials with --user and --password, not in the URL');
  const query = (params: Readonly<Record<string, string>>) => new URLSearchParams(params).toString();
  const restRoute = root.searchParams.get('rest_route');
  if (restRoute !== null) {
    const prefix = restRoute.replace(/\/+$/, '');
    const base = new URL(root.href);
    base.search = '';
    base.hash = '';
    return {
      display: `${base.href}?rest_route=${prefix}`,
      url: (route, params = {}) => {
        const qs = query(params);
        return `${base.href}?${query({ rest_route: `${prefix}${route}` })}${qs ? `&${qs}` : ''}`;
      },
    };
  }
  root.hash = '';
  root.search = '';
  const base = root.href.replace(/\/+$/, '');
  return {
    display: base,
    url: (route, params = {}) => {
      const qs = query(params);
      return `${base}${route}${qs ? `?${qs}` : ''}`;
    },
  };
}

function semaphore(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** Retry-After in seconds or as an HTTP date. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** 0.5 s, 1 s, 2 s, … up to 30 s, with jitter so parallel requests do not retry in step. */
function backoff(tryNo: number): number {
  return Math.min(30_000, 500 * 2 ** tryNo) * (0.75 + Math.random() * 0.5);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** fetch reports "fetch failed"; what failed (ECONNREFUSED, ENOTFOUND, a TLS error) is its cause. */
function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } })?.cause;
  const code = cause?.code ?? cause?.errors?.find((e) => e.code)?.code;
  if (code) return `${code}${cause?.message && !cause.message.includes(code) ? ` (${cause.message})` : ''}`;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
