// What `evcal serve` shows a person: `/`, a month and list view of the calendar fed by the API
// itself (FullCalendar, bundled with @evcal/client into one script by this package's build),
// with filters by category and venue and each event's details; `/docs`, the API reference
// rendered from /doc by Swagger UI. Both in en, de, fr or es (`?lang=`, else Accept-Language).
// Every file is served from this package or node_modules: nothing is loaded from elsewhere.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LANGUAGES } from '@evcal/http';
import { pageTexts, type PageTexts } from './page-texts';

export interface SitePagesOptions {
  /** The API root path in each language served (`{ en: '/cal/events/v1', de: '/de/cal/events/v1' }`); the first is the default. */
  readonly apiRoots: Readonly<Record<string, string>>;
  /** The calendar's "today" (the month shown first), as YYYY-MM-DD. */
  readonly today: () => string;
}

/** A handler for the page paths (see `isSitePath`). */
export type SitePages = (request: Request) => Promise<Response>;

/** Whether a request is for the pages rather than the API (`/?rest_route=…` is the API's). */
export function isSitePath(url: string): boolean {
  // Most targets are plain API paths: a path with nothing the URL parser would rewrite (dot
  // segments, escapes, backslashes, a fragment, a leading `//`) is its own pathname.
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (path.length > 1 && path[0] === '/' && path[1] !== '/' && !/[.%\\#\s]/.test(path)) {
    return path === '/docs' || path === '/docs/' || path.startsWith('/assets/');
  }
  // `//` alone, or `//<bad host>`, is no URL to the parser (a protocol-relative address): the API answers it.
  const parsed = URL.parse(url, 'http://x');
  if (parsed === null) return false;
  const { pathname, search } = parsed;
  if (pathname === '/') return !/(^|[?&])rest(_|%5f)route=/i.test(search);
  return pathname === '/docs' || pathname === '/docs/' || pathname.startsWith('/assets/');
}

export function createSitePages(options: SitePagesOptions): SitePages {
  const served = Object.keys(options.apiRoots);
  const fallback = served[0] ?? 'en';
  const rootOf = (language: string) => options.apiRoots[language] ?? options.apiRoots[fallback] ?? '/cal/events/v1';
  return async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
    const asset = ASSETS[url.pathname];
    if (asset) return serveAsset(asset);
    if (url.pathname !== '/' && url.pathname !== '/docs' && url.pathname !== '/docs/') return text(404, 'Not Found');
    const language = pickLanguage(url.searchParams.get('lang'), request.headers.get('accept-language'), fallback);
    const texts = pageTexts(language);
    const page = url.pathname === '/'
      ? calendarPage(language, texts, { apiRoot: rootOf(language), today: options.today(), language, texts })
      : referencePage(language, texts, rootOf(language));
    return new Response(request.method === 'HEAD' ? null : page, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-language': language,
        'cache-control': 'no-cache',
        vary: 'Accept-Language',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
      },
    });
  };
}

// ---- pages ----

function calendarPage(language: string, t: PageTexts, config: Record<string, unknown>): string {
  return htmlPage(language, t.title, '', `${languageLinks('/', language, t)} <a href="/docs?lang=${language}">${escapeHtml(t.reference)}</a>`, `
<form class="filters" id="filters">
  <label>${escapeHtml(t.category)} <select id="category" name="category"><option value="">${escapeHtml(t.allCategories)}</option></select></label>
  <label>${escapeHtml(t.venue)} <select id="venue" name="venue"><option value="">${escapeHtml(t.allVenues)}</option></select></label>
</form>
<p id="status" role="status" hidden></p>
<main id="calendar"></main>
<dialog id="details" aria-labelledby="details-title">
  <h2 id="details-title"></h2>
  <dl id="details-fields"></dl>
  <div id="details-description"></div>
  <p><a id="details-ics" href="#">${escapeHtml(t.addToCalendar)}</a></p>
  <section id="details-subscribe">
    <h3>${escapeHtml(t.subscribe)}</h3>
    <ul id="details-feeds"></ul>
  </section>
  <form method="dialog"><button>${escapeHtml(t.close)}</button></form>
</dialog>
<script type="application/json" id="evcal-page">${jsonForScript(config)}</script>
<script src="/assets/evcal/calendar-page.js"></script>`);
}

