// Records: CRUD on every collection, slugs, id sequences, links, term names, transactions
// and durability.
import type { EventQuery, EventRecord, Storage } from '@evcal/core/adapter';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';
import { eventRecord, organizerRecord, termRecord, venueRecord } from './fixtures';

type Collection = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
const make = {
  events: eventRecord, venues: venueRecord, organizers: organizerRecord, categories: termRecord, tags: termRecord,
} as const;
const COLLECTIONS = Object.keys(make) as Collection[];

function coll(s: Storage, name: Collection) {
  return s[name] as unknown as {
    get(id: number): Promise<{ id: number; slug: string } | undefined>;
    getMany(ids: readonly number[]): Promise<readonly { id: number }[]>;
    getBySlug(slug: string): Promise<{ id: number } | undefined>;
    insert(r: unknown): Promise<void>;
    replace(r: unknown): Promise<void>;
    delete(id: number): Promise<void>;
  };
}

export function recordsGroup(ctx: SuiteContext): void {
  describe('records', () => {
    for (const name of COLLECTIONS) {
      describe(name, () => {
        it('inserts, reads back exactly, replaces and deletes', async () => {
          const s = await ctx.fresh();
          const c = coll(s, name);
          const record = make[name](7, { slug: 'café-ünïcode-7' } as never);
          await c.insert(record);
          expect(await c.get(7)).toEqual(record);
          expect(await c.get(8)).toBeUndefined();
          const changed = { ...record, slug: 'renamed' };
          await c.replace(changed);
          expect(await c.get(7)).toEqual(changed);
          await c.delete(7);
          expect(await c.get(7)).toBeUndefined();
        });

        it('refuses a second insert of an id and a replace of a missing one', async () => {
          const s = await ctx.fresh();
          const c = coll(s, name);
          await c.insert(make[name](1));
          await expect(c.insert(make[name](1))).rejects.toThrow();
          await expect(c.replace(make[name](2))).rejects.toThrow();
          expect(await c.get(2)).toBeUndefined();
        });

        it('gets many by id, skipping unknown ones', async () => {
          const s = await ctx.fresh();
          const c = coll(s, name);
          for (const id of [1, 2, 3]) await c.insert(make[name](id));
          const got = await c.getMany([3, 1, 99, 1]);
          expect(got.map((r) => r.id).sort()).toEqual([1, 3]);
          expect(await c.getMany([])).toEqual([]);
        });

        it('finds by exact slug; an empty slug finds nothing', async () => {
          const s = await ctx.fresh();
          const c = coll(s, name);
          await c.insert(make[name](1, { slug: 'Mixed-Case' } as never));
          await c.insert(make[name](2, { slug: '' } as never));
          await c.insert(make[name](3, { slug: '100%_off' } as never));
          expect((await c.getBySlug('Mixed-Case'))?.id).toBe(1);
          expect(await c.getBySlug('mixed-case')).toBeUndefined();
          expect(await c.getBySlug('')).toBeUndefined();
          expect((await c.getBySlug('100%_off'))?.id).toBe(3);
          expect(await c.getBySlug('100%')).toBeUndefined();
          expect(await c.getBySlug('1000_off')).toBeUndefined();
        });
      });
    }

    it('keeps every field of an event, images and unicode included', async () => {
      const s = await ctx.fresh();
      const event = eventRecord(1, {
        title: 'Fête — "quoted" \\ back\'slash', description: '<p>😀 ünïcödé</p>', excerpt: 'x'.repeat(5000),
        image: { url: 'https://img.example/a.jpg', id: 5, width: 10, height: 20, sizes: { thumb: { url: 'https://img.example/t.jpg', width: 1 } } },
        cost: ['0$', '20$'], currencySymbol: '$', currencyPosition: 'postfix', website: '', dateUtc: null,
        categoryIds: [3, 1, 2], tagIds: [9], venueIds: [4], organizerIds: [6, 5], ticketed: true, password: 'p@ss',
        timezone: 'UTC+5.5', allDay: true, parentId: 12,
      });
      await s.events.insert(event);
      expect(await s.events.get(1)).toEqual(event);
    });

    it('keeps the lineage of migrated posts, and none on the others', async () => {
      const s = await ctx.fresh();
      const lineage = ['events.example.org?id=8', 'old.example.org/blog?id=3'];
      await s.events.insert(eventRecord(1, { lineage }));
      await s.venues.insert(venueRecord(2, { lineage: [lineage[0]!] }));
      await s.organizers.insert(organizerRecord(3, { lineage }));
      await s.events.insert(eventRecord(4));
      expect((await s.events.get(1))?.lineage).toEqual(lineage);
      expect((await s.venues.get(2))?.lineage).toEqual([lineage[0]]);
      expect((await s.organizers.get(3))?.lineage).toEqual(lineage);
      expect((await s.events.get(4))?.lineage ?? []).toEqual([]);
      await s.events.replace(eventRecord(1, { lineage: [lineage[1]!] }));
      expect((await s.events.get(1))?.lineage).toEqual([lineage[1]]);
      if (!ctx.options.reopen) return;
      const again = await ctx.reopen(s);
      expect((await again.events.get(1))?.lineage).toEqual([lineage[1]]);
      expect((await again.organizers.get(3))?.lineage).toEqual(lineage);
      expect((await again.events.get(4))?.lineage ?? []).toEqual([]);
    });

    it('keeps the iCalendar UID of an imported event, through replace and lists, and its absence', async () => {
      const s = await ctx.fresh();
      const imported = eventRecord(1, { icalUid: '12@other.example' });
      await s.events.insert(imported);
      await s.events.insert(eventRecord(2));
      expect(await s.events.get(1)).toEqual(imported);
      expect((await s.events.get(2))?.icalUid).toBeUndefined();
      await s.events.replace({ ...imported, title: 'Renamed' });
      const listed = await s.events.list({ records: 'listed', statuses: ['publish'], excludeHidden: false, sort: [{ field: 'id', direction: 'asc' }] });
      expect(listed.items.map((e) => [e.id, e.title, e.icalUid])).toEqual([[1, 'Renamed', '12@other.example'], [2, 'Event 2', undefined]]);
    });

    it('keeps series and their occurrences (ids above 2^31, their links), lists each as its query says, and counts a series once per term', async () => {
      const s = await ctx.fresh();
      const series = eventRecord(7, {
        categoryIds: [3], tagIds: [4], venueIds: [5],
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=2', rdate: ['2026-06-20 18:00:00'], exdate: ['2026-06-13'], idBase: 7 },
      });
      const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000 + 719_163;
      const occurrence = (date: string, over: Partial<EventRecord> = {}) => eventRecord(day(date) * 2 ** 31 + 7, {
        parentId: 7, slug: `event-7/${date}`, categoryIds: [3], tagIds: [4], venueIds: [5], startUtc: Date.parse(`${date}T18:00:00Z`),
        occurrence: { date, originalStart: `${date} 18:00:00` }, ...over,
      });
      const first = occurrence('2026-06-06');
      const moved = occurrence('2026-06-20', {
        title: 'Moved', startUtc: Date.parse('2026-06-21T18:00:00Z'),
        occurrence: { date: '2026-06-20', originalStart: '2026-06-20 18:00:00', overrides: { title: 'Moved', startLocal: '2026-06-21 18:00:00', categoryIds: [3] } },
      });
      const plain = eventRecord(8, { categoryIds: [3], startUtc: Date.parse('2026-06-07T10:00:00Z') });
      for (const e of [series, first, moved, plain]) await s.events.insert(e);
      expect(first.id).toBeGreaterThan(2 ** 31);
      expect(await s.events.get(7)).toEqual(series);
      expect(await s.events.get(moved.id)).toEqual(moved);
      expect((await s.events.getMany([first.id, moved.id, 8])).map((e) => e.id).sort((a, b) => a - b)).toEqual([8, first.id, moved.id]);
      const ids = async (records: EventQuery['records'], more: Partial<EventQuery> = {}) => (await s.events.list({
        records, statuses: ['publish'], excludeHidden: true, sort: [{ field: 'id', direction: 'asc' }], ...more,
      })).items.map((e) => e.id);
      expect(await ids('listed')).toEqual([8, first.id, moved.id]);
      expect(await ids('stored')).toEqual([7, 8]);
      expect(await ids('series')).toEqual([7]);
      expect(await ids('listed', { categoryIds: [3], venueIds: [5] })).toEqual([first.id, moved.id]);
      expect(await ids('listed', { parentId: 7 })).toEqual([first.id, moved.id]);
      expect(await ids('listed', { ids: [moved.id, 7] })).toEqual([moved.id]);
      const page = await s.events.list({ records: 'listed', statuses: ['publish'], excludeHidden: true, sort: [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }], limit: 1, start: { gte: Date.parse('2026-06-01T00:00:00Z') } });
      expect(page.total).toBe(3);
      expect([...(await s.events.countByTerm('category', [3], ['publish'])).entries()]).toEqual([[3, 2]]);
      await s.events.delete(first.id);
      expect(await s.events.get(first.id)).toBeUndefined();
      expect([...(await s.events.countByTerm('category', [3], ['publish'])).entries()]).toEqual([[3, 2]]);
      if (!ctx.options.reopen) return;
      const again = await ctx.reopen(s);
      expect(await again.events.get(moved.id)).toEqual(moved);
      expect(await again.events.get(7)).toEqual(series);
    });

    it('keeps the recurrence horizon, which only grows', async () => {
      const s = await ctx.fresh();
      expect(await s.sequences.peek('horizon')).toBe(0);
      await s.transaction(async (tx) => tx.sequences.bump('horizon', 1_900_000_000_000));
      await s.transaction(async (tx) => tx.sequences.bump('horizon', 1_800_000_000_000));
      expect(await s.sequences.peek('horizon')).toBe(1_900_000_000_000);
      if (!ctx.options.reopen) return;
      expect(await (await ctx.reopen(s)).sequences.peek('horizon')).toBe(1_900_000_000_000);
    });

    it('keeps venue coordinates and null ones', async () => {
      const s = await ctx.fresh();
      const located = venueRecord(1, { geoLat: 41.9028, geoLng: 12.4964 });
      await s.venues.insert(located);
      await s.venues.insert(venueRecord(2));
      expect(await s.venues.get(1)).toEqual(located);
      expect((await s.venues.get(2))?.geoLat).toBeNull();
    });

    it('hands out increasing ids per sequence, and never one below a bumped id', async () => {
      const s = await ctx.fresh();
      expect(await s.sequences.peek('post')).toBe(0);
      const a = await s.sequences.next('post');
      expect(await s.sequences.peek('post')).toBe(a);
      const b = await s.sequences.next('post');
      expect(b).toBeGreaterThan(a);
      const t = await s.sequences.next('term');
      expect(t).toBeGreaterThan(0);
      await s.sequences.bump('post', 500);
      expect(await s.sequences.next('post')).toBeGreaterThan(500);
      await s.sequences.bump('post', 10);
      expect(await s.sequences.next('post')).toBeGreaterThan(501);
      expect(await s.sequences.peek('post')).toBeGreaterThan(501);
      expect(await s.sequences.next('term')).toBeLessThan(500);
    });

    it('finds terms by name ignoring case and accents the way folding does', async () => {
      const s = await ctx.fresh();
      await s.categories.insert(termRecord(1, { name: 'Live Music' }));
      await s.categories.insert(termRecord(2, { name: 'live music', parent: 1 }));
      await s.categories.insert(termRecord(3, { name: 'Café' }));
      expect((await s.categories.findByName('LIVE MUSIC')).map((t) => t.id).sort()).toEqual([1, 2]);
      expect((await s.categories.findByName('cafe')).map((t) => t.id)).toEqual([3]);
      expect(await s.categories.findByName('Live')).toEqual([]);
      expect(await s.tags.findByName('Live Music')).toEqual([]);
    });

    it('unlinks a venue, organizer, category or tag from every event, stamping their revision', async () => {
      const s = await ctx.fresh();
      await s.events.insert(eventRecord(1, { venueIds: [4, 5], organizerIds: [6], categoryIds: [7, 8], tagIds: [9] }));
      await s.events.insert(eventRecord(2, { venueIds: [4], organizerIds: [6, 10], categoryIds: [8], tagIds: [] }));
      await s.events.insert(eventRecord(3, { venueIds: [5] }));
      await s.events.unlink('venue', 4, 11);
      await s.events.unlink('organizer', 6, 12);
      await s.events.unlink('category', 8, 13);
      await s.events.unlink('tag', 9, 14);
      const [one, two, three] = [(await s.events.get(1))!, (await s.events.get(2))!, (await s.events.get(3))!];
      expect([one.venueIds, one.organizerIds, one.categoryIds, one.tagIds]).toEqual([[5], [], [7], []]);
      expect([two.venueIds, two.organizerIds, two.categoryIds, two.tagIds]).toEqual([[], [10], [], []]);
      expect([one.revision, two.revision, three.revision]).toEqual([14, 13, 1]);
    });

    it('counts the events of each status using a term', async () => {
      const s = await ctx.fresh();
      await s.events.insert(eventRecord(1, { categoryIds: [7, 8] }));
      await s.events.insert(eventRecord(2, { categoryIds: [7], status: 'draft' }));
      await s.events.insert(eventRecord(3, { categoryIds: [7], tagIds: [7] }));
      const counts = await s.events.countByTerm('category', [7, 8, 9], ['publish']);
      expect([counts.get(7), counts.get(8), counts.get(9)]).toEqual([2, 1, 0]);
      expect((await s.events.countByTerm('category', [7], ['publish', 'draft'])).get(7)).toBe(3);
      expect((await s.events.countByTerm('tag', [7], ['publish'])).get(7)).toBe(1);
    });

    it('counts, inside a transaction, the events as the transaction changed them', async () => {
      const s = await ctx.fresh();
      await s.events.insert(eventRecord(1, { categoryIds: [7, 8] }));
      await s.events.insert(eventRecord(2, { categoryIds: [7] }));
      await s.events.insert(eventRecord(3, { categoryIds: [8], status: 'draft' }));
      const inside = await s.transaction(async (tx) => {
        await tx.events.insert(eventRecord(4, { categoryIds: [7, 9] }));
        await tx.events.replace(eventRecord(1, { categoryIds: [8] }));
        await tx.events.replace(eventRecord(3, { categoryIds: [8, 9] }));
        await tx.events.delete(2);
        return tx.events.countByTerm('category', [7, 8, 9], ['publish']);
      });
      // 7: event 4 only; 8: events 1 and 3 (now published); 9: events 3 and 4.
      expect([inside.get(7), inside.get(8), inside.get(9)]).toEqual([1, 2, 2]);
      const after = await s.events.countByTerm('category', [7, 8, 9], ['publish']);
      expect([after.get(7), after.get(8), after.get(9)]).toEqual([1, 2, 2]);
    });

    describe('transactions', () => {
      it('makes the writes of a transaction visible together', async () => {
        const s = await ctx.fresh();
        const result = await s.transaction(async (tx) => {
          await tx.venues.insert(venueRecord(1));
          await tx.events.insert(eventRecord(2, { venueIds: [1] }));
          expect((await tx.events.get(2))?.venueIds).toEqual([1]);
          return 'done';
        });
        expect(result).toBe('done');
        expect(await s.venues.get(1)).toBeDefined();
        expect(await s.events.get(2)).toBeDefined();
      });

      it('leaves nothing written when the transaction fails (adapters with transactions)', async () => {
        const s = await ctx.fresh();
        if (!s.capabilities.transactions) return;
        await s.events.insert(eventRecord(1));
        await expect(s.transaction(async (tx) => {
          await tx.venues.insert(venueRecord(2));
          await tx.events.replace(eventRecord(1, { title: 'changed' }));
          await tx.sequences.next('post');
          throw new Error('boom');
        })).rejects.toThrow('boom');
        expect(await s.venues.get(2)).toBeUndefined();
        expect((await s.events.get(1))?.title).toBe('Event 1');
      });

      it('serialises concurrent transactions', async () => {
        const s = await ctx.fresh();
        const ids = await Promise.all(Array.from({ length: 20 }, () => s.transaction(async (tx) => {
          const id = await tx.sequences.next('post');
          await tx.events.insert(eventRecord(id));
          return id;
        })));
        expect(new Set(ids).size).toBe(20);
        expect((await s.events.getMany(ids)).length).toBe(20);
      });
    });

    it('keeps everything across a reopen (durable adapters)', async () => {
      if (!ctx.options.reopen) return;
      const s = await ctx.fresh();
      const event: EventRecord = eventRecord(3, { categoryIds: [1], venueIds: [2] });
      await s.categories.insert(termRecord(1));
      await s.venues.insert(venueRecord(2));
      await s.events.insert(event);
      await s.sequences.bump('post', 40);
      const again = await ctx.reopen(s);
      expect(again.capabilities.durable).toBe(true);
      expect(await again.events.get(3)).toEqual(event);
      expect(await again.categories.get(1)).toEqual(termRecord(1));
      expect(await again.sequences.next('post')).toBeGreaterThan(40);
    });
  });
}
