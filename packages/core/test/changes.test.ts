// The change log and GET /changes: one entry per create, update, trash, delete and status
// change of every kind of record, written with the change (a failed write leaves none);
// tokens (now, paging, expired, foreign, from the future); tombstones; what each reader may
// learn (an anonymous reader never learns of a draft; a record that stops being public is
// removed for it); in-process change events; and modified_after / modified_before.
import { createCalendar, type ChangeEnvelope, type ChangesJson, type Calendar, type CallContext } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { admin, anon, as, contributor, editor, eventInput, makeCalendar, NOW, refusal } from './helpers';

/** Every entry the log holds, as `<type> <id>` (type as webhooks name it). */
async function logged(calendar: Calendar): Promise<string[]> {
  const entries = await calendar.config.storage.changes.read({ change: 0, seq: 0 }, 1_000);
  return entries.map((e) => `${e.kind}.${e.action} ${e.id}`);
}

/** The changes after `since` as `<type> <id>` or `-<type> <id>` for tombstones, reading every page. */
async function follow(calendar: Calendar, since: string, ctx: CallContext = anon, perPage = 100): Promise<{ items: string[]; token: string; pages: ChangesJson[] }> {
  const items: string[] = [];
  const pages: ChangesJson[] = [];
  let token = since;
  for (;;) {
    const page = await calendar.changes.list({ since: token, per_page: perPage }, ctx);
    pages.push(page);
    for (const c of page.changes) items.push(`${c.deleted ? '-' : ''}${c.type} ${c.id}`);
    token = page.next_token;
    if (!page.has_more) return { items, token, pages };
  }
}

const now = async (calendar: Calendar, ctx: CallContext = anon) => (await calendar.changes.list({}, ctx)).next_token;

describe('the change log', () => {
  it('records every create, update, trash, status change and delete of the five kinds', async () => {
    const calendar = makeCalendar();
    const venue = (await calendar.venues.create({ venue: 'Hall' }, as(admin))).value;
    const organizer = (await calendar.organizers.create({ organizer: 'Ada' }, as(admin))).value;
    const parent = (await calendar.categories.create({ name: 'Music' }, as(admin))).value;
    const child = (await calendar.categories.create({ name: 'Jazz', parent: parent.id }, as(admin))).value;
    const tag = (await calendar.tags.create({ name: 'Free' }, as(admin))).value;
    const event = (await calendar.events.create(eventInput({ venue: venue.id, organizer: organizer.id, categories: [child.id], tags: [tag.id] }), as(admin))).value;
    await calendar.events.patch({ id: event.id, status: 'draft' }, as(admin));
    await calendar.events.patch({ id: event.id, status: 'publish' }, as(admin));
    await calendar.events.delete({ id: event.id }, as(admin));
    await calendar.venues.patch({ id: venue.id, city: 'Rome' }, as(admin));
    await calendar.organizers.delete({ id: organizer.id }, as(admin));
    await calendar.categories.delete({ id: parent.id }, as(admin));
    await calendar.tags.delete({ id: tag.id }, as(admin));
    expect(await logged(calendar)).toEqual([
      `venue.created ${venue.id}`, `organizer.created ${organizer.id}`, `category.created ${parent.id}`, `category.created ${child.id}`, `tag.created ${tag.id}`,
      // A published event in a category and with a tag changes their counts.
      `event.created ${event.id}`, `category.updated ${child.id}`, `tag.updated ${tag.id}`,
      `event.updated ${event.id}`, `category.updated ${child.id}`, `tag.updated ${tag.id}`,
      `event.updated ${event.id}`, `category.updated ${child.id}`, `tag.updated ${tag.id}`,
      `event.trashed ${event.id}`, `category.updated ${child.id}`, `tag.updated ${tag.id}`,
      `venue.updated ${venue.id}`,
      // Trashing an organizer unlinks it from its events.
      `organizer.trashed ${organizer.id}`, `event.updated ${event.id}`,
      // Deleting a category moves its children up.
      `category.updated ${child.id}`, `category.deleted ${parent.id}`,
      `event.updated ${event.id}`, `tag.deleted ${tag.id}`,
    ]);
    const entries = await calendar.config.storage.changes.read({ change: 0, seq: 0 }, 1_000);
    // Entries carry the record's revision, the write's change number and the clock.
    const trashed = entries.find((e) => e.action === 'trashed' && e.kind === 'event')!;
    expect(trashed.revision).toBe(trashed.change);
    expect(trashed.at).toBe(NOW);
    expect([trashed.before, trashed.after]).toEqual([{ status: 'publish', authorId: 1 }, { status: 'trash', authorId: 1 }]);
  });

  it('records scheduled posts as they are published, and imports', async () => {
    let clock = NOW;
    const calendar = makeCalendar({ now: () => clock });
    const event = (await calendar.events.create(eventInput({ status: 'publish', date: '2026-11-23 12:00:00' }), as(admin))).value;
    expect(event.status).toBe('future');
    clock += 2 * 86_400_000;
    await calendar.events.list({}, anon);
    await calendar.importDataset({ tags: [{ id: 90, name: 'Imported' }] });
    expect(await logged(calendar)).toEqual([`event.created ${event.id}`, `event.updated ${event.id}`, 'tag.created 90']);
  });

  it('writes nothing of a write that fails, and nothing for a write that changes nothing', async () => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    await refusal(calendar.events.patch({ id: event.id, title: 'x', venue: 999_999 }, as(admin)), 'invalid_params');
    await refusal(calendar.events.delete({ id: event.id }, as(contributor)), 'forbidden');
    await calendar.events.get({ id: event.id }, anon);
    expect(await logged(calendar)).toEqual([`event.created ${event.id}`]);
  });
});

