// The record pages' handler: reads the record and what its page lists through the calendar's
// own operations, as an anonymous caller (so a page shows exactly what the API shows anyone:
// no draft, pending, scheduled, private or password-protected record, and a 404 page for
// those), answers 304 to a matching If-None-Match (weak tags made as the API's lists make
// theirs, from the validators of everything the page shows), else renders the page.
import { isCalendarError, type Calendar, type CallContext, type EventJson } from '@evcal/core';
import { entityTag, noneMatch, parseEntityTags, variantOf } from '@evcal/http';
import { eventDocument } from './event-view';
import { html } from './html';
import { organizerDocument, termDocument, venueDocument, type EventsPage } from './listing-views';
import type { RecordAddress } from './page-address';
import { pageFrame } from './page-frame';
import { pageTexts } from './page-texts';
import { siteNav, type ListedEvent, type PageContext } from './record-document';

export interface RecordPagesOptions {
  readonly calendar: Calendar;
  /** The language of the addresses without a language segment. */
  readonly defaultLanguage: string;
  /** The API root path the pages of a language link to (`/de/cal/events/v1`). */
  readonly apiRootOf: (language: string) => string;
  /** The calendar's today, YYYY-MM-DD. */
  readonly today: () => string;
  /** Told of unexpected failures (the visitor gets a plain 500 page). */
  readonly onError: (error: unknown) => void;
}

/** Upcoming events a venue's, organizer's or term's page lists at a time; a series' next dates. */
const PER_PAGE = 10;
const NEXT_DATES = 5;

export function createRecordPages(options: RecordPagesOptions): (request: Request, address: RecordAddress) => Promise<Response> {
  const { calendar } = options;
  return async (request, address) => {
    const url = new URL(request.url);
    const language = address.language ?? options.defaultLanguage;
    const siteRoot = url.origin;
    const apiRoot = `${siteRoot}${options.apiRootOf(language)}`;
    const ctx: PageContext = { language, defaultLanguage: options.defaultLanguage, texts: pageTexts(language), siteRoot, apiRoot, today: options.today() };
    const call: CallContext = { links: { siteUrl: siteRoot, apiRoot } };
    const page = pageNumber(url.searchParams.get('page'));
    try {
      const loaded = await load(calendar, address, call, page);
      if (loaded === undefined) return notFound(ctx, request);
      const etag = entityTag(variantOf(loaded.validators), variantOf(['page', address.kind, language, siteRoot, apiRoot, page]), true);
      const headers = { ...PAGE_HEADERS, 'content-language': language, etag };
      if (!noneMatch(parseEntityTags(request.headers.get('if-none-match')), etag)) return new Response(null, { status: 304, headers });
      return new Response(request.method === 'HEAD' ? null : loaded.render(ctx), { headers });
    } catch (error) {
      // A record the API would refuse an anonymous caller (missing, unpublished, protected, in
      // the trash), or a page past the last: no such page. The storage out of reach: try later.
      if (isCalendarError(error) && error.code !== 'unavailable') return notFound(ctx, request);
      if (!isCalendarError(error)) options.onError(error);
      return errorPage(ctx, request, isCalendarError(error) ? 503 : 500);
    }
  };
}

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

interface Loaded {
  /** The validators of everything the page shows. */
  readonly validators: readonly (string | undefined)[];
  readonly render: (ctx: PageContext) => string;
}

async function load(calendar: Calendar, { kind, slug }: RecordAddress, call: CallContext, page: number): Promise<Loaded | undefined> {
  const upcoming = async (filter: Record<string, unknown>) => {
    const list = await calendar.events.list({ ...filter, page, per_page: PER_PAGE }, call);
    return { validator: list.validator, page: { events: list.body.events as readonly ListedEvent[], page, pages: list.totalPages } satisfies EventsPage };
  };
  switch (kind) {
    case 'event': {
      const { value: event, validator } = await calendar.events.getBySlug({ slug }, call);
      const series = event.post_parent !== undefined ? await readable(calendar.events.get({ id: event.post_parent }, call)) : undefined;
      const seriesId = event.post_parent ?? (event.recurrence ? event.id : undefined);
      const next = seriesId === undefined ? undefined : await calendar.events.list({ post_parent: seriesId, per_page: NEXT_DATES }, call);
      return {
        validators: [validator, series?.validator, next?.validator],
        render: (ctx) => eventDocument(ctx, { event, series: series?.value, nextDates: next?.body.events as readonly EventJson[] | undefined }),
      };
    }
    case 'venue': {
      const { value: venue, validator } = await calendar.venues.getBySlug({ slug }, call);
      const events = await upcoming({ venue: [venue.id] });
      return { validators: [validator, events.validator], render: (ctx) => venueDocument(ctx, venue, events.page) };
    }
    case 'organizer': {
      const { value: organizer, validator } = await calendar.organizers.getBySlug({ slug }, call);
      const events = await upcoming({ organizer: [organizer.id] });
      return { validators: [validator, events.validator], render: (ctx) => organizerDocument(ctx, organizer, events.page) };
    }
    case 'category':
    case 'tag': {
      const terms = kind === 'category'
        ? await calendar.categories.list({ slug, hide_empty: false }, call)
        : await calendar.tags.list({ slug, hide_empty: false }, call);
      const term = ('categories' in terms.body ? terms.body.categories : terms.body.tags)[0];
      if (term === undefined) return undefined;
      const events = await upcoming(kind === 'category' ? { categories: [term.id] } : { tags: [term.id] });
      return { validators: [terms.validator, events.validator], render: (ctx) => termDocument(ctx, term, events.page) };
    }
  }
}

/** A read that may be refused (a series an occurrence names): undefined then. */
async function readable<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isCalendarError(error) && error.code !== 'unavailable') return undefined;
    throw error;
  }
}

/** `?page=`: a whole number from 1, else the first page. */
function pageNumber(value: string | null): number {
  const n = Number(value);
  return value !== null && /^\d+$/.test(value) && n >= 1 ? n : 1;
}

function notFound(ctx: PageContext, request: Request): Response {
  return errorPage(ctx, request, 404);
}

/** A page saying there is no such page (404), or that it cannot be shown now (503, 500). */
function errorPage(ctx: PageContext, request: Request, status: 404 | 500 | 503): Response {
  const t = ctx.texts;
  const title = status === 404 ? t.notFound : t.unavailable;
  const body = pageFrame({
    language: ctx.language, title, siteName: t.title, home: `/?lang=${ctx.language}`, nav: siteNav(ctx), navLabel: t.siteNav,
    head: html`\n<meta name="robots" content="noindex">`,
    languages: { label: t.language, links: [] },
    main: html`<h1>${title}</h1>${status === 404 && html`<p>${t.notFoundText}</p>`}<p><a href="/?lang=${ctx.language}">${t.calendar}</a></p>`,
  });
  return new Response(request.method === 'HEAD' ? null : body, {
    status, headers: { ...PAGE_HEADERS, 'content-language': ctx.language, ...(status === 503 ? { 'retry-after': '30' } : {}) },
  });
}
