// `/sitemap.xml` (sitemaps.org 0.9): the public pages — events (occurrences included, past
// ones too), venues, organizers, categories and tags — at their canonical addresses, with
// `lastmod` from the records' modification dates. The records are read as an anonymous
// caller reads the API's lists, page by page, so nothing unpublished is listed (nor anything
// password-protected, which lists show redacted and which has no page). Up to
// `urlsPerFile` addresses it is one file; beyond, `/sitemap.xml` is an index of files
// `/sitemap-<kind>-<n>.xml` of at most that many each (a sitemap may hold 50,000).
import { isCalendarError, type Calendar, type CallContext } from '@evcal/core';
import { entityTag, noneMatch, parseEntityTags, variantOf } from '@evcal/http';
import { escapeHtml } from './html';
import { isRedacted } from './redaction';

export interface SitemapOptions {
  readonly calendar: Calendar;
  /** Addresses per file (rounded down to whole list pages). @default 10000 */
  readonly urlsPerFile?: number;
}

const KINDS = ['events', 'venues', 'organizers', 'categories', 'tags'] as const;
type Kind = (typeof KINDS)[number];

interface Entry {
  readonly loc: string;
  readonly lastmod?: string;
}

interface ListPage {
  readonly entries: readonly Entry[];
  readonly total: number;
  readonly validator: string;
}

/** Whether a path is the sitemap or one of its files. */
export function isSitemapPath(pathname: string): boolean {
  return pathname === '/sitemap.xml' || /^\/sitemap-(events|venues|organizers|categories|tags)-[1-9]\d*\.xml$/.test(pathname);
}

export function createSitemap(options: SitemapOptions): (request: Request) => Promise<Response> {
  const { calendar } = options;
  const perPage = calendar.config.maxPerPage;
  const pagesPerFile = Math.max(1, Math.floor((options.urlsPerFile ?? 10_000) / perPage));
  const perFile = pagesPerFile * perPage;

  /** One page of a kind's list, as sitemap entries. */
  async function listPage(kind: Kind, page: number, call: CallContext): Promise<ListPage> {
    if (kind === 'events') {
      // Every public event, past ones too: from long ago, with no end.
      const list = await calendar.events.list({ starts_after: '1900-01-01', page, per_page: perPage }, call);
      const events = list.body.events.filter((e) => !isRedacted(e, 'event'));
      return { entries: events.map((e) => ({ loc: e.url, lastmod: w3c(e.modified_utc) })), total: list.total, validator: list.validator };
    }
    if (kind === 'venues' || kind === 'organizers') {
      const list = await calendar[kind].list({ page, per_page: perPage }, call);
      const items = 'venues' in list.body ? list.body.venues.filter((v) => !isRedacted(v, 'venue')) : list.body.organizers.filter((o) => !isRedacted(o, 'organizer'));
      return { entries: items.map((p) => ({ loc: p.url, lastmod: w3c(p.modified_utc) })), total: list.total, validator: list.validator };
    }
    // Terms no public event uses have no page worth listing (hide_empty, the default).
    const list = await calendar[kind].list({ page, per_page: perPage }, call);
    const items = 'categories' in list.body ? list.body.categories : list.body.tags;
    return { entries: items.map((t) => ({ loc: t.url })), total: list.total, validator: list.validator };
  }

  /** Pages `from`..`to` of a kind (the first already read, when given). */
  async function pages(kind: Kind, from: number, to: number, call: CallContext, first?: ListPage): Promise<ListPage[]> {
    const out: ListPage[] = first ? [first] : [];
    for (let page = first ? from + 1 : from; page <= to; page++) out.push(await listPage(kind, page, call));
    return out;
  }

  return async (request) => {
    const url = new URL(request.url);
    const siteRoot = url.origin;
    const call: CallContext = { links: { siteUrl: siteRoot, apiRoot: siteRoot } };
    let body: string;
    let validators: string[];
    const file = /^\/sitemap-([a-z]+)-(\d+)\.xml$/.exec(url.pathname);
    if (file) {
      const kind = file[1] as Kind;
      const n = Number(file[2]);
      const first = await listPage(kind, (n - 1) * pagesPerFile + 1, call).catch(pastTheEnd);
      if (!first || first.entries.length === 0) return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      const read = await pages(kind, (n - 1) * pagesPerFile + 1, Math.min(n * pagesPerFile, Math.ceil(first.total / perPage)), call, first);
      validators = read.map((p) => p.validator);
      body = urlset(read.flatMap((p) => p.entries));
    } else {
      const firsts = await Promise.all(KINDS.map((kind) => listPage(kind, 1, call)));
      const total = firsts.reduce((sum, p) => sum + p.total, 0);
      validators = firsts.map((p) => p.validator);
      if (total <= perFile) {
        const read = await Promise.all(KINDS.map((kind, i) => pages(kind, 1, Math.ceil(firsts[i]!.total / perPage), call, firsts[i])));
        validators = read.flat().map((p) => p.validator);
        body = urlset(read.flat().flatMap((p) => p.entries));
      } else {
        body = sitemapIndex(KINDS.flatMap((kind, i) => Array.from({ length: Math.ceil(firsts[i]!.total / perFile) }, (_, j) => `${siteRoot}/sitemap-${kind}-${j + 1}.xml`)));
      }
    }
    const etag = entityTag(variantOf(validators), variantOf(['sitemap', url.pathname, siteRoot, perFile]), true);
    const headers = { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', etag };
    if (!noneMatch(parseEntityTags(request.headers.get('if-none-match')), etag)) return new Response(null, { status: 304, headers });
    return new Response(request.method === 'HEAD' ? null : body, { headers });
  };
}

// ---- helpers ----

/** A file past the last page of its list has nothing to list; any other failure is the caller's to answer. */
function pastTheEnd(error: unknown): undefined {
  if (isCalendarError(error) && error.code !== 'unavailable') return undefined;
  throw error;
}

function urlset(entries: readonly Entry[]): string {
  const urls = entries.map((e) => `<url><loc>${escapeHtml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function sitemapIndex(files: readonly string[]): string {
  const items = files.map((loc) => `<sitemap><loc>${escapeHtml(loc)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}

/** "2026-11-22 12:00:00" (UTC) as W3C Datetime. */
function w3c(utc: string): string {
  return `${utc.replace(' ', 'T')}+00:00`;
}