describe('GET /changes', () => {
  it('gives a token for now, with the hint to list everything first', async () => {
    const calendar = makeCalendar();
    const first = await calendar.changes.list({}, anon);
    expect(first).toMatchObject({ changes: [], has_more: false, full_sync_required: true });
    expect(first.next_rest_url).toBe(`http://localhost/changes?since=${encodeURIComponent(first.next_token)}&per_page=100`);
    // Nothing changed since: the same position, no hint.
    const again = await calendar.changes.list({ since: first.next_token }, anon);
    expect(again).toMatchObject({ changes: [], has_more: false, next_token: first.next_token });
    expect(again).not.toHaveProperty('full_sync_required');
  });

  it('returns each changed record once, as its list shows it, in the order of its last change, in pages', async () => {
    const calendar = makeCalendar();
    const since = await now(calendar);
    const a = (await calendar.events.create(eventInput({ title: 'A' }), as(admin))).value;
    const b = (await calendar.events.create(eventInput({ title: 'B' }), as(admin))).value;
    await calendar.events.patch({ id: a.id, title: 'A2' }, as(admin));
    const all = await follow(calendar, since, anon, 2);
    // Pages of two entries: [A created, B created], [A updated].
    expect(all.pages.map((p) => p.changes.map((c) => c.id))).toEqual([[a.id, b.id], [a.id]]);
    expect(all.pages.map((p) => p.has_more)).toEqual([true, false]);
    const whole = (await calendar.changes.list({ since }, anon)).changes;
    expect(whole.map((c) => c.id)).toEqual([b.id, a.id]);
    const listed = (await calendar.events.list({ include: String(a.id) }, anon)).body.events[0];
    // Created at change 1, B at 2, A changed again at 3.
    expect(whole[1]).toEqual({ type: 'event', id: a.id, deleted: false, revision: 3, record: listed });
    // Where the last page ended, nothing more.
    expect((await calendar.changes.list({ since: all.token }, anon)).changes).toEqual([]);
  });

  it('answers a trashed record with a tombstone, and a deleted term too', async () => {
    const calendar = makeCalendar();
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    const tag = (await calendar.tags.create({ name: 'Gone soon' }, as(admin))).value;
    const since = await now(calendar);
    await calendar.events.delete({ id: event.id }, as(admin));
    await calendar.tags.delete({ id: tag.id }, as(admin));
    const page = await calendar.changes.list({ since }, anon);
    expect(page.changes).toEqual([{ type: 'event', id: event.id, deleted: true }, { type: 'tag', id: tag.id, deleted: true }]);
  });

  it('never tells an anonymous reader of a draft; a record that stops being public is removed for it', async () => {
    const calendar = makeCalendar();
    const since = await now(calendar);
    const draft = (await calendar.events.create(eventInput({ title: 'Secret', status: 'draft' }), as(admin))).value;
    await calendar.events.patch({ id: draft.id, title: 'Still secret' }, as(admin));
    await calendar.events.delete({ id: draft.id }, as(admin));
    const published = (await calendar.events.create(eventInput({ title: 'Public' }), as(admin))).value;
    const afterPublish = (await follow(calendar, since)).token;
    await calendar.events.patch({ id: published.id, status: 'draft' }, as(admin));
    const venue = (await calendar.venues.create({ venue: 'Private hall', status: 'private' }, as(admin))).value;

    expect((await follow(calendar, since)).items).toEqual([`-event ${published.id}`]);
    expect((await follow(calendar, afterPublish)).items).toEqual([`-event ${published.id}`]);
    // An editor sees drafts and private posts (not the trash).
    expect((await follow(calendar, since, as(editor))).items).toEqual([`-event ${draft.id}`, `event ${published.id}`, `venue ${venue.id}`]);
    // A contributor sees its own drafts, not others'.
    const own = (await calendar.events.create(eventInput({ title: 'Mine' }), as(contributor))).value;
    expect(own.status).toBe('draft');
    expect((await follow(calendar, since, as(contributor))).items).toEqual([`-event ${published.id}`, `event ${own.id}`]);
    expect((await follow(calendar, since)).items).toEqual([`-event ${published.id}`]);
  });

  it('answers an expired token with 410 sync_token_expired once the log was pruned past it', async () => {
    let clock = NOW;
    const calendar = makeCalendar({ now: () => clock, changes: { retentionDays: 2 } });
    const since = await now(calendar);
    await calendar.events.create(eventInput(), as(admin));
    const recent = (await follow(calendar, since)).token;
    clock += 3 * 86_400_000;
    await calendar.events.create(eventInput({ title: 'Later' }), as(admin));
    // The pruning ran before that write: entries older than two days are gone.
    await refusal(calendar.changes.list({ since }, anon), 'sync_token_expired');
    expect((await follow(calendar, recent)).items).toHaveLength(1);
  });

  it.each([
    ['not a token', 'nonsense!'],
    ['a token of another calendar', 'other'],
    ['a token from ahead of the storage', 'ahead'],
  ])('answers %s with 410 sync_token_invalid', async (_name, kind) => {
    const storage = createMemoryStorage();
    const calendar = createCalendar({ storage, now: () => NOW });
    await calendar.events.create(eventInput(), as(admin));
    const before = storage.snapshot();
    let token = kind;
    if (kind === 'other') token = await now(makeCalendar());
    if (kind === 'ahead') {
      await calendar.events.create(eventInput({ title: 'Later' }), as(admin));
      token = await now(calendar);
      // The storage restored from a backup older than the token.
      storage.load(before);
    }
    await refusal(calendar.changes.list({ since: token }, anon), 'sync_token_invalid');
  });

  it('refuses a bad per_page and clamps a large one', async () => {
    const calendar = makeCalendar();
    const since = await now(calendar);
    await refusal(calendar.changes.list({ since, per_page: 0 }, anon), 'invalid_params');
    expect((await calendar.changes.list({ since, per_page: 10_000 }, anon)).next_rest_url).toContain('per_page=500');
  });
});

