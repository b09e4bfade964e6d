// The pages at the records' addresses (issue 33), over real HTTP from `evcal serve`: each
// public event's `url` (and each venue's, organizer's, category's and tag's) answers an HTML
// page that reads without JavaScript, with its metadata; what the API shows no anonymous
// caller has no page; pages answer 304 to their ETag; /sitemap.xml lists the public pages;
// --site-url puts the public origin in every URL. (Structured data: structured-data.test.ts;
// in a browser: pages-browser.test.ts.)
import { describe, expect, it } from 'vitest';
import { textOf } from '../src/web/html';
import { createSeries, HIDDEN_PAGES, servePages } from './support/pages-dataset';
import { needBuiltCli } from './support/serve-process';
import { extract } from './support/structured-data';

interface Page {
  readonly status: number;
  readonly headers: Headers;
  readonly html: string;
  /** The page's text, as a reader without JavaScript gets it. */
  readonly text: string;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(url, { headers, redirect: 'manual' });
  const html = await res.text();
  return { status: res.status, headers: res.headers, html, text: textOf(html.replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '')) };
}

/** The href of every link whose text is `text`. */
function hrefsOf(html: string, text: string): string[] {
  return [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].filter((m) => textOf(m[2]!) === text).map((m) => textOf(m[1]!));
}

