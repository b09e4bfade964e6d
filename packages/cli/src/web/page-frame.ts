// The frame every page of `evcal serve` shares: the document head (with the page's own
// metadata), one stylesheet, a header with the site's name and the language choice, the page's
// main content. Pages differ by what they put in; they all read the same way to a person and
// to a screen reader (one <header>, one <main>, labelled navigation).
import { html, type Html } from './html';

export interface FrameOptions {
  readonly language: string;
  /** The document's title (the tab, bookmarks, search results). */
  readonly title: string;
  /** The page's own head elements (metadata, stylesheets). */
  readonly head?: Html;
  /** The header's navigation (links to the other pages), and its label. */
  readonly nav: Html;
  readonly navLabel: string;
  /** The language choice: each language's address of this page. */
  readonly languages: LanguageChoice;
  /** What <main> holds. */
  readonly main: Html;
  /** After <main>: dialogs, scripts. */
  readonly after?: Html;
  /** The site's name, in the header. */
  readonly siteName: string;
  /** Where the site's name links to. */
  readonly home: string;
}

export interface LanguageChoice {
  /** "Language", in the page's language: the navigation's label. */
  readonly label: string;
  /** Each language's address of the page, in the order shown. */
  readonly links: readonly { readonly language: string; readonly href: string }[];
}

/** The whole document. */
export function pageFrame(o: FrameOptions): string {
  const languages = o.languages.links.map(({ language, href }) => (language === o.language
    ? html`<a href="${href}" aria-current="page" lang="${language}">${language.toUpperCase()}</a>`
    : html`<a href="${href}" hreflang="${language}" lang="${language}">${language.toUpperCase()}</a>`));
  return html`<!doctype html>
<html lang="${o.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">${o.head}
<style>${PAGE_CSS}</style>
</head>
<body>
<header class="site">
  <p class="site-name"><a href="${o.home}">${o.siteName}</a></p>
  <nav class="site-nav" aria-label="${o.navLabel}">${o.nav}</nav>
  ${languages.length > 0 && html`<nav class="languages" aria-label="${o.languages.label}">${languages}</nav>`}
</header>
<main id="main">
${o.main}
</main>${o.after}
</body>
</html>
`.text;
}

// One stylesheet for every page: readable at 390 px (nothing wider than the screen: long words
// and addresses wrap, tables and the calendar scroll inside their own box) and at 1280 px.
const PAGE_CSS = html`
:root { font-family: system-ui, sans-serif; color: #1d2327; line-height: 1.45; }
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0 auto; max-width: 1100px; padding: .75rem 1rem 2rem; overflow-wrap: anywhere; }
a { color: #0a4b78; }
header.site { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; border-bottom: 1px solid #dcdcde; padding-bottom: .5rem; margin-bottom: 1rem; }
.site-name { margin: 0; font-weight: 700; font-size: 1.1rem; }
.site-name a { color: inherit; text-decoration: none; }
.site-nav, .languages { display: flex; flex-wrap: wrap; gap: .25rem .75rem; }
.languages { margin-left: auto; }
.languages a[aria-current] { font-weight: 700; color: inherit; text-decoration: none; }
h1 { margin: .25rem 0 .75rem; font-size: 1.6rem; line-height: 1.2; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
img { max-width: 100%; height: auto; }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .35rem 1rem; margin: 0 0 1rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; padding: 0; margin: .25rem 0 1rem; list-style: none; }
.actions a { display: inline-block; padding: .35rem .7rem; border: 1px solid #0a4b78; border-radius: .3rem; text-decoration: none; }
.events { list-style: none; padding: 0; margin: 0 0 1rem; }
.events li { padding: .5rem 0; border-bottom: 1px solid #dcdcde; }
.events .when, .events .where { display: block; color: #50575e; font-size: .95rem; }
.pager { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .5rem 0 1rem; }
.pager button { font: inherit; padding: .35rem .8rem; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; margin: 0 0 1rem; }
.filters select { margin-left: .3rem; max-width: 14rem; font: inherit; }
.views { display: flex; gap: .5rem; margin: 0 0 .75rem; }
.views button { font: inherit; padding: .35rem .8rem; border: 1px solid #2c3338; background: #fff; color: #1d2327; border-radius: .3rem; }
.views button[aria-pressed="true"] { background: #2c3338; color: #fff; }
#status { color: #b32d2e; }
.kind { margin: 0; color: #50575e; text-transform: uppercase; font-size: .85rem; letter-spacing: .04em; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
dialog { max-width: min(34rem, calc(100vw - 2rem)); border: 1px solid #c3c4c7; border-radius: .5rem; }
dialog h3 { font-size: 1rem; margin: 1rem 0 .3rem; }
#details-feeds { padding-left: 1.2rem; margin: 0 0 1rem; }
#details-feeds a { margin-left: .5rem; }
.fc { max-width: 100%; }
.fc .fc-toolbar { flex-wrap: wrap; gap: .5rem; }
.fc .fc-toolbar-title { font-size: 1.25rem; }
.fc-event { cursor: pointer; }
.fc .fc-daygrid-day-number, .fc .fc-col-header-cell-cushion { color: #1d2327; }
.fc .fc-daygrid-event .fc-event-title, .fc .fc-daygrid-event .fc-event-time { color: inherit; }
.fc .fc-day-today { background: #fcf9e8; }
.fc .fc-day-other .fc-daygrid-day-top { opacity: 1; }
.fc .fc-day-other .fc-daygrid-day-number { color: #646970; }
`;