describe('calendar.on("change")', () => {
  it('tells listeners of every committed change, after the commit, with the webhook envelope', async () => {
    const calendar = makeCalendar();
    const heard: ChangeEnvelope[] = [];
    const seenCommitted: boolean[] = [];
    const stop = calendar.on('change', (change) => {
      heard.push(change);
      void calendar.config.storage.lastChange().then((last) => seenCommitted.push(last >= change.revision));
    });
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    await refusal(calendar.events.patch({ id: event.id, venue: 123_456 }, as(admin)), 'invalid_params');
    await calendar.events.delete({ id: event.id }, as(admin));
    stop();
    await calendar.events.create(eventInput({ title: 'Unheard' }), as(admin));
    expect(heard).toEqual([
      { type: 'event.created', id: event.id, revision: 1, timestamp: new Date(NOW).toISOString() },
      { type: 'event.trashed', id: event.id, revision: 2, timestamp: new Date(NOW).toISOString() },
    ]);
    expect(seenCommitted).toEqual([true, true]);
  });

  it('reports a listener that throws, and the write stands', async () => {
    const errors: unknown[] = [];
    const calendar = makeCalendar({ onError: (e) => errors.push(e) });
    calendar.on('change', () => {
      throw new Error('listener bug');
    });
    const event = (await calendar.events.create(eventInput(), as(admin))).value;
    expect((await calendar.events.get({ id: event.id }, anon)).value.id).toBe(event.id);
    expect(errors).toEqual([new Error('listener bug')]);
  });
});

