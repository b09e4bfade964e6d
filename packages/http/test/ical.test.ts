// iCalendar over HTTP (issue 15): the .ics addresses and Accept: text/calendar answer the same
// bytes, read back by ical.js; refusals stay JSON errors; the cap's headers; languages; feeds
// streamed through the fetch handler and through toNodeHandler, cut short when a page fails.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ICAL from 'ical.js';
import { createCalendar, type Calendar, type CalendarOptions, type Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  bearerTokens, createFetchHandler, createLanguageHandler, type FetchHandler, type FetchHandlerOptions,
} from '../src/index';
import { toNodeHandler } from '../src/node';

const ORIGIN = 'http://cal.test';
const API = `${ORIGIN}/cal/events/v1`;
const NOW = Date.UTC(2026, 10, 22, 12);
const TOKENS = { 'tok-admin': { id: 1, role: 'administrator' } };

const SEED = {
  categories: [{ id: 10, name: 'Jazz', slug: 'jazz' }],
  venues: [{ id: 100, venue: 'Blue Room', status: 'publish', city: 'Rome', geo_lat: 41.9, geo_lng: 12.5 }],
  events: [
    { id: 300, title: 'Gig', slug: 'gig', status: 'publish', timezone: 'Europe/Rome', start_date: '2027-03-28 01:30:00', end_date: '2027-03-28 04:00:00', categories: [10], venue: [100] },
    { id: 301, title: 'Fair', slug: 'fair', status: 'publish', timezone: 'America/New_York', all_day: true, start_date: '2027-01-09', end_date: '2027-01-11' },
    { id: 302, title: 'Secret', slug: 'secret', status: 'publish', timezone: 'UTC', password: 'pw', description: 'Hidden words', start_date: '2027-02-01 20:00:00', end_date: '2027-02-01 22:00:00' },
    { id: 303, title: 'Draft', slug: 'draft', status: 'draft', timezone: 'UTC', start_date: '2027-02-02 20:00:00', end_date: '2027-02-02 22:00:00' },
  ],
};

async function calendarWith(options: Partial<CalendarOptions> = {}, storage: Storage = createMemoryStorage()): Promise<Calendar> {
  const calendar = createCalendar({ storage, now: () => NOW, timezone: 'Europe/Rome', ...options });
  await calendar.importDataset(SEED);
  return calendar;
}

async function handlerWith(options: FetchHandlerOptions = {}, calendarOptions: Partial<CalendarOptions> = {}): Promise<FetchHandler> {
  return createFetchHandler(await calendarWith(calendarOptions), { authenticate: bearerTokens(TOKENS), ...options });
}

