// What a record page tells machines about itself, in its <head>: the canonical address and
// the page in every language (hreflang), the description, OpenGraph and Twitter card tags for
// link previews, and schema.org JSON-LD (core builds it: eventPageJsonLd) for search engines.
import { html, jsonForScript, type Html } from './html';

export interface PageMeta {
  /** The page's own address in its language (`<link rel="canonical">`, `og:url`). */
  readonly canonical: string;
  /** The page in each language; the default language's is also `x-default`. */
  readonly alternates: readonly { readonly language: string; readonly href: string }[];
  readonly defaultLanguage: string;
  readonly language: string;
  readonly title: string;
  /** Plain text, shortened here. */
  readonly description: string;
  readonly image: string | undefined;
  readonly siteName: string;
  /** schema.org objects, each written as its own JSON-LD script. */
  readonly jsonLd: readonly object[];
}

/** OpenGraph's locale of each language evcal ships (`og:locale`). */
const OG_LOCALES: Readonly<Record<string, string>> = { en: 'en_US', de: 'de_DE', fr: 'fr_FR', es: 'es_ES' };

export function pageMeta(m: PageMeta): Html {
  const description = shorten(m.description, 200);
  const xDefault = m.alternates.find((a) => a.language === m.defaultLanguage);
  return html`
<link rel="canonical" href="${m.canonical}">${m.alternates.map((a) => html`
<link rel="alternate" hreflang="${a.language}" href="${a.href}">`)}${xDefault && html`
<link rel="alternate" hreflang="x-default" href="${xDefault.href}">`}${description && html`
<meta name="description" content="${description}">`}
<meta property="og:type" content="website">
<meta property="og:site_name" content="${m.siteName}">
<meta property="og:title" content="${m.title}">
<meta property="og:url" content="${m.canonical}">
<meta property="og:locale" content="${OG_LOCALES[m.language] ?? m.language}">${description && html`
<meta property="og:description" content="${description}">`}${m.image && html`
<meta property="og:image" content="${m.image}">
<meta property="og:image:alt" content="${m.title}">`}
<meta name="twitter:card" content="${m.image ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${m.title}">${description && html`
<meta name="twitter:description" content="${description}">`}${m.image && html`
<meta name="twitter:image" content="${m.image}">
<meta name="twitter:image:alt" content="${m.title}">`}${m.jsonLd.map((object) => html`
<script type="application/ld+json">${jsonForScript(object)}</script>`)}`;
}

/** At most `max` characters, cut at a word, with an ellipsis when cut. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
