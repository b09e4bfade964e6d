// Texts between evcal and iCalendar: descriptions as plain text (iCalendar TEXT has no markup)
// and back, and content lines folded at 75 octets.

/**
 * Plain text of stored HTML-ish content, as a calendar app shows DESCRIPTION: tags removed,
 * paragraphs and line breaks kept as newlines, entities decoded, control characters (which
 * TEXT values may not hold) dropped.
 */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/\r\n?/g, '\n')
      .replace(/<br\s*\/?>\s*/gi, '\n')
      .replace(/<\/(?:p|div|h[1-6]|blockquote|pre|table|ul|ol|section|article)>\s*/gi, '\n\n')
      .replace(/<\/(?:li|tr)>\s*/gi, '\n')
      .replace(/<li\b[^>]*>/gi, '- ')
      // A tag starts with a letter, / or !: "1 < 2" is text.
      .replace(/<\/?[A-Za-z!][^>]*>/g, ''),
  )
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Stored content for a plain text read from a file, so that it reads back the same: `<` and
 * `>` escaped, and `&` where it would start an entity (a lone `&` is stored as it is, as
 * WordPress renders titles).
 */
export function textToHtml(text: string): string {
  return text.replace(/&(?=#?[a-zA-Z0-9]+;)/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A content line folded as RFC 5545 asks: no line longer than 75 octets of UTF-8 (the space
 * that starts a continuation line counted), never splitting a character. (ical.js's own
 * folding does not count that space: its continuation lines reach 76 octets.)
 */
export function foldLine(line: string): string {
  if (line.length <= 75 && !/[^\x00-\x7f]/.test(line)) return line;
  let out = '';
  let octets = 0;
  let start = 0;
  for (let i = 0; i < line.length;) {
    const cp = line.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (octets + size > 75) {
      out += `${line.slice(start, i)}\r\n `;
      start = i;
      octets = 1;
    }
    octets += size;
    i += units;
  }
  return out + line.slice(start);
}

// ---- helpers ----

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ndash: '\u2013', mdash: '\u2014',
  hellip: '\u2026', lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', euro: '\u20ac', copy: '\u00a9',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isInteger(cp) && cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}
