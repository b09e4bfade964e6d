// A copy kept through GET /changes equals the calendar: random writes of every kind (creates,
// updates, status changes, trash, term deletes, by an administrator and a contributor; series
// created, changed, split, trashed and made one event again, exceptions, the horizon moving
// as time passes) interleaved with readers (anonymous, contributor, administrator) that follow the changes a
// small page at a time; at the end each reader's copy equals what its full lists show.
import type { Calendar, CallContext, ChangesJson } from '@evcal/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admin, anon, as, contributor, makeCalendar, NOW } from './helpers';

type Json = Record<string, any>;

/** A reader's copy: records by `<type>:<id>`, and where it stands. */
interface Mirror {
  readonly ctx: CallContext;
  readonly records: Map<string, Json>;
  token: string;
}

async function startMirror(calendar: Calendar, ctx: CallContext): Promise<Mirror> {
  // The protocol: a token first, then the full lists (docs/sync.md).
  const { next_token: token } = await calendar.changes.list({}, ctx);
  const mirror: Mirror = { ctx, records: new Map(), token };
  for (const [type, records] of Object.entries(await fullLists(calendar, ctx))) {
    for (const r of records) mirror.records.set(`${type}:${r.id}`, r);
  }
  return mirror;
}

/** What the readers applied over all runs (the property must exercise each). */
const applied = { records: 0, tombstones: 0, series: 0, occurrences: 0, removedOccurrences: 0 };

/** Reads one page of changes into the copy; true when more are waiting. */
async function step(calendar: Calendar, mirror: Mirror, perPage: number): Promise<boolean> {
  const page: ChangesJson = await calendar.changes.list({ since: mirror.token, per_page: perPage }, mirror.ctx);
  for (const c of page.changes) {
    applied[c.deleted ? 'tombstones' : 'records']++;
    // A series is never listed (its occurrences are): the copy of the lists does not keep it.
    if (c.deleted || (c.record as Json).recurrence) mirror.records.delete(`${c.type}:${c.id}`);
    else mirror.records.set(`${c.type}:${c.id}`, c.record);
    if (!c.occurrences) continue;
    applied.series++;
    for (const r of c.occurrences.records) mirror.records.set(`event:${r.id}`, r);
    for (const id of c.occurrences.deleted) mirror.records.delete(`event:${id}`);
    applied.occurrences += c.occurrences.records.length;
    applied.removedOccurrences += c.occurrences.deleted.length;
  }
  mirror.token = page.next_token;
  return page.has_more;
}

/** Every record the caller's lists show, by kind (events of every date, hidden ones excepted). */
async function fullLists(calendar: Calendar, ctx: CallContext): Promise<Record<string, Json[]>> {
  const pages = async (list: (page: number) => Promise<{ body: Json; totalPages: number }>, key: string) => {
    const out: Json[] = [];
    for (let page = 1; ; page++) {
      const result = await list(page);
      out.push(...(result.body[key] as Json[]));
      if (page >= result.totalPages) return out;
    }
  };
  const paging = (page: number) => ({ page, per_page: 50 });
  return {
    event: await pages((p) => calendar.events.list({ ...paging(p), start_date: '1990-01-01', end_date: '2090-01-01' }, ctx), 'events'),
    venue: await pages((p) => calendar.venues.list(paging(p), ctx), 'venues'),
    organizer: await pages((p) => calendar.organizers.list(paging(p), ctx), 'organizers'),
    category: await pages((p) => calendar.categories.list({ ...paging(p), hide_empty: false }, ctx), 'categories'),
    tag: await pages((p) => calendar.tags.list({ ...paging(p), hide_empty: false }, ctx), 'tags'),
  };
}

/**
 * An event as a copy uses it (docs/sync.md): the records it embeds are copies made at the
 * event's last change, so a copy takes them from its own records, by id; an id it holds no
 * record for names one the reader may not see.
 */
function ownFields(event: Json, held: (type: string, id: number) => boolean): Json {
  const ids = (type: string, list: unknown) => (Array.isArray(list) ? list : [list]).map((x: Json) => x.id as number).filter((id) => held(type, id));
  return {
    ...event, venue: ids('venue', event.venue), organizer: ids('organizer', event.organizer),
    categories: ids('category', event.categories), tags: ids('tag', event.tags),
  };
}

