// migrateFromReference against a fake reference site served over real HTTP from the recorded
// responses of ../shared/fixtures/tec-site: what is read (and how: pages, the 404 past the end,
// credentials, retries) and what the target then shows, compared with what the site showed.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createCalendar, type Calendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { isMigrationError, migrateFromReference, type MigrateOptions } from '@evcal/migrate';
import { APP_PASSWORD, recordedSite, SITE, startFakeReference, USER, type FakeReference, type Json } from './support/fake-reference';

const HAVE_FIXTURES = existsSync(fileURLToPath(new URL('../../../../shared/fixtures/tec-site/README.md', import.meta.url)));
if (!HAVE_FIXTURES) console.warn('NOTICE: ../shared/fixtures/tec-site is missing: the migration tests against recorded responses are skipped.');

const credentials = { user: USER, password: APP_PASSWORD };
const LINKS = { siteUrl: SITE, apiRoot: `${SITE}/wp-json/tribe/events/v1` };
const admin = { principal: { id: 1, role: 'administrator' }, links: LINKS };

const open: FakeReference[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function site(data = recordedSite()): Promise<FakeReference> {
  const fake = await startFakeReference(data);
  open.push(fake);
  return fake;
}

function target(): Calendar {
  return createCalendar({ storage: createMemoryStorage(), now: () => Date.UTC(2026, 10, 22, 12) });
}

const migrate = (calendar: Calendar, fake: FakeReference, options: Partial<MigrateOptions> = {}) =>
  migrateFromReference(calendar, { from: fake.api, credentials, retries: 2, ...options });

/** The fields a client reads of an event, with embedded records reduced to their ids. */
function eventView(e: Json): Json {
  const { categories, tags, venue, organizer, json_ld: _, custom_fields: __, ...rest } = e;
  return {
    ...rest,
    categories: categories.map((t: Json) => t.id),
    tags: tags.map((t: Json) => t.id),
    venue: (Array.isArray(venue) ? venue : [venue]).map((v: Json) => v.id),
    organizer: organizer.map((o: Json) => o.id),
  };
}

describe.skipIf(!HAVE_FIXTURES)('migrating a recorded reference site', () => {
  it('carries every record with its id, slug, status, dates, flags, costs and links', async () => {
    const fake = await site();
    const cal = target();
    const report = await migrate(cal, fake);
    expect(report.failed).toEqual([]);
    expect(report.verification).toEqual({ ok: true, problems: [] });
    const recorded = recordedSite();
    expect(Object.fromEntries(Object.entries(report.kinds).map(([k, c]) => [k, [c.sourceTotal, c.created, c.inTarget]]))).toEqual({
      categories: [3, 3, 3], tags: [4, 4, 4], venues: [3, 3, 3], organizers: [4, 4, 4], events: [5, 5, 5],
    });
    for (const source of recorded.events) {
      const got = (await cal.events.get({ id: source.id, context: 'edit' }, admin)).value;
      const want = eventView(source);
      // A draft's modified_utc reads as zeros at the reference; evcal keeps the real instant.
      if (source.modified_utc === '0000-00-00 00:00:00') delete want.modified_utc;
      expect(eventView(got), `event ${source.id}`).toMatchObject(want);
      expect(got.global_id_lineage).toEqual([source.global_id]);
    }
    for (const [kind, list] of [['venues', recorded.venues], ['organizers', recorded.organizers]] as const) {
      for (const source of list) {
        const got = (await cal[kind].get({ id: source.id }, admin)).value;
        const { json_ld: _, ...rest } = got;
        expect(rest, `${kind} ${source.id}`).toEqual(source);
      }
    }
    // Term counts are the site's (blog posts and events outside the recordings count too); the rest is equal.
    const withoutCount = ({ count: _, ...term }: Json) => term;
    for (const [kind, list] of [['categories', recorded.categories], ['tags', recorded.tags]] as const) {
      const { body } = await cal[kind].list({ per_page: 50, hide_empty: false }, admin);
      expect(((body as Record<string, unknown>)[kind] as Json[]).map(withoutCount), kind).toEqual([...list].sort((a, b) => a.name.localeCompare(b.name)).map(withoutCount));
    }
  });

  it('asks for the whole date range and every status, 50 a page, following next_rest_url', async () => {
    const fake = await site();
    fake.maxPerPage = 2;
    const report = await migrate(target(), fake);
    expect(report.kinds.events.created).toBe(5);
    // The first request with per_page=1 is the check that the credentials may read drafts.
    const events = fake.requests.filter((r) => /^\/wp-json\/tribe\/events\/v1\/events\/?\?/.test(r.url) && !r.url.includes('per_page=1&'));
    expect(events.map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual([null, '2', '3']);
    const first = new URL(events[0]!.url, 'http://x').searchParams;
    expect(first.get('per_page')).toBe('50');
    expect(first.get('start_date')!.slice(0, 4) < '2000').toBe(true);
    expect(first.get('status')).toBe('publish,future,draft,pending,private,trash');
    expect(fake.requests.every((r) => r.authorization === `Basic ${btoa(`${USER}:${APP_PASSWORD}`)}`)).toBe(true);
    // Terms keep their own filters: the reference's next_rest_url for terms carries only the page.
    const categories = fake.requests.filter((r) => r.url.includes('/categories'));
    expect(categories).toHaveLength(2);
    for (const r of categories) expect(new URL(r.url, 'http://x').searchParams.get('hide_empty')).toBe('false');
  });

  it('ends a list at the 404 the reference answers for a page past the end', async () => {
    const fake = await site();
    fake.maxPerPage = 2;
    fake.phantomNext = true;
    const report = await migrate(target(), fake);
    expect(report.kinds.events.created).toBe(5);
    expect(report.verification?.ok).toBe(true);
    expect(fake.requests.filter((r) => /\/events\/?\?/.test(r.url) && r.url.endsWith('page=4'))).toHaveLength(1);
  });

  it('reads only published records without credentials', async () => {
    const fake = await site();
    const cal = target();
    const report = await migrate(cal, fake, { credentials: undefined });
    expect(report.kinds.events.created).toBe(4);
    expect(report.verification?.ok).toBe(true);
    await expect(cal.events.get({ id: 12 }, admin)).rejects.toThrow();
    expect(fake.requests.some((r) => r.authorization !== undefined)).toBe(false);
    expect(fake.requests.some((r) => r.url.includes('status='))).toBe(false);
  });

  it('refuses wrong credentials before writing anything', async () => {
    const fake = await site();
    const cal = target();
    const error = await migrate(cal, fake, { credentials: { user: USER, password: 'wrong' } }).catch((e: unknown) => e);
    expect(isMigrationError(error) && error.code).toBe('bad_credentials');
    expect((await cal.exportDataset()).events).toEqual([]);
  });

  it('waits as long as a 429 asks (Retry-After), and retries a 500', async () => {
    const fake = await site();
    fake.fail('/venues', { status: 429, headers: { 'retry-after': '1' } });
    fake.fail('/organizers', { status: 500 });
    const report = await migrate(target(), fake);
    expect(report.kinds.venues.created).toBe(3);
    expect(report.kinds.organizers.created).toBe(4);
    const venues = fake.requests.filter((r) => r.url.startsWith('/wp-json/tribe/events/v1/venues'));
    expect(venues).toHaveLength(2);
    expect(venues[1]!.at - venues[0]!.at).toBeGreaterThanOrEqual(950);
    expect(fake.requests.filter((r) => r.url.startsWith('/wp-json/tribe/events/v1/organizers'))).toHaveLength(2);
  });

  it('gives up with a clear error when the source keeps failing', async () => {
    const fake = await site();
    fake.fail('/tags', { status: 503 }, { status: 503 }, { status: 503 });
    const error = await migrate(target(), fake, { retries: 2 }).catch((e: unknown) => e);
    expect(isMigrationError(error) && error.code).toBe('http_error');
    expect(String(error)).toMatch(/tags.*503/);
  });

  it('tells a wrong URL, a missing API and a server that is not the reference apart', async () => {
    const fake = await site();
    const html = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Hello</html>'));
    const json = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}'));
    await Promise.all([html, json].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
    const port = (s: typeof html) => (s.address() as AddressInfo).port;
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = port(closed);
    await new Promise<void>((r) => closed.close(() => r()));
    try {
      const code = async (from: string) => {
        const error = await migrateFromReference(target(), { from, retries: 0 }).catch((e: unknown) => e);
        return isMigrationError(error) ? [error.code, error.message] : ['no error', String(error)];
      };
      expect(await code(`http://127.0.0.1:${deadPort}/wp-json/tribe/events/v1`)).toEqual(['unreachable', expect.stringContaining('ECONNREFUSED')]);
      expect(await code(`${fake.origin}/wp-json/nothing/here`)).toEqual(['not_found', expect.stringContaining('API root')]);
      expect(await code(`http://127.0.0.1:${port(html)}/wp-json/tribe/events/v1`)).toEqual(['not_reference', expect.stringContaining('JSON')]);
      expect(await code(`http://127.0.0.1:${port(json)}/wp-json/tribe/events/v1`)).toEqual(['not_reference', expect.stringContaining('/events')]);
      expect(await code('ftp://example.org/x')).toEqual(['bad_url', expect.any(String)]);
    } finally {
      html.close();
      json.close();
    }
  });

  it('changes nothing on a second run, and updates what changed by modified', async () => {
    const data = recordedSite();
    const fake = await site(data);
    const cal = target();
    await migrate(cal, fake);
    const before = await cal.exportDataset();
    const again = await migrate(cal, fake);
    expect(Object.values(again.kinds).map((k) => [k.created, k.updated])).toEqual(Array(5).fill([0, 0]));
    expect(again.kinds.events.unchanged).toBe(5);
    expect(await cal.exportDataset()).toEqual(before);

    const gala = data.events.find((e) => e.id === 11)!;
    Object.assign(gala, { title: 'New York Gala (sold out)', modified: '2026-11-23 10:00:00', modified_utc: '2026-11-23 10:00:00' });
    data.categories.push({ ...data.categories[0], id: 30, name: 'Talks', slug: 'talks' });
    const third = await migrate(cal, fake);
    expect([third.kinds.events.updated, third.kinds.events.unchanged, third.kinds.categories.created]).toEqual([1, 4, 1]);
    expect((await cal.events.get({ id: 11 }, admin)).value.title).toBe('New York Gala (sold out)');
  });

  it('reports what a dry run would do and writes nothing', async () => {
    const fake = await site();
    const cal = target();
    const report = await migrate(cal, fake, { dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.kinds.events.created).toBe(5);
    expect(report.verification).toBeUndefined();
    const empty = await cal.exportDataset();
    expect([empty.events, empty.venues, empty.categories]).toEqual([[], [], []]);
  });

  it('resumes an aborted run, leaving nothing half-written', async () => {
    const fake = await site();
    fake.maxPerPage = 2;
    const cal = target();
    const controller = new AbortController();
    let events = 0;
    const aborted = await migrate(cal, fake, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.kind === 'events' && p.done > 0 && ++events === 2) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('AbortError');
    const partial = await cal.exportDataset();
    expect(partial.events.length).toBeLessThan(5);
    expect(partial.venues).toHaveLength(3);
    const resumed = await migrate(cal, fake);
    expect(resumed.kinds.events.created + resumed.kinds.events.unchanged).toBe(5);
    expect(resumed.kinds.events.unchanged).toBe(partial.events.length);
    const clean = target();
    await migrate(clean, fake);
    expect(await cal.exportDataset()).toEqual(await clean.exportDataset());
  });

  it('keeps ids apart from a foreign record, or gives new ids with --new-ids', async () => {
    const fake = await site();
    const cal = target();
    await cal.importDataset({ events: [{ id: 8, title: 'Ours', start_date: '2026-12-24 18:00', end_date: '2026-12-24 20:00', status: 'publish' }] });
    const kept = await migrate(cal, fake);
    expect(kept.failed).toEqual([{ kind: 'events', sourceId: 8, name: 'Past Workshop', reason: expect.stringContaining('--new-ids') }]);
    expect((await cal.events.get({ id: 8 }, admin)).value.title).toBe('Ours');

    const fresh = target();
    await fresh.importDataset({ events: [{ id: 8, title: 'Ours', start_date: '2026-12-24 18:00', end_date: '2026-12-24 20:00', status: 'publish' }] });
    const renumbered = await migrate(fresh, fake, { newIds: true });
    expect(renumbered.failed).toEqual([]);
    expect(renumbered.kinds.events.created).toBe(5);
    const { body } = await fresh.events.list({ per_page: 50, start_date: '2026-01-01', status: 'publish,draft' }, admin);
    const workshop = (body.events as Json[]).find((e) => e.slug === 'past-workshop')!;
    expect(workshop.id).not.toBe(8);
    expect(workshop.global_id_lineage).toEqual([`events.example.org?id=${workshop.id}`, 'events.example.org?id=8']);
    const venue = (workshop.venue as Json).id;
    expect((await fresh.venues.get({ id: venue }, admin)).value.slug).toBe('main-hall');
    expect(venue).not.toBe(4);
    const second = await migrate(fresh, fake, { newIds: true });
    expect(Object.values(second.kinds).map((k) => k.created)).toEqual([0, 0, 0, 0, 0]);
  });
});

describe.skipIf(!HAVE_FIXTURES)('records no list shows', () => {
  /** The site with an event hidden from listings (id 20) and a password-protected one (id 21). */
  function withHiddenAndProtected() {
    const data = recordedSite();
    const base = data.events.find((e) => e.id === 9)!;
    data.events.push({ ...structuredClone(base), id: 20, title: 'Hidden Gala', slug: 'hidden-gala', hide_from_listings: true, global_id: 'events.example.org?id=20', global_id_lineage: ['events.example.org?id=20'] });
    data.events.push({ ...structuredClone(base), id: 21, title: 'Members Night', slug: 'members-night', description: '<p>Secret.</p>', global_id: 'events.example.org?id=21', global_id_lineage: ['events.example.org?id=21'] });
    data.passwords.set(21, 'members');
    return data;
  }

  it('finds events hidden from listings with findHidden, id by id', async () => {
    const fake = await site(withHiddenAndProtected());
    const cal = target();
    const report = await migrate(cal, fake, { findHidden: true });
    expect(report.kinds.events.found).toBe(1);
    const hidden = (await cal.events.get({ id: 20 }, admin)).value;
    expect([hidden.title, hidden.hide_from_listings]).toEqual(['Hidden Gala', true]);
    const probed = fake.requests.filter((r) => /\/events\/\d+/.test(r.url)).map((r) => Number(/\/events\/(\d+)/.exec(r.url)![1]));
    expect(Math.max(...probed)).toBeLessThanOrEqual(41);
    expect(probed).not.toContain(8);
  });

  it('reads protected content with credentials and keeps it protected', async () => {
    const fake = await site(withHiddenAndProtected());
    const cal = target();
    const report = await migrate(cal, fake);
    expect(report.kinds.events.created).toBe(6);
    const full = (await cal.events.get({ id: 21, context: 'edit' }, admin)).value;
    expect(full.description).toBe('<p>Secret.</p>');
    await expect(cal.events.get({ id: 21 }, { links: LINKS })).rejects.toMatchObject({ code: 'event_password_protected' });
    const anonymous = await migrate(target(), fake, { credentials: undefined });
    expect(anonymous.skipped).toEqual([{ kind: 'events', sourceId: 21, name: 'Members Night', reason: expect.stringContaining('password-protected') }]);
  });
});
