// The pages `evcal serve` shows a person, in a real browser: headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core) loads `/` against a seeded server, finds the
// seeded events in the month view and in the list view, filters by category and venue, opens
// an event's details, switches to German, and loads `/docs` (Swagger UI over /doc). Every
// request the browser makes must stay on the server's origin (no CDN). Screenshots go to
// packages/cli/test-output/ (gitignored). Without Chromium the tests are skipped with a notice.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { chromiumAvailable, openPage as open, OUTPUT, useBrowser } from './support/browser';
import { needBuiltCli, startServe, type Running } from './support/serve-process';

const DATASET = {
  categories: [{ id: 10, name: 'Music', slug: 'music' }, { id: 11, name: 'Theatre', slug: 'theatre' }],
  venues: [
    { id: 100, venue: 'Blue Room', status: 'publish', city: 'Rome', address: 'Via Roma 1' },
    { id: 101, venue: 'Old Barn', status: 'publish', city: 'Turin' },
  ],
  organizers: [{ id: 200, organizer: 'Ada Jazz Club', status: 'publish' }],
  events: [
    { id: 300, title: 'Jazz Night', start_date: '2026-12-04 20:00:00', end_date: '2026-12-04 23:00:00', timezone: 'Europe/Rome', status: 'publish', categories: [10], venue: [100], organizer: [200], cost: '15', description: '<p>Swing &amp; <b>bebop</b></p>' },
    { id: 301, title: 'Hamlet', start_date: '2026-12-11 19:30:00', end_date: '2026-12-11 22:30:00', timezone: 'Europe/Rome', status: 'publish', categories: [11], venue: [101] },
    { id: 302, title: 'Winter Fair', start_date: '2026-12-18', end_date: '2026-12-19', all_day: true, status: 'publish', categories: [10], venue: [101] },
    { id: 303, title: 'Secret draft', start_date: '2026-12-20 10:00:00', end_date: '2026-12-20 11:00:00', status: 'draft' },
  ],
};

