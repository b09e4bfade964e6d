// The `rest_url`, `next_rest_url` and `previous_rest_url` of list envelopes, and the totals.
import { parseArgs, type ArgSpecs, type WireArgs } from './args';
import type { EventListJson } from '../represent/schemas';
import type { Call, ListStability } from './context';
import { listValidatorOfText } from './validators';
import type { PlanCache, Planned } from './plan-cache';

export type { ListStability } from './context';

/** Ordered query parameters; undefined values are left out. */
export type UrlParams = ReadonlyArray<readonly [string, string | number | undefined]>;

export interface ListLinks {
  readonly restUrl: string;
  readonly next?: string;
  readonly previous?: string;
}

/**
 * `rest_url` (with `page`), `next_rest_url` (`page` moved last) and `previous_rest_url`
 * (no `page` for page 2), percent-encoded as a form (behaviour reference: "How rest_url,
 * next_rest_url and previous_rest_url are built", "rest_url encoding").
 */
export function listLinks(base: string, params: UrlParams, page: number, hasNext: boolean, hasPrevious: boolean): ListLinks {
  const rest = params.flatMap(([k, val]): [string, string | number][] => (k !== 'page' && val !== undefined ? [[k, val]] : []));
  const encode = (pairs: [string, string | number][]) => new URLSearchParams(pairs.map(([k, val]): [string, string] => [k, String(val)])).toString();
  const url = (extra: [string, string | number][]) => {
    const qs = encode([...extra, ...rest]);
    return qs ? `${base}?${qs}` : base;
  };
  const urlWithPageLast = (n: number) => `${base}?${encode([...rest, ['page', n]])}`;
  return {
    restUrl: url([['page', page]]),
    ...(hasNext ? { next: urlWithPageLast(page + 1) } : {}),
    ...(hasPrevious ? { previous: page - 1 === 1 ? url([]) : urlWithPageLast(page - 1) } : {}),
  };
}

/** The offset of a page; absurd pages (page=1e300) stay a safe integer and simply find nothing. */
export function pageOffset(page: number, perPage: number): number {
  return Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER);
}

export function totalPages(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}

/** What a list operation returns: the wire envelope and the totals for headers. */
export interface ListResult<B extends object = Record<string, unknown>> {
  /** The envelope, keys in the reference's order. */
  readonly body: B;
  /** The envelope as JSON text. */
  readonly json: string;
  /**
   * The envelope as UTF-8 JSON, in pieces to send one after the other (for events, each
   * event's text as the render cache keeps it: nothing serialised or encoded again).
   */
  readonly chunks: readonly Uint8Array[];
  readonly total: number;
  readonly totalPages: number;
  readonly next?: string;
  readonly previous?: string;
  /** The list's validator (as its plan's): the storage's change counter and the normalised query. */
  readonly validator: string;
}

/**
 * A list whose arguments are parsed, checked and normalised, and whose validator is known,
 * before anything is read: a caller who holds the list with this validator already (HTTP
 * `If-None-Match`) need not `run` it. The validator is read from the storage first, so a
 * list run later is never older than its validator.
 */
export interface ListPlan<B extends object = Record<string, unknown>> {
  readonly validator: string;
  /**
   * Set when the list's meaning holds for longer than an instant (its dates read the same for
   * a second at least): its validator then holds for as long as
   * `Calendar.listUnchanged(stable)` says so, which a binding may check instead of planning the
   * list again (HTTP answers a repeated `If-None-Match` that way).
   */
  readonly stable?: ListStability;
  run(): Promise<ListResult<B>>;
}

/** What a list's validator covers besides the query: who asks, and the addresses in the body. */
export function listViewKey(call: { principal?: { id: number; role?: string } | undefined; links: { siteUrl: string; apiRoot: string } }): unknown[] {
  return [call.principal?.id ?? 0, call.principal?.role ?? '', call.links.siteUrl, call.links.apiRoot];
}

/**
 * A list's result: the envelope (each list has its own key order) as an object or as JSON text
 * (the other form is made when asked for), and the totals, page links and validator for headers.
 */
