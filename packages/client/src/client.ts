// createEvcalClient: every route of the API typed from evcal's OpenAPI document (openapi-fetch
// over the types openapi-typescript generates from /doc), and paging over whole lists. Works
// in browsers and Node (fetch, URL, Headers only).
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api';
import { listPages, type ListItem, type ListPage, type ListPath, type ListQuery } from './paging';
import { sender } from './retries';

export interface EvcalClientOptions {
  /**
   * The API root: where the namespace is served, e.g. `https://example.org/cal/events/v1`, or
   * `https://example.org/de/cal/events/v1` for German messages.
   */
  readonly baseUrl: string;
  /**
   * Sent as `Authorization: Bearer <token>` with every request; undefined or empty sends none
   * (so `token: process.env.EVCAL_TOKEN` works under `exactOptionalPropertyTypes`).
   * @default none: anonymous
   */
  readonly token?: string | undefined;
  /** Headers sent with every request (credentials of another scheme, a language…). @default {} */
  readonly headers?: Readonly<Record<string, string>>;
  /** The fetch to call. @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /**
   * Writes (POST, PUT, PATCH, DELETE) carry an `Idempotency-Key`, so that the server runs each
   * at most once however often it is sent (docs/http.md, "Retries"): a fresh random UUID per
   * call, reused by the client's own retries of that call; a function to make the keys
   * instead; or `false` for none. A call that sets the header itself keeps its own key
   * (`headers: { 'Idempotency-Key': … }`).
   * @default true
   */
  readonly idempotencyKeys?: boolean | (() => string);
  /**
   * How many times a call is sent again when it gets no answer (a network failure), or 409,
   * 429 or 503, after the server's `Retry-After` or a pause that doubles from `retryDelayMs`.
   * Writes are sent again only with an idempotency key, the same one each time.
   * @default 0
   */
  readonly retries?: number;
  /** The first pause before a retry, in ms. @default 500 */
  readonly retryDelayMs?: number;
}

export interface EvcalClient {
  /**
   * Every route, typed: `api.GET('/events/{id}', { params: { path: { id: 12 } } })`. Each call
   * resolves with `{ data }` or `{ error }` (the API's error body, typed) and the `response`;
   * `outcome()` turns that into one tagged value.
   */
  readonly api: Client<paths, 'application/json'>;
  /** The pages of a list, first to last, following each page's `next_rest_url`. */
  pages<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListPage<P>, void, undefined>;
  /** Every item of a list, across its pages. */
  all<P extends ListPath>(path: P, query?: ListQuery<P>): AsyncGenerator<ListItem<P>, void, undefined>;
}

export function createEvcalClient(options: EvcalClientOptions): EvcalClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  };
  const fetchOnce = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const retries = options.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0) throw new TypeError('evcal client: retries must be a non-negative integer');
  const send = sender({
    fetch: (request) => fetchOnce(request), idempotencyKeys: options.idempotencyKeys ?? true, retries, retryDelayMs: options.retryDelayMs ?? 500,
  });
  const doFetch = (input: RequestInfo | URL, init?: RequestInit) => send(new Request(input, init));
  // JSON answers (the event routes also answer iCalendar to an Accept that asks for it).
  const api = createClient<paths, 'application/json'>({
    baseUrl,
    headers,
    fetch: send,
    // Lists as comma-separated values (`categories=1,2`), which every list parameter accepts
    // (PHP keeps only the last of repeated keys).
    querySerializer: { array: { style: 'form', explode: false } },
  });
  const pages = <P extends ListPath>(path: P, query?: ListQuery<P>) => listPages({ baseUrl, headers, fetch: doFetch }, path, query);
  return {
    api,
    pages,
    async *all(path, query) {
      for await (const page of pages(path, query)) yield* page.items;
    },
  };
}