describe.skipIf(!chromiumAvailable)('the web page in headless Chromium', { timeout: 120_000 }, () => {
  needBuiltCli();
  const browser = useBrowser();
  let server: Running;

  /** A page that refuses (and records) every request to another origin, and must show no error. */
  async function openPage(origin: string, path: string, locale = 'en-US') {
    const opened = await open(browser(), origin, path, { locale });
    onTestFinished(() => expect(opened.errors, 'errors in the page').toEqual([]));
    return opened;
  }

  const seeded = async () => {
    const seed = join(OUTPUT, 'web-page-seed.json');
    writeFileSync(seed, JSON.stringify(DATASET));
    server = await startServe(['--seed', seed, '--now', '2026-12-02T10:00:00Z', '--timezone', 'Europe/Rome', '--languages', 'en,de,fr,es', '--user', '1:administrator:tok-admin']);
    return server;
  };

  const monthTitles = async (page: Page) => {
    await page.waitForSelector('.fc-daygrid-event');
    return (await page.locator('.fc-daygrid-event .fc-event-title').allTextContents()).sort();
  };

  it('shows the seeded events in the month view, filters them, and shows an event\'s details', async () => {
    const { origin } = await seeded();
    const { page, foreign } = await openPage(origin, '/');
    expect(await monthTitles(page)).toEqual(['Hamlet', 'Jazz Night', 'Winter Fair']);
    expect(await page.locator('.fc-toolbar-title').textContent()).toBe('December 2026');
    await page.screenshot({ path: join(OUTPUT, 'web-page-month.png'), fullPage: true });

    // Filters: by category, then by venue too.
    await page.waitForSelector('#category option[value="10"]', { state: 'attached' });
    await page.selectOption('#category', '10');
    await expect.poll(() => page.locator('.fc-daygrid-event .fc-event-title').allTextContents().then((t) => t.sort())).toEqual(['Jazz Night', 'Winter Fair']);
    await page.waitForSelector('#venue option[value="101"]', { state: 'attached' });
    await page.selectOption('#venue', '101');
    await expect.poll(() => page.locator('.fc-daygrid-event .fc-event-title').allTextContents()).toEqual(['Winter Fair']);
    await page.selectOption('#category', '');
    await page.selectOption('#venue', '');
    await expect.poll(() => page.locator('.fc-daygrid-event').count()).toBe(3);

    // Details.
    await page.locator('.fc-daygrid-event', { hasText: 'Jazz Night' }).click();
    const dialog = page.locator('#details');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const details = await dialog.innerText();
    expect(details).toContain('Jazz Night');
    expect(details).toContain('Blue Room, Via Roma 1, Rome');
    expect(details).toContain('Ada Jazz Club');
    expect(details).toContain('Swing & bebop');
    expect(details).toMatch(/Friday, December 4, 2026/);
    expect(await page.locator('#details-ics').getAttribute('href')).toBe('/cal/events/v1/events/300.ics');
    // Subscriptions: the whole calendar, the event's category and its venue, as webcal:// and https.
    const feeds = await page.locator('#details-feeds li').evaluateAll((items) => items.map((li) => ({
      label: li.firstChild?.textContent, links: [...li.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]),
    })));
    const host = new URL(origin).host;
    const ics = `${host}/cal/events/v1/events.ics`;
    expect(feeds).toEqual([
      { label: 'Every event', links: [['Subscribe', `webcal://${ics}`], ['Feed address', `${origin}/cal/events/v1/events.ics`]] },
      { label: 'Category: Music', links: [['Subscribe', `webcal://${ics}?categories=music`], ['Feed address', `${origin}/cal/events/v1/events.ics?categories=music`]] },
      { label: 'Venue: Blue Room', links: [['Subscribe', `webcal://${ics}?venue=100`], ['Feed address', `${origin}/cal/events/v1/events.ics?venue=100`]] },
    ]);
    // Each address is a feed of just those events.
    const summaries = async (href: string) => [...(await (await fetch(href)).text()).matchAll(/\r\nSUMMARY:([^\r]*)/g)].map((m) => m[1]).sort();
    expect(await Promise.all(feeds.map((f) => summaries(f.links[1]![1]!)))).toEqual([['Hamlet', 'Jazz Night', 'Winter Fair'], ['Jazz Night', 'Winter Fair'], ['Jazz Night']]);
    await page.screenshot({ path: join(OUTPUT, 'web-page-details.png') });
    await page.locator('#details button').click();

    // The list view: the upcoming events, each linking its page.
    await page.locator('#view-list').click();
    await page.waitForSelector('#upcoming-list li a');
    expect(await page.locator('#upcoming-list a').allTextContents()).toEqual(['Jazz Night', 'Hamlet', 'Winter Fair']);
    expect(await page.locator('#upcoming-list a').first().getAttribute('href')).toBe(`${origin}/event/jazz-night/`);
    await page.screenshot({ path: join(OUTPUT, 'web-page-list.png'), fullPage: true });
    expect(foreign, 'requests that left the server').toEqual([]);
  });

  it('shows each occurrence of a recurring event in the month view, with its own details', async () => {
    const { origin, api: apiRoot } = await seeded();
    // Weekly on Mondays from 7 December, 19:00 in Rome, the 21st left out: 7, 14 and 28 December.
    const res = await fetch(`${apiRoot}/events`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok-admin', 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Monday Jam', status: 'publish', timezone: 'Europe/Rome', start_date: '2026-12-07 19:00:00', end_date: '2026-12-07 21:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4', exdate: ['2026-12-21'] }, venue: [100],
      }),
    });
    expect(res.status).toBe(201);
    const { page } = await openPage(origin, '/');
    expect(await monthTitles(page)).toEqual(['Hamlet', 'Jazz Night', 'Monday Jam', 'Monday Jam', 'Monday Jam', 'Winter Fair']);
    const days = await page.locator('.fc-daygrid-day', { has: page.locator('.fc-event-title', { hasText: 'Monday Jam' }) }).evaluateAll((cells) => cells.map((c) => c.getAttribute('data-date')));
    expect(days).toEqual(['2026-12-07', '2026-12-14', '2026-12-28']);
    await page.screenshot({ path: join(OUTPUT, 'web-page-series.png'), fullPage: true });
    // An occurrence's details: its own date, and its own address (a stable occurrence id, not the series').
    await page.locator('.fc-daygrid-day[data-date="2026-12-14"] .fc-daygrid-event', { hasText: 'Monday Jam' }).click();
    const dialog = page.locator('#details');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.innerText()).toMatch(/Monday, December 14, 2026/);
    const ics = await page.locator('#details-ics').getAttribute('href');
    const series = (await (await fetch(`${apiRoot}/events?search=monday&start_date=2026-12-01&end_date=2026-12-31`)).json()) as { events: { id: number; start_date: string; post_parent?: number }[] };
    const fourteenth = series.events.find((e) => e.start_date.startsWith('2026-12-14'))!;
    expect(fourteenth.post_parent).toBeGreaterThan(0);
    expect(ics).toBe(`/cal/events/v1/events/${fourteenth.id}.ics`);
  });

  it('speaks the browser\'s language (German here), and ?lang= overrides it', async () => {
    const { origin } = await seeded();
    const { page } = await openPage(origin, '/', 'de-DE');
    expect(await monthTitles(page)).toEqual(['Hamlet', 'Jazz Night', 'Winter Fair']);
    expect(await page.locator('.fc-toolbar-title').textContent()).toBe('Dezember 2026');
    expect(await page.locator('label', { has: page.locator('#category') }).innerText()).toMatch(/^Kategorie/);
    expect(await page.locator('h1').textContent()).toBe('Veranstaltungen');
    await page.screenshot({ path: join(OUTPUT, 'web-page-month-de.png'), fullPage: true });
    const spanish = await openPage(origin, '/?lang=es', 'de-DE');
    expect(await monthTitles(spanish.page)).toHaveLength(3);
    expect(await spanish.page.locator('.fc-toolbar-title').textContent()).toBe('diciembre de 2026');
    expect(await spanish.page.locator('h1').textContent()).toBe('Eventos');
  });

  it('renders the API reference from /doc at /docs, from the server\'s own files', async () => {
    const { origin } = await seeded();
    const { page, foreign } = await openPage(origin, '/docs?lang=fr');
    await page.waitForSelector('.swagger-ui .info .title');
    // evcal's name and description, in the page's language (the document keeps the reference's for its clients).
    expect(await page.locator('.swagger-ui .info .title').innerText()).toContain('API evcal');
    expect(await page.locator('.swagger-ui .info .description').innerText()).toContain('evcal sert un calendrier');
    await page.waitForSelector('.opblock-summary-path');
    const paths = async () => (await page.locator('.opblock-summary-path').allTextContents()).map((p) => p.replace(/\u200b/g, ''));
    // The events' operations are listed at once; another resource's when it is opened.
    expect(await paths()).toEqual(expect.arrayContaining(['/events', '/events/{id}']));
    expect(await paths()).not.toContain('/venues/by-slug/{slug}');
    await page.locator('.opblock-tag[data-tag="venues"]').click();
    await expect.poll(paths).toEqual(expect.arrayContaining(['/events', '/venues/by-slug/{slug}']));
    expect(await page.locator('.opblock-summary-description').allTextContents()).toContain('Lister les évènements');
    await page.screenshot({ path: join(OUTPUT, 'web-page-docs.png'), fullPage: false });
    expect(foreign, 'requests that left the server').toEqual([]);
  });
});

