// One visibility policy, everywhere (issue 6): for random calendars and every kind of caller,
// no list, total, filter, embedded object or single read shows a caller an event, venue or
// organizer they could not read, and protected content is redacted in lists.
// Runs on memory and on SQLite.
import { createCalendar, permissionsFor, type Principal } from '@evcal/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerTokens, createFetchHandler } from '../src/index';
import { STORAGES } from './support/storages';

const NOW = Date.UTC(2026, 10, 22, 12);
const API = 'http://cal.test/cal/events/v1';
const PRINCIPALS: Array<[string, Principal | undefined]> = [
  ['anonymous', undefined],
  ['administrator', { id: 1, role: 'administrator' }],
  ['editor', { id: 2, role: 'editor' }],
  ['author', { id: 3, role: 'author' }],
  ['contributor', { id: 4, role: 'contributor' }],
  ['subscriber', { id: 5, role: 'subscriber' }],
];
const TOKENS = Object.fromEntries(PRINCIPALS.flatMap(([name, p]) => (p ? [[`t-${name}`, p]] : [])));
const EDITOR_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

type Kind = 'event' | 'venue' | 'organizer';
interface Rec { id: number; status: string; author: number; password: string }
interface Ev extends Rec { hidden: boolean; venues: number[]; organizers: number[]; categories: number[] }
interface World { venues: Rec[]; organizers: Rec[]; events: Ev[] }

const status = fc.constantFrom('publish', 'publish', 'publish', 'draft', 'pending', 'private', 'future', 'trash');
const author = fc.integer({ min: 1, max: 7 });
const password = fc.constantFrom('', '', '', 'pw');
const rec = fc.record({ status, author, password });

const world: fc.Arbitrary<World> = fc.record({
  venues: fc.array(rec, { maxLength: 4 }),
  organizers: fc.array(rec, { maxLength: 3 }),
  events: fc.array(fc.record({
    status, author, password, hidden: fc.boolean(),
    venues: fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { maxLength: 1 }),
    organizers: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { maxLength: 2 }),
    categories: fc.uniqueArray(fc.constantFrom(10, 11), { maxLength: 2 }),
  }), { maxLength: 8 }),
}).map((w) => ({
  venues: w.venues.map((r, i) => ({ ...r, id: 100 + i })),
  organizers: w.organizers.map((r, i) => ({ ...r, id: 200 + i })),
  events: w.events.map((e, i) => ({
    ...e, id: 300 + i,
    venues: e.venues.filter((v) => v < w.venues.length).map((v) => 100 + v),
    organizers: e.organizers.filter((o) => o < w.organizers.length).map((o) => 200 + o),
  })),
}));

function dataset(w: World) {
  const post = (r: Rec) => ({
    id: r.id, status: r.status, author: r.author, password: r.password,
    // A scheduled post needs a publish date ahead, or it is published at once.
    ...(r.status === 'future' ? { date_utc: '2035-01-01 00:00:00' } : {}),
  });
  const day = (n: number) => new Date(NOW + n * 86_400_000).toISOString().slice(0, 10);
  return {
    categories: [{ id: 10, name: 'Music' }, { id: 11, name: 'Art' }],
    venues: w.venues.map((r) => ({ ...post(r), venue: `Venue ${r.id}`, city: 'Rome' })),
    organizers: w.organizers.map((r) => ({ ...post(r), organizer: `Organizer ${r.id}`, phone: '555' })),
    events: w.events.map((e, i) => ({
      ...post(e), title: `Event ${e.id}`, description: 'Secret details', timezone: 'UTC',
      start_date: `${day(2 + i)} 10:00:00`, end_date: `${day(2 + i)} 12:00:00`, hide_from_listings: e.hidden,
      venue: e.venues, organizer: e.organizers, categories: e.categories,
    })),
  };
}

const readable = (principal: Principal | undefined, kind: Kind, r: Rec) =>
  permissionsFor(principal).canRead(kind, { status: r.status, authorId: r.author } as never);
const canEdit = (principal: Principal | undefined, kind: Kind) => permissionsFor(principal).can(`edit_${kind}s`);
const listedByDefault = (principal: Principal | undefined, kind: Kind, r: Rec) =>
  (canEdit(principal, kind) ? EDITOR_STATUSES : ['publish']).includes(r.status) && readable(principal, kind, r);

