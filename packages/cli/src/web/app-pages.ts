// The two pages that are applications: `/`, the calendar (a month view and a paged list of
// upcoming events, fed by the API itself through the script this package's build bundles), and
// `/docs`, the API reference (Swagger UI over the OpenAPI document). Both in the language
// `?lang=` names, else the first of Accept-Language evcal ships.
import { LANGUAGES } from '@evcal/http';
import { html, jsonForScript } from './html';
import { pageFrame } from './page-frame';
import type { PageTexts } from './page-texts';
import { siteNav } from './record-document';

/** What the calendar page's script reads from the page (#evcal-page). */
export interface CalendarPageConfig {
  readonly apiRoot: string;
  readonly today: string;
  readonly language: string;
  /** The site's default language: its pages' addresses have no language segment. */
  readonly defaultLanguage: string;
  readonly texts: PageTexts;
}

export function calendarPage(t: PageTexts, config: CalendarPageConfig): string {
  return pageFrame({
    language: config.language,
    title: t.title,
    siteName: t.title,
    home: `/?lang=${config.language}`,
    nav: siteNav({ language: config.language, texts: t }),
    navLabel: t.siteNav,
    languages: languageChoice('/', t),
    main: html`
<h1>${t.title}</h1>
<form class="filters" id="filters">
  <label>${t.category} <select id="category" name="category"><option value="">${t.allCategories}</option></select></label>
  <label>${t.venue} <select id="venue" name="venue"><option value="">${t.allVenues}</option></select></label>
</form>
<div class="views" role="group" aria-label="${t.views}">
  <button type="button" id="view-month" aria-pressed="true">${t.month}</button>
  <button type="button" id="view-list" aria-pressed="false">${t.list}</button>
</div>
<p id="status" role="status" hidden></p>
<div id="calendar"></div>
<section id="upcoming" aria-labelledby="upcoming-title" hidden>
  <h2 id="upcoming-title">${t.upcoming}</h2>
  <ul class="events" id="upcoming-list"></ul>
  <nav class="pager" aria-label="${t.upcoming}">
    <button type="button" id="upcoming-previous">${t.previous}</button>
    <span id="upcoming-page"></span>
    <button type="button" id="upcoming-next">${t.next}</button>
  </nav>
</section>`,
    after: html`
<dialog id="details" aria-labelledby="details-title">
  <h2 id="details-title"></h2>
  <dl id="details-fields" class="facts"></dl>
  <div id="details-description"></div>
  <p><a id="details-page" href="#">${t.details}</a> · <a id="details-ics" href="#">${t.addToCalendar}</a></p>
  <section id="details-subscribe">
    <h3>${t.subscribeApp}</h3>
    <ul id="details-feeds"></ul>
  </section>
  <form method="dialog"><button>${t.close}</button></form>
</dialog>
<script type="application/json" id="evcal-page">${jsonForScript(config)}</script>
<script src="/assets/evcal/calendar-page.js"></script>`,
  });
}

/** What the reference page's script reads (#evcal-docs). */
export interface ReferencePageConfig {
  /** The OpenAPI document, in the page's language. */
  readonly url: string;
  /** evcal's name and description, shown instead of the document's (the reference's, kept for its clients). */
  readonly title: string;
  readonly description: string;
  /** The order of the resources (OpenAPI tags) on the page. */
  readonly tags: readonly string[];
  /** The name of the choice of server, in the page's language. */
  readonly servers: string;
}

export function referencePage(language: string, t: PageTexts, config: ReferencePageConfig): string {
  return pageFrame({
    language,
    title: t.referenceTitle,
    siteName: t.title,
    home: `/?lang=${language}`,
    nav: siteNav({ language, texts: t }),
    navLabel: t.siteNav,
    languages: languageChoice('/docs', t),
    head: html`
<meta name="description" content="${config.description}">
<link rel="preload" href="${config.url}" as="fetch" crossorigin="anonymous">
<link rel="stylesheet" href="/assets/swagger-ui/swagger-ui.css">
<style>${REFERENCE_CSS}</style>`,
    main: html`
<h1 class="visually-hidden">${t.referenceTitle}</h1>
<div id="reference"></div>`,
    after: html`
<script type="application/json" id="evcal-docs">${jsonForScript(config)}</script>
<script src="/assets/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/assets/evcal/reference-page.js"></script>`,
  });
}

// Swagger UI's labels drawn dark enough for their white text to be read, and its Authorize
// button (shown since /doc names its security schemes) dark enough on white (WCAG AA).
const REFERENCE_CSS = html`
.swagger-ui .info .title small { background: #50575e; }
.swagger-ui .info .title small.version-stamp { background: #2e6b00; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d5fa8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1c7a46; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a4d00; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #17705f; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b32d2e; }
.swagger-ui .btn.authorize { color: #1c7a46; border-color: #1c7a46; }
.swagger-ui .btn.authorize svg { fill: #1c7a46; }
`;

/** `/` or `/docs` in each language evcal ships (`?lang=`). */
function languageChoice(path: string, t: PageTexts) {
  return { label: t.language, links: LANGUAGES.map((language) => ({ language, href: `${path}?lang=${language}` })) };
}