describe('the record pages of evcal serve', { timeout: 60_000 }, () => {
  needBuiltCli();

  it('answers an event\'s url with its page: when, where, who, what, cost, terms, add to calendar, subscribe', async () => {
    const server = await servePages();
    const event = await (await fetch(`${server.api}/events/300`)).json() as { url: string };
    expect(event.url).toBe(`${server.origin}/event/jazz-night/`);
    const page = await get(event.url);
    expect([page.status, page.headers.get('content-type'), page.headers.get('content-language')]).toEqual([200, 'text/html; charset=utf-8', 'en']);
    expect(page.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page.html).toContain('<title>Jazz Night – Live – Events</title>');
    expect(page.text).toContain('Jazz Night – Live');
    // In the event's zone, its own wall clock.
    expect(page.text).toContain('Friday, December 4, 2026, 8:00 – 11:00 PM (Europe/Rome)');
    expect(page.html).toContain('>Blue Room</a><br>Via Roma 1, Rome, RM, 00184, Italy<br>');
    expect(hrefsOf(page.html, 'Show on a map')).toEqual(['https://www.openstreetmap.org/?mlat=41.9&mlon=12.5#map=17/41.9/12.5']);
    expect(hrefsOf(page.html, 'Blue Room')).toEqual([`${server.origin}/venue/blue-room/`]);
    expect(hrefsOf(page.html, 'Ada Jazz Club')).toEqual([`${server.origin}/organizer/ada-jazz-club/`]);
    expect(hrefsOf(page.html, 'Bea Booker')).toEqual([`${server.origin}/organizer/bea-booker/`]);
    expect(page.text).toContain('€15');
    expect(hrefsOf(page.html, 'Music')).toEqual([`${server.origin}/events/category/music/`]);
    expect(hrefsOf(page.html, 'Outdoor')).toEqual([`${server.origin}/tag/outdoor/`]);
    // The description, sanitised: its markup kept, nothing that runs.
    expect(page.html).toContain('<p>Swing &amp; <b>bebop</b> with <a href="https://band.example" rel="noopener nofollow">the band</a>.</p>');
    expect(page.html).toContain('<img src="https://cdn.example.org/band.jpg" alt="The band" />');
    expect(page.html).not.toMatch(/steal\(\)|onerror|onclick/);
    // Add to calendar: the event's .ics, and Google Calendar's and Outlook's forms filled in (UTC instants).
    expect(hrefsOf(page.html, 'iCalendar file (.ics)')).toEqual([`${server.api}/events/300.ics`]);
    const google = new URL(hrefsOf(page.html, 'Google Calendar')[0]!);
    expect([google.origin + google.pathname, google.searchParams.get('action'), google.searchParams.get('text'), google.searchParams.get('dates')])
      .toEqual(['https://calendar.google.com/calendar/render', 'TEMPLATE', 'Jazz Night – Live', '20261204T190000Z/20261204T220000Z']);
    expect(google.searchParams.get('location')).toBe('Blue Room, Via Roma 1, Rome, RM, 00184, Italy');
    const outlook = new URL(hrefsOf(page.html, 'Outlook')[0]!);
    expect([outlook.searchParams.get('subject'), outlook.searchParams.get('startdt'), outlook.searchParams.get('enddt'), outlook.searchParams.get('allday')])
      .toEqual(['Jazz Night – Live', '2026-12-04T19:00:00Z', '2026-12-04T22:00:00Z', 'false']);
    // Subscribe: the feed, as webcal:// and as its own address.
    expect(hrefsOf(page.html, 'Subscribe in a calendar app')).toEqual([`${server.api.replace('http:', 'webcal:')}/events.ics`]);
    expect(hrefsOf(page.html, 'Feed address')).toEqual([`${server.api}/events.ics`]);
    const ics = await fetch(hrefsOf(page.html, 'iCalendar file (.ics)')[0]!);
    expect([ics.status, ics.headers.get('content-type')?.split(';')[0]]).toEqual([200, 'text/calendar']);
  });

  it('tells machines about the page: canonical, hreflang in the four languages, OpenGraph, Twitter card, JSON-LD', async () => {
    const server = await servePages();
    const page = await get(`${server.origin}/event/jazz-night/`);
    const { metatags, jsonld } = extract(page.html);
    const url = `${server.origin}/event/jazz-night/`;
    expect(page.html).toContain(`<link rel="canonical" href="${url}">`);
    for (const [language, href] of [['en', url], ['de', `${server.origin}/de/event/jazz-night/`], ['fr', `${server.origin}/fr/event/jazz-night/`], ['es', `${server.origin}/es/event/jazz-night/`], ['x-default', url]]) {
      expect(page.html).toContain(`<link rel="alternate" hreflang="${language}" href="${href}">`);
    }
    const meta = (name: string) => metatags[name]?.[0];
    expect({ title: meta('og:title'), url: meta('og:url'), image: meta('og:image'), type: meta('og:type'), locale: meta('og:locale'), description: meta('og:description') })
      .toEqual({ title: 'Jazz Night – Live', url, image: 'https://cdn.example.org/jazz.jpg', type: 'website', locale: 'en_US', description: 'Swing and bebop in the Blue Room.' });
    expect({ card: meta('twitter:card'), title: meta('twitter:title'), image: meta('twitter:image') })
      .toEqual({ card: 'summary_large_image', title: 'Jazz Night – Live', image: 'https://cdn.example.org/jazz.jpg' });
    expect(jsonld.Event).toHaveLength(1);
    expect(jsonld.Event![0]).toMatchObject({
      name: 'Jazz Night – Live', startDate: '2026-12-04T20:00:00+01:00', endDate: '2026-12-04T23:00:00+01:00', url, image: 'https://cdn.example.org/jazz.jpg',
      location: { '@type': 'Place', name: 'Blue Room', address: { '@type': 'PostalAddress', streetAddress: 'Via Roma 1', addressLocality: 'Rome', postalCode: '00184', addressCountry: 'Italy' } },
      organizer: [{ '@type': 'Person', name: 'Ada Jazz Club' }, { '@type': 'Person', name: 'Bea Booker' }],
      offers: { '@type': 'Offer', price: '15', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
    });
  });

  it('serves each page in each language under /<language>/, its texts and dates translated', async () => {
    const server = await servePages(['--languages', 'en,de']);
    const german = await get(`${server.origin}/de/event/jazz-night/`);
    expect([german.status, german.headers.get('content-language')]).toEqual([200, 'de']);
    expect(german.html).toContain('<html lang="de">');
    expect(german.html).toContain(`<link rel="canonical" href="${server.origin}/de/event/jazz-night/">`);
    expect(german.text).toContain('Freitag, 4. Dezember 2026');
    expect(german.text).toContain('Zum Kalender hinzufügen');
    // Links stay in German; the API links to the German API, which this server serves.
    expect(hrefsOf(german.html, 'Blue Room')).toEqual([`${server.origin}/de/venue/blue-room/`]);
    expect(hrefsOf(german.html, 'iCalendar-Datei (.ics)')).toEqual([`${server.origin}/de/cal/events/v1/events/300.ics`]);
    // French is not served by this API: its page links to the default API.
    const french = await get(`${server.origin}/fr/venue/blue-room/`);
    expect(french.text).toContain('Événements à venir');
    const spanish = await get(`${server.origin}/es/event/jazz-night/`);
    expect(hrefsOf(spanish.html, 'Archivo iCalendar (.ics)')).toEqual([`${server.api}/events/300.ics`]);
    // The default language has its pages at both addresses; the unprefixed one is canonical.
    const english = await get(`${server.origin}/en/event/jazz-night/`);
    expect(english.html).toContain(`<link rel="canonical" href="${server.origin}/event/jazz-night/">`);
  });

  it('shows a series and its next dates on the series\' and each occurrence\'s page', async () => {
    const server = await servePages();
    await createSeries(server.api);
    const list = await (await fetch(`${server.api}/events?search=monday&start_date=2026-12-01`)).json() as { events: { url: string; start_date: string }[] };
    expect(list.events.map((e) => e.url)).toEqual(['07', '14', '21', '28'].map((d) => `${server.origin}/event/monday-jam/2026-12-${d}/`));
    const occurrence = await get(list.events[1]!.url);
    expect(occurrence.status).toBe(200);
    expect(occurrence.text).toContain('Monday, December 14, 2026, 7:00 – 9:00 PM (Europe/Rome)');
    expect(hrefsOf(occurrence.html, 'Monday Jam')[0]).toBe(`${server.origin}/event/monday-jam/`);
    expect(occurrence.text).toContain('Next dates');
    expect(occurrence.html).toContain(`<a href="${server.origin}/event/monday-jam/2026-12-14/" aria-current="page">Monday Jam</a>`);
    for (const day of ['07', '21', '28']) expect(occurrence.html).toContain(`<a href="${server.origin}/event/monday-jam/2026-12-${day}/">Monday Jam</a>`);
    const series = await get(`${server.origin}/event/monday-jam/`);
    expect([series.status, (series.text.match(/Mon, Dec \d+, 7:00 PM/g) ?? []).length]).toEqual([200, 4]);
  });

  it('answers each venue, organizer, category and tag with its page and its upcoming events, paged', async () => {
    const server = await servePages();
    const venue = await get(`${server.origin}/venue/old-barn/`);
    expect(venue.status).toBe(200);
    expect(venue.text).toContain('Old Barn');
    expect(venue.text).toContain('Strada 2, Turin, 10121, Italy');
    expect(venue.text).toContain('Page 1 of 2');
    const titles = (html: string) => [...html.matchAll(/<li><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
    expect(titles(venue.html)).toEqual(['Play 1', 'Play 2', 'Play 3', 'Play 4', 'Play 5', 'Play 6', 'Play 7', 'Play 8', 'Play 9', 'Play 10']);
    expect(venue.text).toContain('Sat, Dec 5, 9:00 PM');
    const second = await get(`${server.origin}/venue/old-barn/?page=2`);
    expect(titles(second.html)).toEqual(['Play 11', 'Play 12', 'Winter Fair']);
    expect(second.html).toContain('<a href="?page=1" rel="prev">Previous</a>');
    expect((await get(`${server.origin}/venue/old-barn/?page=3`)).status).toBe(404);
    const organizer = await get(`${server.origin}/organizer/ada-jazz-club/`);
    expect([organizer.status, titles(organizer.html)]).toEqual([200, ['Jazz Night – Live']]);
    expect(hrefsOf(organizer.html, 'ada@example.com')).toEqual(['mailto:ada@example.com']);
    const category = await get(`${server.origin}/events/category/music/`);
    expect([category.status, titles(category.html)]).toEqual([200, ['Jazz Night – Live']]);
    expect(category.html).toContain('Concerts and <em>jams</em>');
    const tag = await get(`${server.origin}/tag/outdoor/`);
    expect([tag.status, titles(tag.html)]).toEqual([200, ['Jazz Night – Live']]);
    // The venue's Place, as the API gives it.
    expect(extract(venue.html).jsonld.Place?.[0]).toMatchObject({ name: 'Old Barn', address: { streetAddress: 'Strada 2' } });
  });

  it('has no page for what the API shows no anonymous caller (draft, pending, scheduled, private, protected, trashed) and leaves protected events out of lists', async () => {
    const server = await servePages();
    for (const path of [...HIDDEN_PAGES, '/event/nothing-here/', '/tag/nothing-here/', '/de/event/secret-draft/']) {
      const page = await get(`${server.origin}${path}`);
      expect([path, page.status, page.headers.get('content-type')]).toEqual([path, 404, 'text/html; charset=utf-8']);
      expect(page.text).toMatch(/Page not found|Seite nicht gefunden/);
      expect(page.html).toContain('<meta name="robots" content="noindex">');
      for (const secret of ['Secret draft', 'Pending review', 'Scheduled post', 'Private party', 'Locked gig', 'Binned', 'Hidden Cellar']) expect(page.text).not.toContain(secret);
    }
    // An administrator's credentials change nothing: pages are what anyone sees.
    expect((await get(`${server.origin}/event/secret-draft/`, { authorization: 'Bearer tok-admin' })).status).toBe(404);
    const blueRoom = await get(`${server.origin}/venue/blue-room/`);
    expect(blueRoom.text).not.toMatch(/Locked gig|Private party|Secret draft/);
  });

  it('answers 304 to the ETag it gave, and a new ETag once what the page shows changes', async () => {
    const server = await servePages();
    const url = `${server.origin}/event/jazz-night/`;
    const first = await get(url);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await fetch(url, { headers: { 'if-none-match': etag } });
    expect([again.status, again.headers.get('etag'), await again.text()]).toEqual([304, etag, '']);
    // A change to the event (through the API) makes the page new.
    const patched = await fetch(`${server.api}/events/300`, {
      method: 'PATCH', headers: { authorization: 'Bearer tok-admin', 'content-type': 'application/json' }, body: JSON.stringify({ cost: '€18' }),
    });
    expect(patched.status).toBe(200);
    const changed = await get(url, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.text).toContain('€18');
    // A venue page changes with its events too.
    const venueTag = (await get(`${server.origin}/venue/blue-room/`)).headers.get('etag')!;
    expect((await fetch(`${server.origin}/venue/blue-room/`, { headers: { 'if-none-match': venueTag } })).status).toBe(304);
  });

  it('lists the public pages in /sitemap.xml with their modification dates', async () => {
    const server = await servePages();
    const res = await fetch(`${server.origin}/sitemap.xml`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/xml; charset=utf-8']);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(server.origin, ''));
    expect(locs).toEqual(expect.arrayContaining([
      '/event/jazz-night/', '/event/winter-fair/', '/venue/blue-room/', '/venue/old-barn/', '/organizer/ada-jazz-club/', '/events/category/music/', '/tag/outdoor/',
    ]));
    expect(locs).toHaveLength(2 + 12 + 2 + 2 + 2 + 1);
    for (const hidden of HIDDEN_PAGES) expect(locs).not.toContain(hidden);
    expect(xml).toContain(`<url><loc>${server.origin}/event/jazz-night/</loc><lastmod>2026-12-02T10:00:00+00:00</lastmod></url>`);
    // Every address it lists is a page.
    for (const loc of locs) expect([loc, (await fetch(`${server.origin}${loc}`)).status]).toEqual([loc, 200]);
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${server.origin}/sitemap.xml`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('writes the public origin of --site-url in every URL: the API\'s, the pages\', the sitemap\'s and the feeds\'', async () => {
    const server = await servePages(['--site-url', 'https://cal.example.org/']);
    const site = 'https://cal.example.org';
    const event = await (await fetch(`${server.api}/events/300`)).json() as Record<string, unknown>;
    expect([event.url, event.rest_url]).toEqual([`${site}/event/jazz-night/`, `${site}/cal/events/v1/events/300`]);
    const list = await (await fetch(`${server.api}/events?per_page=2`)).json() as { next_rest_url: string };
    expect(list.next_rest_url.startsWith(`${site}/cal/events/v1/events/`)).toBe(true);
    const page = await get(`${server.origin}/event/jazz-night/`);
    expect(page.html).toContain(`<link rel="canonical" href="${site}/event/jazz-night/">`);
    expect(hrefsOf(page.html, 'Subscribe in a calendar app')).toEqual(['webcal://cal.example.org/cal/events/v1/events.ics']);
    expect(extract(page.html).jsonld.Event![0]).toMatchObject({ url: `${site}/event/jazz-night/` });
    const sitemap = await (await fetch(`${server.origin}/sitemap.xml`)).text();
    expect([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].every((m) => m[1]!.startsWith(`${site}/`))).toBe(true);
    const feed = await (await fetch(`${server.api}/events.ics`)).text();
    expect(feed).toContain(`URL:${site}/event/jazz-night/`);
    // A value that is no origin is refused, naming the flag.
    const bad = await servePages(['--site-url', 'https://cal.example.org/calendar']).catch((error: Error) => error.message);
    expect(bad).toContain('--site-url must be an http or https origin');
  });

  it('has an icon, linked from every page, and answers /favicon.ico with it', async () => {
    const server = await servePages();
    const svg = await fetch(`${server.origin}/favicon.svg`);
    expect([svg.status, svg.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const ico = await fetch(`${server.origin}/favicon.ico`, { redirect: 'manual' });
    expect([ico.status, ico.headers.get('location')]).toEqual([301, '/favicon.svg']);
    for (const path of ['/', '/docs', '/event/jazz-night/', '/venue/blue-room/']) {
      expect((await get(`${server.origin}${path}`)).html, path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    }
  });
});