async function expectMirrorEqualsLists(calendar: Calendar, mirror: Mirror, label: string): Promise<void> {
  const lists = await fullLists(calendar, mirror.ctx);
  const kept = (type: string) => [...mirror.records].filter(([k]) => k.startsWith(`${type}:`)).map(([, r]) => r);
  // Lists leave out events hidden from listings; the copy has them, flagged.
  const events = kept('event').filter((e) => !e.hide_from_listings);
  const byId = (a: Json, b: Json) => a.id - b.id;
  const held = (type: string, id: number) => mirror.records.has(`${type}:${id}`);
  expect(events.map((e) => ownFields(e, held)).sort(byId), `${label}: events`).toEqual(lists.event!.map((e) => ownFields(e, held)).sort(byId));
  for (const type of ['venue', 'organizer', 'category', 'tag']) {
    expect(kept(type).sort(byId), `${label}: ${type}`).toEqual([...lists[type]!].sort(byId));
  }
}

type Status = 'publish' | 'draft' | 'private' | 'pending';
type Op =
  | { kind: 'event'; by: 'admin' | 'contributor'; status: Status; category: number; tag: number; venue: number; hidden: boolean }
  | { kind: 'patchEvent'; pick: number; status?: Status; category?: number; title: number; hidden?: boolean }
  | { kind: 'trashEvent'; pick: number }
  | { kind: 'venue'; status: Status }
  | { kind: 'patchVenue'; pick: number; status?: Status; city: number }
  | { kind: 'trashVenue'; pick: number }
  | { kind: 'renameCategory'; pick: number; name: number }
  | { kind: 'deleteCategory'; pick: number }
  | { kind: 'deleteTag'; pick: number }
  | { kind: 'series'; by: 'admin' | 'contributor'; status: Status; rule: number; category: number }
  | { kind: 'patchSeries'; pick: number; status?: Status; title: number; rule?: number }
  | { kind: 'exception'; pick: number; status?: Status; title: number }
  | { kind: 'split'; pick: number; title: number }
  | { kind: 'trashOccurrence'; pick: number; scope: 'this' | 'following' }
  | { kind: 'tick'; days: number }
  | { kind: 'read'; reader: number; perPage: number };

/** Rules of series: bounded ones, an unbounded one (stored up to the horizon), none (one event again). */
const RULES = ['FREQ=WEEKLY;COUNT=4', 'FREQ=DAILY;INTERVAL=3;COUNT=5', 'FREQ=MONTHLY', 'FREQ=WEEKLY;COUNT=6;BYDAY=MO,FR', ''];