async function get(handler: FetchHandler, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await handler(new Request(`${API}${path}`, { method, headers }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const uids = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('uid'));
const CALENDAR = { accept: 'text/calendar' };

describe('the feed routes', () => {
  it('answer iCalendar at .ics addresses and to Accept: text/calendar, the same bytes, the events of the JSON list', async () => {
    const h = await handlerWith();
    const ics = await get(h, '/events.ics?start_date=2027-01-01');
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(ics.headers.get('content-language')).toBe('en');
    expect(ics.headers.get('x-evcal-feed-total')).toBe('3');
    expect(ics.headers.get('x-evcal-feed-truncated')).toBe('false');
    const json = JSON.parse((await get(h, '/events?start_date=2027-01-01')).text) as { events: { id: number; utc_start_date: string }[] };
    expect(uids(ics.text)).toEqual(json.events.map((e) => `${e.id}@cal.test`));
    const negotiated = await get(h, '/events?start_date=2027-01-01', CALENDAR);
    expect(negotiated.text).toBe(ics.text);
    expect(negotiated.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(negotiated.headers.get('vary')).toMatch(/\bAccept\b/);
    // Instants agree with the JSON, through the feed's VTIMEZONE.
    const vevent = new ICAL.Component(ICAL.parse(ics.text)).getAllSubcomponents('vevent').find((v) => v.getFirstPropertyValue('uid') === '300@cal.test')!;
    const gig = json.events.find((e) => e.id === 300)!;
    expect((vevent.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime()).toBe(Date.parse(`${gig.utc_start_date.replace(' ', 'T')}Z`));
  });

  it('serve one event by id and by slug, the slug route not taking "gig.ics" for a slug', async () => {
    const h = await handlerWith();
    const byId = await get(h, '/events/300.ics');
    expect(byId.status).toBe(200);
    expect(uids(byId.text)).toEqual(['300@cal.test']);
    expect((await get(h, '/events/300', CALENDAR)).text).toBe(byId.text);
    const bySlug = await get(h, '/events/by-slug/gig.ics');
    expect(bySlug.text).toBe(byId.text);
    expect((await get(h, '/events/by-slug/gig', CALENDAR)).text).toBe(byId.text);
    expect(bySlug.headers.get('content-disposition')).toBe('inline; filename="event.ics"');
  });

  it.each([
    ['application/json', false], ['*/*', false], ['text/*', false], ['text/html', false], ['text/calendar;q=0.5, application/json', false],
    ['application/json, text/calendar', false], ['application/json;q=0.5, text/calendar', true], ['text/calendar, */*;q=0.1', true], ['TEXT/CALENDAR', true],
  ])('Accept: %s -> iCalendar %s', async (accept, calendar) => {
    const h = await handlerWith();
    const res = await get(h, '/events/300', { accept });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(calendar ? /^text\/calendar/ : /^application\/json/);
    expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
  });

  it('refuse as every route does, with JSON errors', async () => {
    const h = await handlerWith();
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['/events.ics?start_date=not%20a%20date', {}, 400, 'rest_invalid_param'],
      ['/events.ics?status=draft', {}, 400, 'rest_invalid_param'],
      ['/events/999999.ics', {}, 404, 'rest-event-not-found'],
      ['/events/100.ics', {}, 400, 'rest-invalid-event-id'],
      ['/events/by-slug/nope.ics', {}, 400, 'rest_invalid_param'],
      ['/events/302.ics', {}, 403, 'event-password-protected'],
      ['/events/303.ics', {}, 403, 'event-not-accessible'],
      ['/events/999999', CALENDAR, 404, 'rest-event-not-found'],
    ];
    for (const [path, headers, status, code] of cases) {
      const res = await get(h, path, headers);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, status, 'application/json; charset=UTF-8']);
      expect(JSON.parse(res.text).code, path).toBe(code);
      // Exactly what the JSON route answers.
      const json = await get(h, path.replace(/\.ics(?=$|\?)/, ''));
      expect([json.status, json.text], path).toEqual([res.status, res.text]);
    }
    expect(JSON.parse((await get(h, '/events.ics', {}, 'POST')).text).code).toBe('rest_no_route');
  });

  it('show a protected event redacted, unless unlocked, and drafts to those who may see them', async () => {
    const h = await handlerWith();
    const locked = await get(h, '/events.ics?start_date=2027-01-01');
    expect(locked.text).toContain('SUMMARY:Secret');
    expect(locked.text).not.toContain('Hidden words');
    expect(uids(locked.text)).not.toContain('303@cal.test');
    expect((await get(h, '/events/302.ics?password=pw')).text).toContain('DESCRIPTION:Hidden words');
    const admin = await get(h, '/events.ics?start_date=2027-01-01', { authorization: 'Bearer tok-admin' });
    expect(uids(admin.text)).toContain('303@cal.test');
    expect(admin.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('answer HEAD with the headers only, and OPTIONS with GET', async () => {
    const h = await handlerWith();
    const head = await get(h, '/events.ics', {}, 'HEAD');
    expect([head.status, head.text, head.headers.get('x-evcal-feed-total')]).toEqual([200, '', '3']);
    const options = await get(h, '/events/300.ics', {}, 'OPTIONS');
    expect(options.headers.get('allow')).toBe('GET');
  });

  it('say when the cap cut the feed', async () => {
    const h = await handlerWith({}, { ical: { maxEvents: 1 } });
    const res = await get(h, '/events.ics?start_date=2027-01-01');
    expect(res.headers.get('x-evcal-feed-total')).toBe('3');
    expect(res.headers.get('x-evcal-feed-truncated')).toBe('true');
    expect(uids(res.text)).toHaveLength(1);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Evcal-Feed-Truncated/);
  });

  it('carry the calendar name in the language of the address', async () => {
    const h = createLanguageHandler(await calendarWith(), { languages: ['en', 'de', 'fr'] });
    const de = await h(new Request(`${ORIGIN}/de/cal/events/v1/events.ics`));
    expect(de.headers.get('content-language')).toBe('de');
    expect(await de.text()).toContain('\r\nX-WR-CALNAME:Veranstaltungen von cal.test\r\n');
    const fr = await h(new Request(`${ORIGIN}/fr/cal/events/v1/events`, { headers: CALENDAR }));
    expect(await fr.text()).toContain('\r\nX-WR-CALNAME:Évènements de cal.test\r\n');
    const en = await h(new Request(`${ORIGIN}/cal/events/v1/events.ics`));
    expect(await en.text()).toContain('\r\nX-WR-CALNAME:Events of cal.test\r\n');
  });

  it('answer 304 to a subscriber polling an unchanged feed, and the new feed after a write', async () => {
    const calendar = await calendarWith();
    const h = createFetchHandler(calendar, { authenticate: bearerTokens(TOKENS) });
    for (const path of ['/events.ics', '/events/300.ics']) {
      const first = await get(h, path);
      const etag = first.headers.get('etag')!;
      expect(etag, path).toMatch(/^W\/"[^"]+"$/);
      const again = await get(h, path, { 'if-none-match': etag });
      expect([again.status, again.text, again.headers.get('etag')], path).toEqual([304, '', etag]);
      // The same feed in JSON is another representation, with another tag.
      expect((await get(h, path.replace('.ics', ''))).headers.get('etag')).not.toBe(etag);
    }
    const before = (await get(h, '/events.ics')).headers.get('etag')!;
    await calendar.events.patch({ id: 300, title: 'Renamed' }, { principal: { id: 1, role: 'administrator' } });
    const changed = await get(h, '/events.ics', { 'if-none-match': before });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('SUMMARY:Renamed');
  });

  it('are documented in /doc as text/calendar, and GET /events as JSON or iCalendar', async () => {
    const h = await handlerWith();
    const doc = JSON.parse((await get(h, '/doc')).text);
    expect(Object.keys(doc.paths['/events.ics'].get.responses['200'].content)).toEqual(['text/calendar']);
    expect(Object.keys(doc.paths['/events'].get.responses['200'].content)).toEqual(['application/json', 'text/calendar']);
    expect(Object.keys(doc.paths['/events'].post.responses['201'].content)).toEqual(['application/json']);
    expect(doc.paths['/events/{id}.ics'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['id', 'password', 'context', 'If-None-Match']);
    expect(Object.keys(doc.paths['/events.ics'].get.responses)).toContain('304');
  });
});

describe('streaming', () => {
  /** A memory storage whose event lists fail from the second page of a walk on. */
  function failingAfterFirstPage(): Storage {
    const storage = createMemoryStorage();
    const events = storage.events;
    const failing = Object.create(events) as typeof events;
    failing.list = async (query) => {
      if ((query.offset ?? 0) > 0) throw new Error('the disk went away');
      return events.list(query);
    };
    return Object.assign(Object.create(storage) as Storage, { events: failing });
  }

  async function bigCalendar(storage: Storage = createMemoryStorage()): Promise<Calendar> {
    const calendar = createCalendar({ storage, now: () => NOW, timezone: 'Europe/Rome' });
    const hour = (i: number) => new Date(Date.UTC(2027, 0, 1, i)).toISOString().slice(0, 19).replace('T', ' ');
    await calendar.importDataset({
      events: Array.from({ length: 600 }, (_, i) => ({
        id: i + 1, title: `Event ${i + 1} ${'ü'.repeat(40)}`, status: 'publish', timezone: 'Europe/Rome', start_date: hour(i), end_date: hour(i + 1),
        description: 'Long text, with commas; and more. '.repeat(20),
      })),
    });
    return calendar;
  }

  async function listen(handler: FetchHandler): Promise<string> {
    const server = createServer(toNodeHandler(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/events/v1`;
  }

  it('sends a feed in chunks through node:http, read back whole', async () => {
    const api = await listen(createFetchHandler(await bigCalendar()));
    const res = await fetch(`${api}/events.ics`);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const text = await res.text();
    expect(uids(text)).toHaveLength(600);
    // JSON answers keep their length.
    const json = await fetch(`${api}/events`);
    expect(Number(json.headers.get('content-length'))).toBe(Buffer.byteLength(await json.text()));
  });

  it('keeps serving when a client goes away mid-feed', async () => {
    const errors: unknown[] = [];
    const api = await listen(createFetchHandler(await bigCalendar(), { onError: (e) => errors.push(e) }));
    const abort = new AbortController();
    const res = await fetch(`${api}/events.ics`, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.read().catch(() => undefined);
    expect((await fetch(`${api}/events/1.ics`)).status).toBe(200);
    expect(errors).toEqual([]);
  });

  it('cuts the response short, never completes it, when a page fails after the first bytes; the error is reported', async () => {
    for (const via of ['node', 'fetch'] as const) {
      const errors: unknown[] = [];
      const handler = createFetchHandler(await bigCalendar(failingAfterFirstPage()), { onError: (e) => errors.push(e) });
      const res = via === 'node' ? await fetch(`${await listen(handler)}/events.ics`) : await handler(new Request(`${API}/events.ics`));
      expect(res.status).toBe(200);
      await expect(res.text(), via).rejects.toThrow();
      expect(errors.map((e) => (e as Error).message), via).toEqual(['the disk went away']);
    }
  });
});