function referencePage(language: string, t: PageTexts, apiRoot: string): string {
  return htmlPage(language, t.referenceTitle, '\n<link rel="stylesheet" href="/assets/swagger-ui/swagger-ui.css">', `${languageLinks('/docs', language, t)} <a href="/?lang=${language}">${escapeHtml(t.title)}</a>`, `
<main id="reference"></main>
<script type="application/json" id="evcal-docs">${jsonForScript({ url: `${apiRoot}/doc` })}</script>
<script src="/assets/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/assets/evcal/reference-page.js"></script>`);
}

/** The frame both pages share: the head (with `head` added), a header with the title and `nav`, then `body`. */
function htmlPage(language: string, title: string, head: string, nav: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>${head}
<style>${PAGE_CSS}</style>
</head>
<body>
<header>
  <h1>${escapeHtml(title)}</h1>
  <nav>${nav}</nav>
</header>${body}
</body>
</html>
`;
}

function languageLinks(path: string, current: string, t: PageTexts): string {
  const links = LANGUAGES.map((l) => (l === current
    ? `<strong>${l.toUpperCase()}</strong>`
    : `<a href="${path}?lang=${l}" hreflang="${l}" lang="${l}">${l.toUpperCase()}</a>`));
  return `<span aria-label="${escapeHtml(t.language)}">${links.join(' ')}</span>`;
}

const PAGE_CSS = `
:root { font-family: system-ui, sans-serif; color: #1d2327; }
body { margin: 0 auto; max-width: 1100px; padding: 1rem; }
header { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 1rem; }
header h1 { margin: 0 0 .5rem; font-size: 1.6rem; }
nav a, nav strong { margin-left: .4rem; }
.filters { display: flex; flex-wrap: wrap; gap: 1rem; margin: .5rem 0 1rem; }
.filters select { margin-left: .3rem; }
#status { color: #b32d2e; }
dialog { max-width: 34rem; border: 1px solid #c3c4c7; border-radius: .5rem; }
dialog dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
dialog dt { font-weight: 600; }
dialog dd { margin: 0; }
dialog h3 { font-size: 1rem; margin: 1rem 0 .3rem; }
#details-feeds { padding-left: 1.2rem; margin: 0 0 1rem; }
#details-feeds a { margin-left: .5rem; }
.fc-event { cursor: pointer; }
`;

// ---- assets ----

interface Asset {
  readonly file: () => string;
  readonly type: string;
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
/** The browser scripts this package's build writes (tsup.config.ts). */
const built = (file: string) => () => join(packageDir('@evcal/cli'), 'dist', 'web', file);

const ASSETS: Readonly<Record<string, Asset>> = {
  '/assets/evcal/calendar-page.js': { file: built('calendar-page.global.js'), type: 'text/javascript; charset=utf-8' },
  '/assets/evcal/reference-page.js': { file: built('reference-page.global.js'), type: 'text/javascript; charset=utf-8' },
  '/assets/swagger-ui/swagger-ui-bundle.js': { file: () => join(packageDir('swagger-ui-dist'), 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  '/assets/swagger-ui/swagger-ui.css': { file: () => join(packageDir('swagger-ui-dist'), 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
};

async function serveAsset(asset: Asset): Promise<Response> {
  let body: Buffer;
  try {
    body = await readFile(asset.file());
  } catch {
    return text(404, 'Not Found (run `npm run build` to build the page scripts)');
  }
  return new Response(new Uint8Array(body), {
    headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
  });
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

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON inside a <script> element: `<` escaped so no text can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
