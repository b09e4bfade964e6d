// Which requests `evcal serve` gives to its pages: `isSitePath` answers plain paths without
// the URL parser, and must answer as the parser's reading of the target does, for any target.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isSitePath } from '../src/web/site-pages';

/** The definition: the target read by the WHATWG URL parser. */
function byParser(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://x');
  } catch {
    return false;
  }
  const { pathname, search } = parsed;
  if (pathname === '/') return !/(^|[?&])rest(_|%5f)route=/i.test(search);
  return pathname === '/docs' || pathname === '/docs/' || pathname.startsWith('/assets/');
}

describe('isSitePath', () => {
  it('sends the pages and their files to the pages, the API to the API', () => {
    for (const page of ['/', '/?lang=de', '/docs', '/docs/', '/assets/app.js', '/assets/x/../app.css']) expect(isSitePath(page)).toBe(true);
    for (const api of ['/cal/events/v1/events', '/cal/events/v1/events?per_page=10', '/?rest_route=/cal/events/v1', '/docsx', '/assets', '//docs/x', '/docs/../cal/events/v1']) {
      expect(isSitePath(api), api).toBe(byParser(api));
    }
    expect(isSitePath('/cal/events/v1/events')).toBe(false);
  });

  it('answers as the URL parser reads any target', () => {
    const piece = fc.constantFrom('/', 'docs', 'assets', 'cal', 'events', '.', '..', '%2e', '%2F', '\\', '#', '?', 'rest_route=', '&', 'x', '//', ' ');
    fc.assert(fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const url = `/${pieces.join('')}`;
      expect(isSitePath(url)).toBe(byParser(url));
    }), { numRuns: 3000 });
  });
});