describe('the page addresses of evcal serve (without a browser)', { timeout: 60_000 }, () => {
  needBuiltCli();

  it('answers / and /docs with HTML in the negotiated language, its files, and leaves the API where it was', async () => {
    const server = await startServe(['--languages', 'en,de']);
    const page = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${server.origin}${path}`, { headers });
      return { status: res.status, type: res.headers.get('content-type'), language: res.headers.get('content-language'), text: await res.text() };
    };
    const home = await page('/', { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' });
    expect([home.status, home.type, home.language]).toEqual([200, 'text/html; charset=utf-8', 'fr']);
    expect(home.text).toContain('<html lang="fr">');
    expect(home.text).toContain('Toutes les catégories');
    // French is not served by this API (--languages en,de): the page reads the default root.
    expect(home.text).toContain('"apiRoot":"/cal/events/v1"');
    const german = await page('/?lang=de');
    expect(german.text).toContain('"apiRoot":"/de/cal/events/v1"');
    expect((await page('/', { 'accept-language': 'ja, *;q=0.1' })).language).toBe('en');
    const docs = await page('/docs?lang=es');
    expect([docs.status, docs.language]).toEqual([200, 'es']);
    expect(docs.text).toContain('/assets/swagger-ui/swagger-ui-bundle.js');
    for (const asset of ['/assets/evcal/calendar-page.js', '/assets/evcal/reference-page.js', '/assets/swagger-ui/swagger-ui-bundle.js']) {
      const file = await page(asset);
      expect([asset, file.status, file.type]).toEqual([asset, 200, 'text/javascript; charset=utf-8']);
    }
    expect((await page('/assets/swagger-ui/swagger-ui.css')).type).toBe('text/css; charset=utf-8');
    expect((await page('/assets/../package.json')).status).toBe(404);
    expect((await page('/assets/evcal/nothing.js')).status).toBe(404);
    const post = await fetch(`${server.origin}/`, { method: 'POST' });
    expect(post.status).toBe(405);
    // The API's own addresses are unchanged, WordPress's plain-permalink form at / included.
    const plain = await page('/?rest_route=/cal/events/v1/events');
    expect([plain.status, plain.type]).toEqual([200, 'application/json; charset=UTF-8']);
    expect((await page('/cal/events/v1/events')).status).toBe(200);
    expect((await page('/elsewhere')).status).toBe(404);
  });
});