describe('modified_after and modified_before', () => {
  it('select by last modification on the five list routes, and the next page keeps them', async () => {
    let clock = NOW;
    const calendar = makeCalendar({ now: () => clock });
    const old = (await calendar.events.create(eventInput({ title: 'Old', venue: { venue: 'Old hall' }, categories: ['Old'], tags: ['old'] }), as(admin))).value;
    await calendar.organizers.create({ organizer: 'Old org' }, as(admin));
    clock += 3_600_000;
    const fresh = (await calendar.events.create(eventInput({ title: 'Fresh', venue: { venue: 'New hall' }, categories: ['New'], tags: ['new'] }), as(admin))).value;
    await calendar.organizers.create({ organizer: 'New org' }, as(admin));
    const cut = new Date(NOW + 1_800_000).toISOString();
    const window = { start_date: '2000-01-01', end_date: '2099-01-01' };
    const names = async (after: Record<string, string>) => ({
      events: (await calendar.events.list({ ...window, ...after }, anon)).body.events.map((e) => e.title),
      venues: (await calendar.venues.list(after, anon)).body.venues.map((v) => v.venue),
      organizers: (await calendar.organizers.list(after, anon)).body.organizers.map((o) => o.organizer),
      categories: (await calendar.categories.list({ hide_empty: false, ...after }, anon)).body.categories.map((c) => c.name),
      tags: (await calendar.tags.list({ hide_empty: false, ...after }, anon)).body.tags.map((t) => t.name),
    });
    expect(await names({ modified_after: cut })).toEqual({ events: ['Fresh'], venues: ['New hall'], organizers: ['New org'], categories: ['New'], tags: ['new'] });
    expect(await names({ modified_before: cut })).toEqual({ events: ['Old'], venues: ['Old hall'], organizers: ['Old org'], categories: ['Old'], tags: ['old'] });
    // Exclusive bounds, to the second: the event modified at NOW is not after NOW.
    expect((await names({ modified_after: new Date(NOW).toISOString() })).events).toEqual(['Fresh']);
    const paged = await calendar.events.list({ ...window, modified_before: '2099-01-01', per_page: 1 }, anon);
    expect(paged.next).toContain('modified_before=2099-01-01');
    expect([old.id, fresh.id]).toHaveLength(2);
    await refusal(calendar.events.list({ modified_after: 'not a date' }, anon), 'invalid_params');
  });
});

