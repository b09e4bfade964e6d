// The sitemap of a calendar too large for one file: /sitemap.xml becomes an index of files of
// at most `urlsPerFile` addresses, which together list every public page once.
import { createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { createSitePages } from './site-pages';

const ORIGIN = 'https://cal.example.org';

async function pages(urlsPerFile: number) {
  const calendar = createCalendar({ storage: createMemoryStorage(), timezone: 'UTC', now: () => Date.UTC(2026, 11, 2), limits: { defaultPerPage: 2, maxPerPage: 2 } });
  await calendar.importDataset({
    venues: [{ id: 100, venue: 'Blue Room', status: 'publish' }, { id: 101, venue: 'Cellar', status: 'draft', slug: 'cellar' }],
    organizers: [{ id: 200, organizer: 'Ada', status: 'publish' }],
    categories: [{ id: 10, name: 'Music', slug: 'music' }],
    events: [
      ...Array.from({ length: 5 }, (_, i) => ({
        id: 300 + i, title: `Gig ${i + 1}`, status: 'publish', start_date: `2025-0${i + 1}-10 20:00:00`, end_date: `2025-0${i + 1}-10 22:00:00`, categories: [10],
      })),
      { id: 310, title: 'Draft', slug: 'draft', status: 'draft', start_date: '2026-12-20 10:00:00', end_date: '2026-12-20 11:00:00' },
    ],
  });
  const handler = createSitePages({ calendar, apiRoots: { en: '/cal/events/v1' }, today: () => '2026-12-02', sitemapUrlsPerFile: urlsPerFile });
  return async (path: string) => {
    const res = await handler(new Request(`${ORIGIN}${path}`));
    return { status: res.status, xml: await res.text() };
  };
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(ORIGIN, ''));

const PUBLIC = [
  ...[1, 2, 3, 4, 5].map((i) => `/event/gig-${i}/`), '/venue/blue-room/', '/organizer/ada/', '/events/category/music/',
];

describe('the sitemap', () => {
  it('is one file while every address fits (past events included, drafts left out)', async () => {
    const get = await pages(10);
    const { status, xml } = await get('/sitemap.xml');
    expect(status).toBe(200);
    expect(xml).toContain('<urlset');
    expect(locs(xml).sort()).toEqual([...PUBLIC].sort());
  });

  it('is an index of files of at most urlsPerFile addresses beyond, which list every page once', async () => {
    const get = await pages(4);
    const index = await get('/sitemap.xml');
    expect(index.xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const files = locs(index.xml);
    expect(files).toEqual(['/sitemap-events-1.xml', '/sitemap-events-2.xml', '/sitemap-venues-1.xml', '/sitemap-organizers-1.xml', '/sitemap-categories-1.xml']);
    const listed: string[] = [];
    for (const file of files) {
      const { status, xml } = await get(file);
      expect([file, status]).toEqual([file, 200]);
      expect(locs(xml).length).toBeLessThanOrEqual(4);
      listed.push(...locs(xml));
    }
    expect(listed.sort()).toEqual([...PUBLIC].sort());
    expect((await get('/sitemap-events-3.xml')).status).toBe(404);
    expect((await get('/sitemap-tags-1.xml')).status).toBe(404);
  });
});