export function listResult<B extends object>(
  envelope: { readonly body: B } | { readonly chunks: readonly Uint8Array[] },
  links: Pick<ListLinks, 'next' | 'previous'>, total: number, pages: number, validator: string,
): ListResult<B> {
  let body = 'body' in envelope ? envelope.body : undefined;
  let chunks = 'chunks' in envelope ? envelope.chunks : undefined;
  let json: string | undefined;
  return {
    get body() {
      // The text is this envelope's own serialisation (chunks), so it parses back to a B.
      return (body ??= JSON.parse(this.json));
    },
    get json() {
      return (json ??= body !== undefined ? JSON.stringify(body) : chunks!.map((c) => utf8Decoder.decode(c)).join(''));
    },
    get chunks() {
      return (chunks ??= [utf8.encode(this.json)]);
    },
    total,
    totalPages: pages,
    ...(links.next ? { next: links.next } : {}),
    ...(links.previous ? { previous: links.previous } : {}),
    validator,
  };
}

/** A post list's envelope as UTF-8 JSON pieces, around the items' own. */
export function postListJson(key: string, items: readonly Uint8Array[], links: ListLinks, total: number, pages: number): Uint8Array[] {
  const rest = JSON.stringify({ [key]: [], ...listFields(links, total, pages) });
  // `{"<key>":[],` … : the items go between the brackets, with commas between them.
  const open = JSON.stringify(key).length + 3;
  const out: Uint8Array[] = [utf8.encode(rest.slice(0, open))];
  items.forEach((item, i) => {
    if (i > 0) out.push(COMMA);
    out.push(item);
  });
  out.push(utf8.encode(rest.slice(open)));
  return out;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
const COMMA = utf8.encode(',');

/** The envelope keys of every list besides its items (`events`, `venues`…), as its schema declares them. */
export type ListFields = Omit<EventListJson, 'events'>;

/** The envelope of the event, venue and organizer lists, after their items: `{ venues: items, ...listFields(…) }`. */
export function listFields(links: ListLinks, total: number, pages: number): ListFields {
  return {
    rest_url: links.restUrl,
    ...(links.next ? { next_rest_url: links.next } : {}),
    ...(links.previous ? { previous_rest_url: links.previous } : {}),
    total,
    total_pages: pages,
  };
}

/** A list's parsed arguments, the page and its size. */
export async function parseList<S extends ArgSpecs>(call: Call, specs: S, input: WireArgs) {
  const { values, sent } = await parseArgs(specs, input, call.args);
  // Every list declares `page` and `per_page` with defaults (shared-args.ts).
  const paging: { readonly page?: unknown; readonly per_page?: unknown } = values;
  const page = typeof paging.page === 'number' ? paging.page : 1;
  const perPage = Math.min(typeof paging.per_page === 'number' ? paging.per_page : call.config.defaultPerPage, call.config.maxPerPage);
  return { values, sent, page, perPage };
}

/**
 * What a list's plan reads, kept by `key` (the text its validator is made from: plan-cache.ts),
 * so an unchanged list asked again is not read or rendered again. Each caller gets a result of
 * its own over the same encoded pieces (its `body` is parsed for it alone when it asks for it).
 */
export async function readList<P extends object, B extends object>(
  plans: PlanCache<P, ListResult<B>>, key: string, read: () => Promise<ListResult<B>>,
): Promise<ListResult<B>> {
  const kept = await plans.read(key, read, byteLength);
  return listResult<B>({ chunks: kept.chunks }, kept, kept.total, kept.totalPages, kept.validator);
}

function byteLength(result: ListResult<object>): number {
  let n = 0;
  for (const chunk of result.chunks) n += chunk.byteLength;
  return n;
}

/** A list's validator and the key its result is kept by: both from the change counter and everything else the list depends on. */
export function listKeys(lastChange: number, query: unknown): { validator: string; key: string } {
  const text = JSON.stringify(query);
  return { validator: listValidatorOfText(lastChange, text), key: `${lastChange} ${text}` };
}

/**
 * A list's plan: the storage's change counter read first (so the list, read later, is never
 * older than its validator), then the plan kept for the same arguments while it holds, or a
 * new one (plan-cache.ts), with the interval its dates hold for.
 */
export async function planWithCache<P extends object, R>(
  call: Call, plans: PlanCache<P, R>, input: WireArgs, make: (lastChange: number) => Promise<Planned<P>>,
): Promise<{ plan: P; stable: ListStability | undefined }> {
  const lastChange = await call.storage.lastChange();
  const { plan, validity } = await plans.plan(call, lastChange, input, () => make(lastChange));
  // A list whose dates move every millisecond (`only_with_upcoming`) has no validator worth remembering.
  return { plan, stable: validity.until > call.now + 1 ? { change: lastChange, from: validity.from, until: validity.until } : undefined };
}