async function check(storageName: string, w: World): Promise<void> {
  const storage = await STORAGES.find((s) => s.name === storageName)!.create();
  try {
    const calendar = createCalendar({ storage, now: () => NOW });
    await calendar.importDataset(dataset(w));
    const handler = createFetchHandler(calendar, { authenticate: bearerTokens(TOKENS) });
    for (const [name, principal] of PRINCIPALS) {
      const get = async (path: string) => {
        const res = await handler(new Request(`${API}${path}`, { headers: principal ? { authorization: `Bearer t-${name}` } : {} }));
        return { status: res.status, body: (await res.json()) as any, total: res.headers.get('x-tec-total') };
      };
      const at = `${name} on ${JSON.stringify(w)}`;
      const byId = <T extends Rec>(list: T[]) => new Map(list.map((r) => [r.id, r]));
      const venues = byId(w.venues);
      const organizers = byId(w.organizers);
      const events = byId(w.events);

      // Lists and their totals: exactly the readable items of the default statuses.
      const eventList = await get('/events?per_page=50');
      const expectedEvents = w.events.filter((e) => !e.hidden && listedByDefault(principal, 'event', e)).map((e) => e.id);
      expect(eventList.body.events.map((e: any) => e.id).sort(), at).toEqual(expectedEvents.sort());
      expect([eventList.body.total, Number(eventList.total)], at).toEqual([expectedEvents.length, expectedEvents.length]);
      for (const e of eventList.body.events) {
        const embedded = [...(Array.isArray(e.venue) ? e.venue : [e.venue]), ...e.organizer];
        for (const x of embedded) {
          const r = venues.get(x.id) ?? organizers.get(x.id);
          expect(r && readable(principal, venues.has(x.id) ? 'venue' : 'organizer', r), `embedded ${x.id}: ${at}`).toBe(true);
        }
        if (events.get(e.id)!.password) expect([e.description, e.categories, e.venue], `redacted ${e.id}: ${at}`).toEqual(['', [], []]);
      }
      for (const [kind, records] of [['venue', w.venues], ['organizer', w.organizers]] as const) {
        const list = await get(`/${kind}s?per_page=50`);
        const expected = records.filter((r) => listedByDefault(principal, kind, r)).map((r) => r.id);
        expect(list.body[`${kind}s`].map((x: any) => x.id).sort(), at).toEqual(expected.sort());
        expect(list.body.total, at).toBe(expected.length);
        for (const x of list.body[`${kind}s`]) {
          if (byId(records).get(x.id)!.password) expect(x[kind], `redacted ${kind} ${x.id}: ${at}`).toEqual([]);
        }
        // has_events / only_with_upcoming never rest on events the caller cannot see.
        for (const filter of ['has_events=1', 'only_with_upcoming=1']) {
          const filtered = await get(`/${kind}s?per_page=50&${filter}`);
          for (const x of filtered.body[`${kind}s`]) {
            const linked = w.events.filter((e) => (kind === 'venue' ? e.venues : e.organizers).includes(x.id));
            expect(linked.some((e) => readable(principal, 'event', e)), `${filter} ${x.id}: ${at}`).toBe(true);
          }
        }
      }

      // Filters naming a record answer as if an unreadable one did not exist.
      for (const e of w.events) {
        const res = await get(`/venues?event=${e.id}`);
        expect(res.status, `venues?event=${e.id}: ${at}`).toBe(readable(principal, 'event', e) ? 200 : 400);
      }
      for (const v of w.venues) {
        const res = await get(`/events?venue=${v.id}`);
        expect(res.status, `events?venue=${v.id}: ${at}`).toBe(readable(principal, 'venue', v) ? 200 : 400);
      }

      // Term counts are public: published events only.
      const cats = await get('/categories?hide_empty=0');
      for (const c of cats.body.categories) {
        expect(c.count, at).toBe(w.events.filter((e) => e.status === 'publish' && e.categories.includes(c.id)).length);
      }

      // Single reads: refused (403) unless readable; protected events need the password.
      for (const e of w.events) {
        const res = await get(`/events/${e.id}`);
        const expected = e.status === 'trash' ? 403 : !readable(principal, 'event', e) ? 403 : e.password ? 403 : 200;
        expect(res.status, `events/${e.id}: ${at}`).toBe(expected);
        if (res.status === 200) {
          for (const x of [...(Array.isArray(res.body.venue) ? res.body.venue : [res.body.venue]), ...res.body.organizer]) {
            const r = venues.get(x.id) ?? organizers.get(x.id)!;
            expect(readable(principal, venues.has(x.id) ? 'venue' : 'organizer', r), at).toBe(true);
          }
        }
      }
      for (const v of w.venues) {
        const res = await get(`/venues/${v.id}`);
        expect(res.status, `venues/${v.id}: ${at}`).toBe(readable(principal, 'venue', v) ? 200 : 403);
      }
    }
  } finally {
    await storage.close();
  }
}

describe('one visibility policy', () => {
  for (const [storage, numRuns] of [['memory', 40], ['sqlite', 15]] as const) {
    it(`${storage}: no route shows a caller what they may not read`, async () => {
      await fc.assert(fc.asyncProperty(world, (w) => check(storage, w)), { numRuns });
    }, 180_000);
  }
});
