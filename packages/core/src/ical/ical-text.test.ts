// Folding (RFC 5545 §3.1) and the plain text of descriptions, checked against ical.js.
import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { foldLine, htmlToText, textToHtml } from './ical-text';

const octets = (s: string) => Buffer.byteLength(s, 'utf8');

describe('foldLine', () => {
  it('keeps every line within 75 octets, splits no character, and unfolds to the line it folded', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (text) => {
      const line = ICAL.stringify.property(['description', {}, 'text', text], ICAL.design.icalendar, true);
      const folded = foldLine(line);
      const parts = folded.split('\r\n');
      for (const part of parts) expect(octets(part)).toBeLessThanOrEqual(75);
      // Every part is valid UTF-16 on its own: no surrogate pair was cut.
      for (const part of parts) expect(part).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
      expect(folded.replace(/\r\n /g, '')).toBe(line);
      // A real parser reads the text back.
      const vevent = new ICAL.Component(ICAL.parse(`BEGIN:VEVENT\r\n${folded}\r\nEND:VEVENT\r\n`));
      expect(vevent.getFirstPropertyValue('description') ?? '').toBe(text.replace(/\r\n|\r/g, '\n'));
    }), { numRuns: 300 });
  });

  it('leaves short lines alone and fills long ones to exactly 75 octets', () => {
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
    const folded = foldLine(`SUMMARY:${'a'.repeat(200)}`).split('\r\n');
    expect(folded.map(octets)).toEqual([75, 75, 60]);
    const euro = foldLine(`SUMMARY:${'€'.repeat(40)}`).split('\r\n');
    // 8 + 22 × 3 = 74: a 23rd euro sign would not fit; the 18 left and the space make 55.
    expect(euro.map(octets)).toEqual([74, 55]);
  });
});

describe('htmlToText and textToHtml', () => {
  it('keeps paragraphs and line breaks, drops tags and control characters, decodes entities', () => {
    expect(htmlToText('<p>One &amp; <b>two</b></p>\n<p>Three<br />four</p>')).toBe('One & two\n\nThree\nfour');
    expect(htmlToText('<ul><li>a</li><li>b</li></ul>')).toBe('- a\n- b');
    expect(htmlToText('caf&eacute;? &#233; &#x1F600; &lt;tag&gt; &amp;lt;')).toBe('caf&eacute;? é 😀 <tag> &lt;');
    expect(htmlToText('bell\u0007 and tab\tstay')).toBe('bell and tab\tstay');
    expect(htmlToText('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2');
  });

  it('stores plain text so that it reads back the same', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (text) => {
      const clean = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
      expect(htmlToText(textToHtml(clean))).toBe(clean);
    }));
  });
});
