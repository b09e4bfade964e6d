// HTML built safely for the pages `evcal serve` renders: every value put into an `html`
// template is escaped, unless it is HTML this module made (another template, editors' markup
// sanitised by sanitize-html, JSON for a script element). No page writes markup any other way.
import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';

/** Markup made by this module: safe to put into a page as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template takes: markup, text (escaped), or nothing (`false`, `null`, `undefined` write nothing). */
export type HtmlValue = Html | string | number | false | null | undefined | readonly HtmlValue[];

/** A template whose values are escaped (text) or kept (Html), lists joined. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Text made safe for an element's content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * An event's, venue's or organizer's description as its editors wrote it (post HTML, as the
 * reference allows), sanitised: formatting, lists, links, headings and images kept; scripts,
 * styles, event handlers, frames and forms dropped; links opened without the page's opener.
 */
export function sanitized(markup: string): Html {
  return new Html(sanitizeHtml(markup, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h2'],
    allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title', 'width', 'height'], '*': ['lang', 'dir'] },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener nofollow' }) },
  }));
}

/** The text of a fragment of HTML (a title with entities, a description with markup), for attributes and metadata. */
export function textOf(markup: string): string {
  // sanitize-html keeps the text alone, entities encoded; `entities` decodes them.
  return decodeHTML(sanitizeHtml(markup, { allowedTags: [], allowedAttributes: {} })).replace(/\s+/g, ' ').trim();
}

/** JSON inside a <script> element: `<` escaped so that no text can close the element. */
export function jsonForScript(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
}

function render(value: HtmlValue): string {
  if (value === false || value === null || value === undefined) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}
