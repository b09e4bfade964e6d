// How stored texts are rendered on the wire. The reference runs WordPress's title and content
// filters; evcal keeps the parts clients see and rely on: HTML-safe titles, paragraphs in
// descriptions. (Quote curling and shortcodes are not reproduced; docs/compatibility.md.)

/** A title or name as the reference renders it: trimmed, `&` as `&#038;`, angle brackets escaped. */
export function renderTitle(raw: string): string {
  return raw.trim().replace(/&(?!#?[a-zA-Z0-9]+;)/g, '&#038;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Block-level elements wpautop leaves unwrapped.
const BLOCK = /^<\/?(?:p|div|ul|ol|li|dl|dt|dd|h[1-6]|table|thead|tbody|tfoot|tr|td|th|blockquote|pre|figure|figcaption|section|article|aside|header|footer|nav|hr|form|fieldset|address|details|summary|iframe|video|audio|!--)\b/i;

/**
 * Content as the reference's content filter renders it (the essentials of wpautop): blank
 * lines separate paragraphs, each wrapped in `<p>` unless it already is a block element,
 * single line breaks become `<br />`. Empty content stays "".
 */
export function renderContent(raw: string): string {
  const text = raw.replace(/\r\n?/g, '\n').trim();
  if (text === '') return '';
  return text
    .split(/\n\s*\n/)
    .map((para) => para.trim())
    .filter((para) => para.length > 0)
    .map((para) => (BLOCK.test(para) ? para : `<p>${para.replace(/\n/g, '<br />\n')}</p>`))
    .join('\n');
}

/** Escapes a text for HTML (esc_html). */
export function escapeHtml(s: string): string {
  return s.replace(/&(?!#?[a-zA-Z0-9]+;)/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** Plain text of HTML (tags removed, common entities decoded), for JSON-LD. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#0?38;|&amp;/g, '&')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#0?39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

const NAMED: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ndash: '\u2013', mdash: '\u2014', hellip: '\u2026',
  lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', laquo: '\u00ab', raquo: '\u00bb', euro: '\u20ac', pound: '\u00a3', copy: '\u00a9',
};

/**
 * Plain text with every character reference decoded: numeric ones (WordPress writes its
 * typographic dashes and quotes as `&#8211;`, `&#8217;`) and the named ones titles carry.
 * For text read by machines (the JSON-LD of a page), where `&#8211;` would be shown as is.
 */
export function decodedText(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