const status = fc.constantFrom<Status>('publish', 'publish', 'draft', 'private', 'pending');
const pick = fc.nat(50);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('event' as const), by: fc.constantFrom('admin' as const, 'contributor' as const), status, category: fc.nat(4), tag: fc.nat(3), venue: fc.nat(3), hidden: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('patchEvent' as const), pick, status: fc.option(status, { nil: undefined }), category: fc.option(fc.nat(4), { nil: undefined }), title: fc.nat(9), hidden: fc.option(fc.boolean(), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('trashEvent' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('venue' as const), status }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('patchVenue' as const), pick, status: fc.option(status, { nil: undefined }), city: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('trashVenue' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renameCategory' as const), pick, name: fc.nat(99) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteCategory' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteTag' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('series' as const), by: fc.constantFrom('admin' as const, 'contributor' as const), status, rule: fc.nat(3), category: fc.nat(4) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('patchSeries' as const), pick, status: fc.option(status, { nil: undefined }), title: fc.nat(9), rule: fc.option(fc.nat(4), { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('exception' as const), pick, status: fc.option(status, { nil: undefined }), title: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('split' as const), pick, title: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('trashOccurrence' as const), pick, scope: fc.constantFrom('this' as const, 'following' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), days: fc.integer({ min: 1, max: 90 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('read' as const), reader: fc.nat(2), perPage: fc.integer({ min: 1, max: 12 }) }) },
);

let venues = 0;

/** The clock of the calendar under test: `tick` moves it (and the horizon with it). */
let clock = NOW;

/** Runs one write; refusals (a contributor's limits, a record gone) are part of the game. */
async function apply(calendar: Calendar, o: Op, mirrors: Mirror[]): Promise<void> {
  const ids = async (list: () => Promise<{ body: Json }>, key: string) => ((await list()).body[key] as Json[]).map((r) => r.id as number);
  const allEvents = () => ids(() => calendar.events.list({ per_page: 50, start_date: '1990-01-01', end_date: '2090-01-01', status: 'publish,draft,private,pending' }, as(admin)), 'events');
  const nth = <T>(list: T[], n: number) => (list.length ? list[n % list.length] : undefined);
  const listedEvents = async () => (await calendar.events.list({ per_page: 50, start_date: '1990-01-01', end_date: '2090-01-01', status: 'publish,draft,private,pending' }, as(admin))).body.events as Json[];
  const occurrences = async () => (await listedEvents()).filter((e) => e.post_parent).map((e) => e.id as number);
  const occurrenceParents = async () => (await listedEvents()).filter((e) => e.post_parent).map((e) => e.post_parent as number);
  const ignoreRefusal = (p: Promise<unknown>) => p.catch((e: { name?: string }) => {
    if (e?.name !== 'CalendarError') throw e;
  });
  switch (o.kind) {
    case 'event': {
      const venues = await ids(() => calendar.venues.list({ per_page: 50, status: 'publish,draft,private,pending' }, as(admin)), 'venues');
      await ignoreRefusal(calendar.events.create({
        title: `E${o.category}${o.tag}`, start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 22:00:00', status: o.status,
        categories: [`Cat ${o.category}`], tags: [`tag${o.tag}`], hide_from_listings: o.hidden,
        ...(nth(venues, o.venue) ? { venue: nth(venues, o.venue) } : {}),
      }, as(o.by === 'admin' ? admin : contributor)));
      return;
    }
    case 'patchEvent': {
      const id = nth(await allEvents(), o.pick);
      if (id === undefined) return;
      await ignoreRefusal(calendar.events.patch({
        id, title: `T${o.title}`, ...(o.status ? { status: o.status } : {}), ...(o.category !== undefined ? { categories: [`Cat ${o.category}`] } : {}),
        ...(o.hidden !== undefined ? { hide_from_listings: o.hidden } : {}),
      }, as(admin)));
      return;
    }
    case 'trashEvent': {
      const id = nth(await allEvents(), o.pick);
      if (id !== undefined) await ignoreRefusal(calendar.events.delete({ id }, as(admin)));
      return;
    }
    case 'venue':
      await ignoreRefusal(calendar.venues.create({ venue: `Venue ${++venues}`, status: o.status }, as(admin)));
      return;
    case 'patchVenue':
    case 'trashVenue': {
      const id = nth(await ids(() => calendar.venues.list({ per_page: 50, status: 'publish,draft,private,pending' }, as(admin)), 'venues'), o.pick);
      if (id === undefined) return;
      await ignoreRefusal(o.kind === 'trashVenue'
        ? calendar.venues.delete({ id }, as(admin))
        : calendar.venues.patch({ id, city: `C${o.city}`, ...(o.status ? { status: o.status } : {}) }, as(admin)));
      return;
    }
    case 'renameCategory':
    case 'deleteCategory':
    case 'deleteTag': {
      const taxonomy = o.kind === 'deleteTag' ? calendar.tags : calendar.categories;
      const key = o.kind === 'deleteTag' ? 'tags' : 'categories';
      const id = nth(await ids(() => taxonomy.list({ per_page: 50, hide_empty: false }, anon), key), o.pick);
      if (id === undefined) return;
      await ignoreRefusal(o.kind === 'renameCategory'
        ? calendar.categories.update({ id, name: `Renamed ${o.name}` }, as(admin))
        : taxonomy.delete({ id }, as(admin)));
      return;
    }
    case 'series':
      await ignoreRefusal(calendar.events.create({
        title: `S${o.rule}`, start_date: '2027-01-04 19:00:00', end_date: '2027-01-04 21:00:00', status: o.status,
        categories: [`Cat ${o.category}`], recurrence: RULES[o.rule]!,
      }, as(o.by === 'admin' ? admin : contributor)));
      return;
    case 'patchSeries': {
      const id = nth([...new Set(await occurrenceParents())], o.pick);
      if (id === undefined) return;
      await ignoreRefusal(calendar.events.patch({
        id, title: `T${o.title}`, ...(o.status ? { status: o.status } : {}), ...(o.rule !== undefined ? { recurrence: RULES[o.rule]! } : {}),
      }, as(admin)));
      return;
    }
    case 'exception':
    case 'split':
    case 'trashOccurrence': {
      const id = nth(await occurrences(), o.pick);
      if (id === undefined) return;
      if (o.kind === 'trashOccurrence') await ignoreRefusal(calendar.events.delete({ id, scope: o.scope }, as(admin)));
      else {
        await ignoreRefusal(calendar.events.patch({
          id, title: `${o.kind === 'split' ? 'F' : 'X'}${o.title}`, ...(o.kind === 'split' ? { scope: 'following' } : {}),
          ...(o.kind === 'exception' && o.status ? { status: o.status } : {}),
        }, as(admin)));
      }
      return;
    }
    case 'tick':
      clock += o.days * 86_400_000;
      await calendar.extendRecurrences();
      return;
    case 'read':
      await step(calendar, mirrors[o.reader]!, o.perPage);
  }
}

describe('a copy kept through /changes', () => {
  it('equals every reader\'s full lists after random writes, deletes and status changes', async () => {
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
      clock = NOW;
      // Time passes (tick): the log is kept long enough for the readers to follow it.
      const calendar = makeCalendar({ now: () => clock, changes: { retentionDays: 3650 }, recurrence: { horizonMonths: 6, maxHorizonMonths: 24, maxOccurrences: 1000 } });
      // Something to start from before the readers copy the calendar.
      await calendar.events.create({ title: 'Seed', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', categories: ['Cat 0'], venue: { venue: 'Seed hall' } }, as(admin));
      const mirrors = [await startMirror(calendar, anon), await startMirror(calendar, as(contributor)), await startMirror(calendar, as(admin))];
      for (const o of ops) await apply(calendar, o, mirrors);
      // A list reaching past the recurrence horizon stores the occurrences it shows first: a
      // change the readers follow like any other. So list once, then follow, then compare.
      await fullLists(calendar, as(admin));
      for (const [i, mirror] of mirrors.entries()) {
        while (await step(calendar, mirror, 3));
        await expectMirrorEqualsLists(calendar, mirror, ['anonymous', 'contributor', 'administrator'][i]!);
      }
    }), { numRuns: 40 });
    expect(applied.records).toBeGreaterThan(100);
    expect(applied.tombstones).toBeGreaterThan(10);
    // Series items carrying occurrences to put in and to take out (random: bounds well below a typical run).
    expect(applied.series).toBeGreaterThan(15);
    expect(applied.occurrences).toBeGreaterThan(30);
    expect(applied.removedOccurrences).toBeGreaterThan(10);
  }, 120_000);

  it('names a venue again in the events linking it when the venue is published again (fast-check seed -938037717)', async () => {
    clock = NOW;
    const calendar = makeCalendar({ now: () => clock, changes: { retentionDays: 3650 } });
    await calendar.events.create({ title: 'Seed', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00', categories: ['Cat 0'], venue: { venue: 'Seed hall' } }, as(admin));
    const mirrors = [await startMirror(calendar, anon)];
    // The venue goes draft: anonymous readers see the event without it, and the reader copies that.
    const ops: Op[] = [
      { kind: 'patchVenue', pick: 0, status: 'draft', city: 0 },
      { kind: 'patchEvent', pick: 0, title: 0 },
      { kind: 'read', reader: 0, perPage: 2 },
      // Published again: no field of the event changes, but what an anonymous reader sees of it does.
      { kind: 'patchVenue', pick: 0, status: 'publish', city: 0 },
    ];
    for (const o of ops) await apply(calendar, o, mirrors);
    while (await step(calendar, mirrors[0]!, 3));
    await expectMirrorEqualsLists(calendar, mirrors[0]!, 'anonymous');
  });
});
