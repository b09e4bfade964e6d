// Reading a whole site through the reference's lists, with its rules: per_page at most 50,
// next_rest_url to the next page (whose term-list form loses every filter, so terms keep
// their own), a 404 for a page past the end of a post list, a default date window that hides
// past events (the whole range is asked for), and anonymous callers seeing published records
// only (with credentials every status is asked for by name).
import { MigrationError } from './migration-error';
import { errorOf, type SourceClient, type SourceResponse } from './source-client';
import type { Json, SourceKind } from './wire-records';

export const COLLECTIONS = { category: 'categories', tag: 'tags', venue: 'venues', organizer: 'organizers', event: 'events' } as const satisfies Record<SourceKind, string>;

/** Every status a migration reads with credentials (`any` is not accepted by the reference). */
export const READ_STATUSES = 'publish,future,draft,pending,private,trash';
/** The reference's largest page. */
export const PER_PAGE = 50;
/** Wide enough for every event: the default window starts yesterday and ends in two years. */
const ALL_DATES = { start_date: '1900-01-01 00:00:00', end_date: '2999-12-31 23:59:59' };

export interface ListedPage {
  readonly items: Json[];
  /** The source's count of the whole list (X-TEC-Total or `total`), from the first page. */
  readonly total: number | undefined;
}

/** Checks that `client.root` is the reference's API root and that the credentials, if any, work. */
export async function probeSource(client: SourceClient): Promise<void> {
  const res = await client.get(client.url(''), { retryNetwork: false });
  const body = res.body as Json | null;
  if (res.status === 401) {
    throw client.authenticated
      ? new MigrationError('bad_credentials', `${client.root} refused the credentials (401 ${errorOf(body)?.code ?? ''}): check --user and the application password`)
      : new MigrationError('bad_credentials', `${client.root} asks for credentials (401): give --user and --password`);
  }
  if (res.status === 404) {
    throw new MigrationError('not_found', `nothing at ${client.root} (404): --from must be the API root, e.g. https://example.org/wp-json/tribe/events/v1`);
  }
  if (res.status !== 200) throw new MigrationError('http_error', `${client.root} answered ${res.status}${describe(body)}`);
  const namespaces = body && Array.isArray(body.namespaces) ? (body.namespaces as unknown[]) : [];
  if (namespaces.includes('tribe/events/v1')) {
    throw new MigrationError('not_found', `${client.root} is the site's REST index; the API root is ${client.root}/tribe/events/v1`);
  }
  const namespace = body && typeof body.namespace === 'string' ? body.namespace : undefined;
  const routes = body && body.routes && typeof body.routes === 'object' ? Object.keys(body.routes) : [];
  if (!namespace || !routes.includes(`/${namespace}/events`) || !routes.includes(`/${namespace}/venues`)) {
    throw new MigrationError('not_reference', `${client.root} is not The Events Calendar's REST API (its answer lists no /events and /venues routes)`);
  }
  if (client.authenticated) {
    const drafts = await client.get(client.url('/events', { per_page: '1', status: READ_STATUSES, ...ALL_DATES }));
    if (drafts.status === 401) throw new MigrationError('bad_credentials', `${client.root} refused the credentials (401): check --user and the application password`);
    if (drafts.status !== 200) {
      throw new MigrationError('forbidden', `these credentials may not read unpublished events (${drafts.status}${describe(drafts.body)}): use an editor's or administrator's application password`);
    }
  }
}

/** The pages of a list, each fetched while the previous one is being processed. */
export async function* listPages(client: SourceClient, kind: SourceKind): AsyncGenerator<ListedPage> {
  const collection = COLLECTIONS[kind];
  const terms = kind === 'category' || kind === 'tag';
  const first: Record<string, string> = { per_page: String(PER_PAGE) };
  if (terms) Object.assign(first, { hide_empty: 'false', orderby: 'id', order: 'asc' });
  else if (client.authenticated) first.status = READ_STATUSES;
  if (kind === 'event') Object.assign(first, ALL_DATES);

  let total: number | undefined;
  let totalPages: number | undefined;
  let pending: Promise<SourceResponse | undefined> | undefined = fetchPage(client, kind, client.url(`/${collection}`, first), 1);
  for (let page = 1; pending; page++) {
    const res = await pending;
    pending = undefined;
    if (!res) return;
    const body = res.body as Json;
    const items = Array.isArray(body[collection]) ? (body[collection] as Json[]) : undefined;
    if (!items) throw new MigrationError('not_reference', `${client.root}/${collection} answered without a "${collection}" list`);
    if (page === 1) {
      total = res.total ?? (typeof body.total === 'number' ? body.total : undefined);
      totalPages = typeof body.total_pages === 'number' ? body.total_pages : undefined;
    }
    const next = typeof body.next_rest_url === 'string' ? client.paramsOf(body.next_rest_url) : undefined;
    // A next page is followed through the source's own address for it (its next_rest_url);
    // for terms only its page number, since the reference drops every other parameter there.
    const nextParams = next && items.length > 0 ? (terms ? { ...first, page: next.page ?? String(page + 1) } : next) : undefined;
    // Past the page after the last one the source announced, a next_rest_url is not believed.
    const capped = totalPages !== undefined && page > totalPages;
    if (nextParams && !capped) {
      pending = fetchPage(client, kind, client.url(`/${collection}`, nextParams), page + 1);
      // Awaited on the next turn; a run stopped before then must not leave its failure unhandled.
      pending.catch(() => undefined);
    }
    yield { items, total };
  }
}

/** One record by id; `edit` asks for `context=edit`, which unlocks protected content for editors. */
export async function fetchSingle(client: SourceClient, kind: SourceKind, id: number, edit: boolean): Promise<{ status: number; body: Json }> {
  const res = await client.get(client.url(`/${COLLECTIONS[kind]}/${id}`, edit && client.authenticated ? { context: 'edit' } : {}));
  if (res.status === 401) throw new MigrationError('bad_credentials', `${client.root} refused the credentials (401)`);
  return { status: res.status, body: (res.body ?? {}) as Json };
}

// ---- helpers ----

async function fetchPage(client: SourceClient, kind: SourceKind, url: string, page: number): Promise<SourceResponse | undefined> {
  const res = await client.get(url);
  if (res.status === 200) return res;
  const error = errorOf(res.body);
  // The reference's answer to a page past the end of an event, venue or organizer list.
  if (res.status === 404 && page > 1 && error?.code.endsWith('archive-page-not-found')) return undefined;
  if (res.status === 401) throw new MigrationError('bad_credentials', `${client.root} refused the credentials (401)`);
  if (res.status === 400 && error?.code === 'rest_invalid_param' && client.authenticated) {
    throw new MigrationError('forbidden', `these credentials may not list every ${kind} status (${error.message})`);
  }
  throw new MigrationError('http_error', `${url} answered ${res.status}${describe(res.body)}`);
}

function describe(body: unknown): string {
  const error = errorOf(body);
  return error ? ` (${error.code}${error.message ? `: ${error.message}` : ''})` : '';
}
