// createEvcalClient: every route of the API typed from evcal's OpenAPI document (openapi-fetch
// over the types openapi-typescript generates from /doc), and paging over whole lists. Works
// in browsers and Node (fetch, URL, Headers only).
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api';
import { listPages, type ListItem, type ListPage, type ListPath, type ListQuery } from './paging';

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
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  // JSON answers (the event routes also answer iCalendar to an Accept that asks for it).
  const api = createClient<paths, 'application/json'>({
    baseUrl,
    headers,
    fetch: (request: Request) => doFetch(request),
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
