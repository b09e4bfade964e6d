// Which requests `evcal serve` gives to its pages: `isSitePath` answers plain paths without
// the URL parser, and must answer as the parser's reading of the target does, for any target;
// the record pages' addresses are those core writes as `url`, in each language.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { recordAddress } from '../src/web/page-address';
import { isSitePath, isSitePathname } from '../src/web/site-pages';

/** The definition: the target read by the WHATWG URL parser. */
function byParser(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://x');
  } catch {
    return false;
  }
  return isSitePathname(parsed.pathname, parsed.search);
}

describe('isSitePath', () => {
  it('sends the pages and their files to the pages, the API to the API', () => {
    for (const page of ['/', '/?lang=de', '/docs', '/docs/', '/assets/app.js', '/assets/x/../app.css']) expect(isSitePath(page)).toBe(true);
    for (const api of ['/cal/events/v1/events', '/cal/events/v1/events?per_page=10', '/?rest_route=/cal/events/v1', '/docsx', '/assets', '//docs/x', '/docs/../cal/events/v1']) {
      expect(isSitePath(api), api).toBe(byParser(api));
    }
    expect(isSitePath('/cal/events/v1/events')).toBe(false);
    for (const page of ['/event/jazz/', '/event/jazz', '/de/event/jam/2027-03-15/', '/venue/blue-room/', '/organizer/ada/', '/events/category/music/', '/fr/tag/outdoor/', '/sitemap.xml', '/sitemap-events-2.xml', '/favicon.ico', '/favicon.svg', '/event/caf%C3%A9/']) {
      expect(isSitePath(page), page).toBe(true);
    }
    for (const api of ['/event', '/event/a/b/', '/xx/event/jazz/', '/events/jazz/', '/sitemap-events-0.xml', '/de/cal/events/v1/events']) expect(isSitePath(api), api).toBe(false);
  });

  it('reads the kind, slug and language of a record page\'s address', () => {
    expect(recordAddress('/event/jazz-night/')).toEqual({ kind: 'event', slug: 'jazz-night', language: undefined });
    expect(recordAddress('/de/event/jam/2027-03-15/')).toEqual({ kind: 'event', slug: 'jam/2027-03-15', language: 'de' });
    expect(recordAddress('/es/events/category/m%C3%BAsica/')).toEqual({ kind: 'category', slug: 'música', language: 'es' });
    expect(recordAddress('/tag/outdoor')).toEqual({ kind: 'tag', slug: 'outdoor', language: undefined });
    expect(recordAddress('/organizer/%E0%A4%A/')).toBeUndefined();
  });

  it('answers as the URL parser reads any target', () => {
    const piece = fc.constantFrom('/', 'docs', 'assets', 'cal', 'events', 'event', 'de', 'category', 'tag', 'sitemap.xml', 'favicon.ico', '.', '..', '%2e', '%2F', '\\', '#', '?', 'rest_route=', '&', 'x', '//', ' ');
    fc.assert(fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const url = `/${pieces.join('')}`;
      expect(isSitePath(url)).toBe(byParser(url));
    }), { numRuns: 3000 });
  });
});
