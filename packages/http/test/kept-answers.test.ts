// The first stage of the one path (kept-answers.ts): a list or an event read answered lately is
// answered again from memory, its 200 as well as its 304, byte for byte what the whole way
// gives, and only while that is so: nothing written, the clock within the interval the list's
// dates read the same, the same caller (anonymous), the same language, Origin and Accept.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createCalendar, type Calendar, type Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { toNodeHandler } from '@evcal/http/node';
import { anonymousWithoutAuthorization, bearerTokens, createFetchHandler, createLanguageHandler, type HandlerRequest } from '@evcal/http';
import { ADMIN, HOUR, ROOT, SEED_EVENTS, START } from './support/kept-fixtures';
import { keptAnswers } from '../src/kept-answers';

const SEED = {
  events: [
    ...SEED_EVENTS,
    { id: 56, title: 'Private', start_date: '2027-01-04 10:00:00', end_date: '2027-01-04 11:00:00', timezone: 'UTC', status: 'private' },
  ],
};

type Answer = { status: number; headers: Record<string, string>; text: string };

/** A handler over a seeded memory calendar whose clock the test moves, and how often the whole way ran (it authenticates). */
async function setup(languages?: readonly string[]) {
  let now = START;
  const calendar = createCalendar({ storage: createMemoryStorage(), now: () => now });
  await calendar.importDataset(SEED);
  let whole = 0;
  const authenticate = anonymousWithoutAuthorization((request: HandlerRequest) => {
    whole += 1;
    return bearerTokens({ 'tok-admin': ADMIN })(request);
  });
  const handler = languages ? createLanguageHandler(calendar, { authenticate, languages }) : createFetchHandler(calendar, { authenticate });
  const get = async (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> => {
    const url = path.startsWith('/de/') ? `https://cal.example.org/de/cal/events/v1${path.slice(3)}` : `${ROOT}${path}`;
    const res = await handler(new Request(url, { method, headers }));
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
  };
  return {
    calendar, get,
    /** Runs `fn` and says how many requests of it went the whole way. */
    async whole<T>(fn: () => Promise<T>): Promise<[T, number]> {
      const before = whole;
      const out = await fn();
      return [out, whole - before];
    },
    later: (ms: number) => {
      now += ms;
    },
  };
}

const titles = (a: Answer) => (JSON.parse(a.text) as { events?: { title: string }[]; title?: string }).events?.map((e) => e.title) ?? [];

const create = async (calendar: Calendar, title: string, start = '2027-01-05 10:00:00', end = '2027-01-05 11:00:00') =>
  (await calendar.events.create({ title, start_date: start, end_date: end, status: 'publish' }, { principal: ADMIN })).value;

describe('a list or read asked again without its ETag', () => {
  it('is answered 200 from memory, byte for byte the whole way\'s, for a list, a list with _fields, and an event; HEAD without the body', async () => {
    const t = await setup();
    for (const path of ['/events?per_page=1', '/events?per_page=2&_fields=id,title', '/events/12']) {
      const first = await t.get(path);
      expect(first.status).toBe(200);
      const [again, whole] = await t.whole(() => t.get(path));
      expect(whole).toBe(0);
      expect(again).toEqual(first);
      const [head, wholeHead] = await t.whole(() => t.get(path, {}, 'HEAD'));
      expect(wholeHead).toBe(0);
      expect(head).toEqual({ ...first, text: '' });
      // An ETag of another state gets the 200 from memory too; its own ETag the 304.
      const [stale] = await t.whole(() => t.get(path, { 'if-none-match': '"e12r1.x"' }));
      expect(stale).toEqual(first);
      const [unmodified, wholeUnmodified] = await t.whole(() => t.get(path, { 'if-none-match': first.headers.etag! }));
      expect(wholeUnmodified).toBe(0);
      expect(unmodified.status).toBe(304);
    }
  });

  it('goes the whole way again after any write, and answers what it reads', async () => {
    const t = await setup();
    const list = await t.get('/events');
    const read = await t.get('/events/12');
    await t.get('/events');
    await create(t.calendar, 'New');
    const [afterList, wholeList] = await t.whole(() => t.get('/events'));
    expect(wholeList).toBe(1);
    expect(titles(afterList)).toContain('New');
    expect(afterList.headers.etag).not.toBe(list.headers.etag);
    // The event itself did not change, but any write moves the counter: read again, the same bytes.
    const [afterRead, wholeRead] = await t.whole(() => t.get('/events/12'));
    expect(wholeRead).toBe(1);
    expect(afterRead.text).toBe(read.text);
    await t.calendar.events.patch({ id: 12, title: 'Twelve, renamed' }, { principal: ADMIN });
    const renamed = await t.get('/events/12');
    expect(JSON.parse(renamed.text).title).toBe('Twelve, renamed');
    expect(renamed.headers.etag).not.toBe(read.headers.etag);
  });

  it('with a relative date, is answered from memory through its day and read again after midnight', async () => {
    const t = await setup();
    await t.calendar.events.create({ title: 'Tonight', start_date: '2026-11-22 22:00:00', end_date: '2026-11-22 23:45:00', status: 'publish' }, { principal: ADMIN });
    const today = '/events?start_date=today&end_date=2027-12-31';
    const first = await t.get(today);
    expect(titles(first)).toContain('Tonight');
    t.later(17 * HOUR); // 23:30, the same day: what is due after 17 hours (the horizon) runs the whole way once
    expect(await t.get(today)).toEqual(first);
    const [sameDay, wholeSameDay] = await t.whole(() => t.get(today));
    expect(wholeSameDay).toBe(0);
    expect(sameDay).toEqual(first);
    t.later(HOUR); // 00:30 on the 23rd: `today` is another day
    const [nextDay, wholeNextDay] = await t.whole(() => t.get(today));
    expect(wholeNextDay).toBe(1);
    expect(titles(nextDay)).not.toContain('Tonight');
  });

  it('with start_date=now, is answered from memory within its second and read again after it', async () => {
    const t = await setup();
    const path = '/events?start_date=now&end_date=2027-12-31';
    const first = await t.get(path);
    const [again, whole] = await t.whole(() => t.get(path));
    expect(whole).toBe(0);
    expect(again).toEqual(first);
    // 06:30:02: `now` is another instant; what the list's dates were resolved at no longer holds,
    // so the whole way resolves them again (here to the same list).
    t.later(2_000);
    const [later, wholeLater] = await t.whole(() => t.get(path));
    expect(wholeLater).toBe(1);
    expect(later.text).toBe(first.text);
  });

  it('once a scheduled post has come due, goes the whole way, which publishes it first', async () => {
    const t = await setup();
    await t.calendar.events.create({
      title: 'Scheduled', start_date: '2027-01-06 10:00:00', end_date: '2027-01-06 11:00:00', status: 'publish', date: '2026-11-22 07:00:00',
    }, { principal: ADMIN });
    expect(titles(await t.get('/events'))).not.toContain('Scheduled');
    expect((await t.whole(() => t.get('/events')))[1]).toBe(0);
    t.later(31 * 60_000);
    const [due, whole] = await t.whole(() => t.get('/events'));
    expect(whole).toBe(1);
    expect(titles(due)).toContain('Scheduled');
  });

  it('is never an administrator\'s answer to an anonymous caller, nor the other way round', async () => {
    const t = await setup();
    const admin = { authorization: 'Bearer tok-admin' };
    const adminList = await t.get('/events', admin);
    expect(titles(adminList)).toContain('Private');
    const anonymous = await t.get('/events');
    expect(titles(anonymous)).not.toContain('Private');
    const [anonymousAgain] = await t.whole(() => t.get('/events'));
    expect(titles(anonymousAgain)).not.toContain('Private');
    const [adminAgain, whole] = await t.whole(() => t.get('/events', admin));
    expect(whole).toBe(1);
    expect(adminAgain.text).toBe(adminList.text);
    expect(adminAgain.headers['cache-control']).toBe('private, no-cache');
    const refused = await t.get('/events/56');
    expect(refused.status).toBe(403);
    expect((await t.get('/events/56', admin)).status).toBe(200);
    expect(await t.get('/events/56')).toEqual(refused);
  });

  it('is per language: each language\'s address answers its own bytes', async () => {
    const t = await setup(['en', 'de']);
    const list = await t.get('/events');
    const liste = await t.get('/de/events');
    const [[listAgain, listeAgain], whole] = await t.whole(async () => [await t.get('/events'), await t.get('/de/events')] as const);
    expect(whole).toBe(0);
    expect(listAgain).toEqual(list);
    expect(listeAgain).toEqual(liste);
    expect(liste.headers['content-language']).toBe('de');
    expect(list.headers['content-language']).toBe('en');
    expect(liste.headers.etag).not.toBe(list.headers.etag);
  });
});

describe('through toNodeHandler', () => {
  async function serve(storage: Storage) {
    const calendar = createCalendar({ storage, now: () => START });
    await calendar.importDataset(SEED);
    const handler = createFetchHandler(calendar, { authenticate: bearerTokens({ 'tok-admin': ADMIN }) });
    const server = createServer(toNodeHandler(handler, { headers: () => ({ 'x-request-id': 'req-1' }) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string) => {
      const res = await fetch(`${origin}/cal/events/v1${path}`);
      const headers = Object.fromEntries(res.headers);
      delete headers.date;
      return { status: res.status, headers, text: await res.text() };
    };
    return { calendar, get };
  }

  it('writes a remembered 200 in the turn the request arrived in, the same bytes and headers, with the bridge\'s own', async () => {
    const storage = createMemoryStorage();
    const t = await serve(storage);
    for (const path of ['/events?per_page=1', '/events/34']) {
      const first = await t.get(path);
      expect(first.status).toBe(200);
      expect(first.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));
      const lastChange = vi.spyOn(storage, 'lastChange');
      const again = await t.get(path);
      // Nothing waited for: not even one asynchronous read of the counter.
      expect(lastChange).not.toHaveBeenCalled();
      lastChange.mockRestore();
      expect(again).toEqual(first);
      expect(again.headers['x-request-id']).toBe('req-1');
    }
    await create(t.calendar, 'New');
    expect(titles(await t.get('/events?per_page=10'))).toContain('New');
  });

  it('is given at once (no promise) by a handler and by a language handler, for each language\'s addresses', async () => {
    const calendar = createCalendar({ storage: createMemoryStorage(), now: () => START });
    await calendar.importDataset(SEED);
    const authenticate = bearerTokens({ 'tok-admin': ADMIN });
    const handlers = [createFetchHandler(calendar, { authenticate }), createLanguageHandler(calendar, { authenticate, languages: ['en', 'de'] })];
    for (const [handler, url] of [
      [handlers[0]!, `${ROOT}/events?per_page=1`], [handlers[0]!, `${ROOT}/events/34`],
      [handlers[1]!, `${ROOT}/events?per_page=1`], [handlers[1]!, 'https://cal.example.org/de/cal/events/v1/events/34'],
    ] as const) {
      const first = await handler.answer(new Request(url));
      expect(first.status).toBe(200);
      const again = handler.answer(new Request(url));
      expect(again).not.toBeInstanceOf(Promise);
      expect(again).toEqual(first);
    }
  });
});

describe('keptAnswers', () => {
  const request = (headers: Record<string, string> = {}): HandlerRequest => new Request(`${ROOT}/events`, { headers });
  const calendar = { listUnchanged: async () => true, listUnchangedNow: () => true };
  const stable = { change: 1, from: -Infinity, until: Infinity };
  const notModified = { status: 304, headers: { etag: 'W/"l1.x"' }, body: null };
  const ok = (bytes: number) => ({ status: 200, headers: { etag: 'W/"l1.x"' }, body: [new Uint8Array(bytes)] });

  it('remembers 200 bodies within its byte budget, and 304s beyond it', () => {
    const kept = keptAnswers(calendar, {}, { bytes: 100 })!;
    kept.remember(request(), undefined, stable, notModified, ok(101));
    expect(kept.answer(request(), undefined)).toBeUndefined();
    expect(kept.answer(request({ 'if-none-match': 'W/"l1.x"' }), undefined)).toMatchObject({ status: 304 });
    kept.remember(request(), undefined, stable, notModified, ok(100));
    expect(kept.answer(request(), undefined)).toMatchObject({ status: 200 });
  });

  it('gives nothing, and forgets, once the calendar says the validator no longer holds', () => {
    let unchanged = true;
    const kept = keptAnswers({ listUnchanged: async () => unchanged, listUnchangedNow: () => unchanged }, {})!;
    kept.remember(request(), undefined, stable, notModified, ok(10));
    expect(kept.answer(request(), undefined)).toMatchObject({ status: 200 });
    unchanged = false;
    expect(kept.answer(request(), undefined)).toBeUndefined();
    unchanged = true;
    expect(kept.answer(request(), undefined)).toBeUndefined();
  });
});
