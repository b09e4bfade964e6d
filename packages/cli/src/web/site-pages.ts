// What `evcal serve` shows a person and a search engine, besides the API: `/` (the calendar),
// `/docs` (the API reference), a page at each public record's address (`/event/<slug>/`, …,
// and the same in each language under `/<language>/`), `/sitemap.xml`, the icon, and the
// files these pages load. Every file is served from this package or node_modules: nothing is
// loaded from elsewhere.
import type { Calendar } from '@evcal/core';
import { LANGUAGES } from '@evcal/http';
import { calendarPage, referencePage } from './app-pages';
import { serveAsset, warmAssets } from './assets';
import { FAVICON_SVG } from './favicon';
import { recordAddress } from './page-address';
import { pageTexts } from './page-texts';
import { createRecordPages, PAGE_HEADERS } from './record-pages';
import { createSitemap, isSitemapPath } from './sitemap';

export interface SitePagesOptions {
  readonly calendar: Calendar;
  /** The API root path in each language served (`{ en: '/cal/events/v1', de: '/de/cal/events/v1' }`); the first is the default. */
  readonly apiRoots: Readonly<Record<string, string>>;
  /** The calendar's "today" (the month shown first), as YYYY-MM-DD. */
  readonly today: () => string;
  /** Told of unexpected failures. @default console.error */
  readonly onError?: (error: unknown) => void;
  /** Addresses per sitemap file. @default 10000 */
  readonly sitemapUrlsPerFile?: number;
}

/** A handler for the page paths (see `isSitePath`). */
export type SitePages = (request: Request) => Promise<Response>;

/** The order of the API's resources on the reference page (the tags /doc gives its operations). */
const RESOURCES = ['events', 'venues', 'organizers', 'categories', 'tags', 'changes', 'webhooks', 'doc'];

/** Whether a request is for the pages rather than the API (`/?rest_route=…` is the API's). */
export function isSitePath(url: string): boolean {
  // Most targets are plain paths: a path with nothing the URL parser would rewrite (dot
  // segments, escapes, backslashes, a fragment, a leading `//`) is its own pathname.
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (path.length > 1 && path[0] === '/' && path[1] !== '/' && !/[.%\\#\s]/.test(path)) return isSitePathname(path, '');
  // `//` alone, or `//<bad host>`, is no URL to the parser (a protocol-relative address): the API answers it.
  const parsed = URL.parse(url, 'http://x');
  return parsed !== null && isSitePathname(parsed.pathname, parsed.search);
}

/** Whether a pathname (as the URL parser gives it) is one of the pages'. */
export function isSitePathname(pathname: string, search: string): boolean {
  if (pathname === '/') return !/(^|[?&])rest(_|%5f)route=/i.test(search);
  return pathname === '/docs' || pathname === '/docs/' || pathname.startsWith('/assets/') || pathname === '/favicon.ico' || pathname === '/favicon.svg'
    || isSitemapPath(pathname) || recordAddress(pathname) !== undefined;
}

export function createSitePages(options: SitePagesOptions): SitePages {
  const served = Object.keys(options.apiRoots);
  const fallback = served[0] ?? 'en';
  const rootOf = (language: string) => options.apiRoots[language] ?? options.apiRoots[fallback] ?? '/cal/events/v1';
  const onError = options.onError ?? ((error: unknown) => console.error('evcal: unexpected error', error));
  const records = createRecordPages({ calendar: options.calendar, defaultLanguage: fallback, apiRootOf: rootOf, today: options.today, onError });
  warmAssets();
  const sitemap = createSitemap({ calendar: options.calendar, ...(options.sitemapUrlsPerFile ? { urlsPerFile: options.sitemapUrlsPerFile } : {}) });
  return async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    const { pathname } = url;
    if (pathname.startsWith('/assets/')) return serveAsset(pathname, request);
    if (pathname === '/favicon.svg') return new Response(FAVICON_SVG, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' } });
    if (pathname === '/favicon.ico') return new Response(null, { status: 301, headers: { location: '/favicon.svg', 'cache-control': 'public, max-age=86400' } });
    const address = recordAddress(pathname);
    if (address) return records(request, address);
    if (isSitemapPath(pathname)) {
      try {
        return await sitemap(request);
      } catch (error) {
        onError(error);
        return text(503, 'Service Unavailable', { 'retry-after': '30' });
      }
    }
    if (pathname !== '/' && pathname !== '/docs' && pathname !== '/docs/') return text(404, 'Not Found');
    const language = pickLanguage(url.searchParams.get('lang'), request.headers.get('accept-language'), fallback);
    const t = pageTexts(language);
    const page = pathname === '/'
      ? calendarPage(t, { apiRoot: rootOf(language), today: options.today(), language, defaultLanguage: fallback, texts: t })
      : referencePage(language, t, { url: `${rootOf(language)}/doc`, title: t.apiName, description: t.apiDescription, tags: RESOURCES, servers: t.servers });
    return new Response(request.method === 'HEAD' ? null : page, {
      headers: { ...PAGE_HEADERS, 'content-language': language, vary: 'Accept-Language', 'referrer-policy': 'same-origin' },
    });
  };
}

// ---- helpers ----

/** `?lang=` when it names a language evcal ships, else the first of Accept-Language that does, else `fallback`. */
function pickLanguage(requested: string | null, acceptLanguage: string | null, fallback: string): string {
  const known = (tag: string | null | undefined) => {
    const base = tag?.trim().toLowerCase().split('-')[0];
    return base && LANGUAGES.includes(base) ? base : undefined;
  };
  const asked = known(requested);
  if (asked) return asked;
  const ranked = (acceptLanguage ?? '').split(',')
    .map((part, i) => {
      const [tag, ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const language = known(tag);
    if (language) return language;
  }
  return known(fallback) ?? 'en';
}

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } });
}
