// Paging over whole lists: the first page from the query, each next one from the page's
// `next_rest_url` (which keeps every filter), until a page has none; the totals from
// `X-TEC-Total` / `X-TEC-TotalPages` (or the body's `total` / `total_pages`).
import type { paths } from './generated/api';
import { EvcalApiError, readError } from './errors';

/** The list routes. */
export type ListPath = '/events' | '/venues' | '/organizers' | '/categories' | '/tags';
/** A list route's query parameters. */
export type ListQuery<P extends ListPath> = NonNullable<paths[P]['get']['parameters']['query']>;
/** A list route's envelope. */
export type ListBody<P extends ListPath> = paths[P]['get']['responses'][200]['content']['application/json'];

const ITEMS = { '/events': 'events', '/venues': 'venues', '/organizers': 'organizers', '/categories': 'categories', '/tags': 'tags' } as const;
type ItemKey<P extends ListPath> = (typeof ITEMS)[P] & keyof ListBody<P>;
/** One item of a list route (an event, a venue…). */
export type ListItem<P extends ListPath> = ListBody<P>[ItemKey<P>] extends ReadonlyArray<infer T> ? T : never;

export interface ListPage<P extends ListPath> {
  /** This page's number, from 1. */
  readonly page: number;
  readonly items: readonly ListItem<P>[];
  /** Items in all pages. */
  readonly total: number;
  readonly totalPages: number;
  readonly body: ListBody<P>;
  readonly etag: string | undefined;
}

interface Transport {
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly fetch: typeof fetch;
}

/** The pages of a list. A page that fails throws an EvcalApiError (its typed body included). */
export async function* listPages<P extends ListPath>(transport: Transport, path: P, query?: ListQuery<P>): AsyncGenerator<ListPage<P>, void, undefined> {
  let url: string | undefined = `${transport.baseUrl}${path}${queryString(query ?? {})}`;
  for (let page = 1; url !== undefined; page++) {
    const response: Response = await transport.fetch(url, { headers: { accept: 'application/json', ...transport.headers } });
    if (!response.ok) throw new EvcalApiError(await readError(response), response);
    const body: ListBody<P> = await response.json();
    const items: readonly ListItem<P>[] = itemsOf(body, ITEMS[path]);
    yield {
      page,
      items,
      total: headerNumber(response, 'x-tec-total') ?? body.total,
      totalPages: headerNumber(response, 'x-tec-totalpages') ?? body.total_pages,
      body,
      etag: response.headers.get('etag') ?? undefined,
    };
    url = body.next_rest_url;
  }
}

// ---- helpers ----

function itemsOf<P extends ListPath>(body: ListBody<P>, key: (typeof ITEMS)[P]): readonly ListItem<P>[] {
  const items: unknown = Reflect.get(body, key);
  if (!Array.isArray(items)) throw new TypeError(`evcal client: the list has no "${key}" array`);
  return items;
}

function headerNumber(response: Response, name: string): number | undefined {
  const value = response.headers.get(name);
  return value === null || !/^\d+$/.test(value) ? undefined : Number(value);
}

/** `?a=1&b=x,y`: arrays as comma-separated values, as the list parameters take them. */
function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
