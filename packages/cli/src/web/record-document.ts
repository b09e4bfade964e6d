// What the record pages share: the reader's context (language, texts, addresses), the document
// around a record's content (frame, metadata, the page in each language), and the pieces several
// pages show (a list of events, a pager, a venue's address and map link).
import { LANGUAGES } from '@evcal/http';
import { eventStart } from './event-when';
import { html, textOf, type Html } from './html';
import { inLanguage } from './page-address';
import { pageFrame } from './page-frame';
import { pageMeta } from './page-meta';
import { isRedacted } from './redaction';
import type { PageTexts } from './page-texts';

export interface PageContext {
  /** The page's language, and the site's default one (whose addresses have no language segment). */
  readonly language: string;
  readonly defaultLanguage: string;
  readonly texts: PageTexts;
  /** The public origin of the site, no trailing slash. */
  readonly siteRoot: string;
  /** The API root the page's links use (the page's language's, where the API serves it), absolute. */
  readonly apiRoot: string;
  /** The calendar's today, YYYY-MM-DD. */
  readonly today: string;
}

/** A record's address in the page's language. */
export function here(ctx: PageContext, url: string): string {
  return inLanguage(url, ctx.siteRoot, ctx.language, ctx.defaultLanguage);
}

export interface RecordDocument {
  /** The record's `url` (its page in the default language). */
  readonly url: string;
  readonly title: string;
  /** Plain text for the metadata. */
  readonly description: string;
  readonly image: string | undefined;
  readonly jsonLd: readonly object[];
  readonly main: Html;
}

/** A record's whole page. */
export function recordDocument(ctx: PageContext, doc: RecordDocument): string {
  const alternates = LANGUAGES.map((language) => ({ language, href: inLanguage(doc.url, ctx.siteRoot, language, ctx.defaultLanguage) }));
  const t = ctx.texts;
  return pageFrame({
    language: ctx.language,
    title: `${doc.title} – ${t.title}`,
    head: pageMeta({
      canonical: here(ctx, doc.url), alternates, defaultLanguage: ctx.defaultLanguage, language: ctx.language,
      title: doc.title, description: doc.description, image: doc.image, siteName: t.title, jsonLd: doc.jsonLd,
    }),
    siteName: t.title,
    home: `/?lang=${ctx.language}`,
    nav: siteNav(ctx),
    navLabel: t.siteNav,
    languages: { label: t.language, links: alternates },
    main: doc.main,
  });
}

/** The header's links: the calendar and the API reference. */
export function siteNav(ctx: { language: string; texts: PageTexts }): Html {
  return html`<a href="/?lang=${ctx.language}">${ctx.texts.calendar}</a> <a href="/docs?lang=${ctx.language}">${ctx.texts.reference}</a>`;
}

/** An event in a list: what, when, where. */
export interface ListedEvent {
  readonly id: number;
  readonly url: string;
  readonly title: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly all_day?: boolean | null | undefined;
  readonly timezone: string;
  readonly venue: unknown;
}


/** A list of events, each linking its page, with its start and its place (protected ones, which have no page, left out). */
export function eventList(ctx: PageContext, listed: readonly ListedEvent[], current?: number): Html {
  const events = listed.filter((e) => !isRedacted(e, 'event'));
  if (events.length === 0) return html`<p>${ctx.texts.noEvents}</p>`;
  const year = ctx.today.slice(0, 4);
  return html`<ul class="events">${events.map((e) => {
    const place = venuesOf(e.venue).map((v) => [v.venue, v.city].filter(Boolean).join(', ')).filter(Boolean).join('; ');
    return html`
<li><a href="${here(ctx, e.url)}"${e.id === current ? html` aria-current="page"` : ''}>${textOf(e.title)}</a>
<span class="when">${eventStart(e, ctx.language, year)}</span>${place && html`<span class="where">${place}</span>`}</li>`;
  })}
</ul>`;
}

/** Previous and next links of a paged list (`?page=`). */
export function pager(ctx: PageContext, page: number, pages: number): Html {
  if (pages <= 1) return html``;
  const t = ctx.texts;
  return html`<nav class="pager" aria-label="${t.upcoming}">${page > 1 && html`<a href="?page=${page - 1}" rel="prev">${t.previous}</a>`}
<span>${t.pageOf.replace('{page}', String(page)).replace('{pages}', String(pages))}</span>${page < pages && html`<a href="?page=${page + 1}" rel="next">${t.next}</a>`}</nav>`;
}

/** A venue as the API gives it (embedded in an event, or on its own). */
export interface VenueFields {
  readonly url?: string;
  readonly venue?: unknown;
  readonly address?: string;
  readonly city?: string;
  readonly stateprovince?: string;
  readonly state?: string;
  readonly province?: string;
  readonly zip?: string;
  readonly country?: string;
  readonly geo_lat?: number;
  readonly geo_lng?: number;
}

/** An event's venues (one object, a list, or [] for none), with their names as text. */
export function venuesOf(value: unknown): (VenueFields & { venue: string })[] {
  const list = (Array.isArray(value) ? value : [value]) as VenueFields[];
  return list.filter((v) => typeof v === 'object' && v !== null).map((v) => ({ ...v, venue: typeof v.venue === 'string' ? textOf(v.venue) : '' }));
}

/** "Via Roma 1, Rome, 00100, Italy". */
export function addressOf(v: VenueFields): string {
  return [v.address, v.city, v.stateprovince || v.state || v.province, v.zip, v.country].filter((x) => typeof x === 'string' && x !== '').join(', ');
}

/** A map of the venue (OpenStreetMap): at its coordinates, else a search for its address; none without either. */
export function mapUrl(v: VenueFields): string | undefined {
  if (typeof v.geo_lat === 'number' && typeof v.geo_lng === 'number' && (v.geo_lat !== 0 || v.geo_lng !== 0)) {
    return `https://www.openstreetmap.org/?mlat=${v.geo_lat}&mlon=${v.geo_lng}#map=17/${v.geo_lat}/${v.geo_lng}`;
  }
  const address = addressOf(v);
  return address ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}` : undefined;
}
