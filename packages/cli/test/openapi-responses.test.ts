// /doc tells the truth (issue 17): real responses of every route of a real `evcal serve`, on
// every storage, validated with ajv against the response schema /doc declares for that
// route, method and status — lists, single reads by id and slug, creates, updates, deletes,
// errors, the five kinds, password-protected posts as anonymous callers see them (redacted),
// events embedding one venue, several venues and organizers, the change feed and webhook
// endpoints. A status /doc does not list
// for a route fails the test as well, and so does a route of /doc that no request reached.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { describe, expect, it, onTestFinished } from 'vitest';
import { needBuiltCli, startServe } from './support/serve-process';

needBuiltCli();

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the /doc response tests on PostgreSQL are skipped.');

const ADMIN = 'tok-admin';
const SUBSCRIBER = 'tok-subscriber';

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-doc-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const postgres = () => `${POSTGRES_URL}${POSTGRES_URL?.includes('?') ? '&' : '?'}schema=evcal_doc_${randomBytes(4).toString('hex')}`;

const storages: Array<[string, () => string, boolean]> = [
  ['memory', () => 'memory', true],
  ['json', () => `json:${join(tempDir(), 'calendar.json')}`, true],
  ['sqlite', () => `sqlite:${join(tempDir(), 'calendar.db')}`, true],
  ['postgres', postgres, Boolean(POSTGRES_URL)],
];

/** Protected posts (password `open-sesame`), a draft, an event with two venues and two organizers, an image. */
const DATASET = {
  categories: [{ id: 10, name: 'Music', slug: 'music' }, { id: 11, name: 'Jazz', slug: 'jazz', parent: 10, description: 'Swing' }],
  tags: [{ id: 20, name: 'Free', slug: 'free' }],
  venues: [
    { id: 100, venue: 'Hall', status: 'publish', author: 1, city: 'Rome', address: 'Via Roma 1', geo_lat: 41.9, geo_lng: 12.5 },
    { id: 101, venue: 'Cellar', status: 'publish', author: 1, password: 'open-sesame', phone: '+39 06 1234' },
  ],
  organizers: [
    { id: 200, organizer: 'Ada', status: 'publish', email: 'ada@example.com' },
    { id: 201, organizer: 'Grace', status: 'publish', password: 'open-sesame', website: 'https://grace.example.org' },
  ],
  events: [
    {
      id: 300, title: 'Gig', start_date: '2026-12-06 20:00:00', end_date: '2026-12-06 23:00:00', timezone: 'Europe/Rome', status: 'publish',
      author: 1, featured: true, categories: [10, 11], tags: [20], venue: [100], organizer: [200], cost: '10', image: 'https://cdn.example.com/gig.jpg',
    },
    {
      id: 301, title: 'Secret session', start_date: '2026-12-07 21:00:00', end_date: '2026-12-07 23:30:00', timezone: 'UTC', status: 'publish',
      author: 1, password: 'open-sesame', categories: [11], venue: [100, 101], organizer: [200, 201], description: '<p>Only for friends</p>',
    },
    { id: 302, title: 'Fair', start_date: '2026-12-10', end_date: '2026-12-11', all_day: true, status: 'publish', author: 1 },
    { id: 303, title: 'Plans', start_date: '2026-12-12 10:00:00', end_date: '2026-12-12 11:00:00', status: 'draft', author: 1 },
  ],
};

interface Doc {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
}

/** Checks responses against /doc; remembers which routes were reached with a success. */
class DocChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  readonly reached = new Set<string>();

  constructor(private readonly doc: Doc) {
    // The whole document is the schema resource: `#/components/schemas/…` resolves inside it.
    this.ajv.addSchema({ ...doc, $id: 'evcal-doc' });
  }

  /** The schema of a route's answer with this status and media type, or a failure when /doc lists none. */
  check(method: string, template: string, status: number, contentType: string | null, body: unknown): void {
    const route = `${method.toUpperCase()} ${template}`;
    const operation = this.doc.paths[template]?.[method.toLowerCase()];
    expect(operation, `${route} is in /doc`).toBeDefined();
    const response = operation!.responses[String(status)];
    expect(response, `${route} documents status ${status}`).toBeDefined();
    if (status < 300) this.reached.add(route);
    if (status === 304) return;
    const media = (contentType ?? '').split(';')[0]!.trim();
    const content = response!.content?.[media];
    expect(content, `${route} ${status} documents ${media}`).toBeDefined();
    if (media !== 'application/json') return;
    const pointer = `evcal-doc#/paths/${template.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(pointer);
      expect(validate, pointer).toBeDefined();
      this.compiled.set(pointer, validate!);
    }
    const valid = validate!(body);
    expect(valid, `${route} ${status}: ${this.ajv.errorsText(validate!.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 2000)}`).toBe(true);
  }

  /** Every method and path of /doc. */
  routes(): string[] {
    return Object.entries(this.doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
  }
}

for (const [name, storageUrl, available] of storages) {
  describe.skipIf(!available)(`${name}: every response of evcal serve validates against /doc`, { timeout: 120_000 }, () => {
    it('lists, reads, writes, deletes and errors of the five kinds', async () => {
      const seed = join(tempDir(), 'seed.json');
      writeFileSync(seed, JSON.stringify(DATASET));
      const server = await startServe([
        '--storage', storageUrl(), '--seed', seed, '--now', '2026-11-22T06:30:00Z', '--timezone', 'Europe/Rome',
        '--user', `1:administrator:${ADMIN}`, '--user', `5:subscriber:${SUBSCRIBER}`, '--max-per-page', '50',
      ]);
      const docResponse = await fetch(`${server.api}/doc`);
      const doc = (await docResponse.json()) as Doc;
      const checker = new DocChecker(doc);
      checker.check('GET', '/doc', docResponse.status, docResponse.headers.get('content-type'), doc);

      /** One request, checked; resolves with the parsed JSON body (undefined for other media). */
      const call = async (
        method: string, template: string, path: string,
        init: { json?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string; expect?: number } = {},
      ): Promise<any> => {
        const token = init.token === undefined ? ADMIN : init.token;
        const body = init.raw ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
        const res = await fetch(`${server.api}${path}`, {
          method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...init.headers,
          },
          ...(body !== undefined ? { body } : {}),
        });
        const text = await res.text();
        if (init.expect !== undefined) expect(res.status, `${method} ${path}: ${text.slice(0, 500)}`).toBe(init.expect);
        const type = res.headers.get('content-type');
        const parsed = type?.startsWith('application/json') && text ? JSON.parse(text) : undefined;
        checker.check(method, template, res.status, type, res.status === 304 ? undefined : parsed);
        return parsed;
      };

      // A sync token for now: the changes after it are read at the end.
      const since = await call('GET', '/changes', '/changes', { expect: 200 });
      await call('GET', '/changes', '/changes?since=not-a-token', { token: null, expect: 410 });

      // Lists: admin, anonymous (protected posts redacted), filtered, and a page past the first.
      const all = await call('GET', '/events', '/events?per_page=50&start_date=2026-01-01&status=publish,draft&password=open-sesame', { expect: 200 });
      expect(all.events.map((e: { id: number }) => e.id)).toEqual(expect.arrayContaining([300, 301, 302, 303]));
      const anonymous = await call('GET', '/events', '/events?start_date=2026-01-01', { token: null, expect: 200 });
      const secret = anonymous.events.find((e: { id: number }) => e.id === 301);
      expect(secret.all_day).toBeNull(); // redacted by the reference's placeholders
      expect(all.events.find((e: { id: number }) => e.id === 301).venue).toHaveLength(2); // several venues: a list
      await call('GET', '/events', '/events?start_date=2026-01-01&per_page=1&page=2', { expect: 200 });
      await call('GET', '/events', '/events?categories=jazz&venue=100&featured=true&start_date=2026-01-01', { expect: 200 });
      await call('GET', '/venues', '/venues', { token: null, expect: 200 });
      await call('GET', '/venues', '/venues?per_page=50', { expect: 200 });
      await call('GET', '/organizers', '/organizers', { token: null, expect: 200 });
      await call('GET', '/categories', '/categories', { expect: 200 });
      await call('GET', '/categories', '/categories?hide_empty=0&parent=10', { token: null, expect: 200 });
      await call('GET', '/tags', '/tags', { expect: 200 });

      // Single reads, by id and slug; protected ones redacted, unlocked with the password.
      await call('GET', '/events/{id}', '/events/300', { token: null, expect: 200 });
      await call('GET', '/events/{id}', '/events/302', { token: null, expect: 200 });
      await call('GET', '/events/{id}', '/events/301', { token: null, expect: 403 }); // protected: the password is needed
      await call('GET', '/events/{id}', '/events/301?context=edit', { expect: 200 });
      await call('GET', '/events/{id}', '/events/301?password=open-sesame', { token: null, expect: 200 });
      const gig = await call('GET', '/events/by-slug/{slug}', '/events/by-slug/gig', { token: null, expect: 200 });
      expect(gig.json_ld['@type']).toBe('Event');
      await call('GET', '/venues/{id}', '/venues/101', { token: null, expect: 200 });
      await call('GET', '/venues/{id}', '/venues/100', { token: null, expect: 200 });
      await call('GET', '/venues/by-slug/{slug}', '/venues/by-slug/hall', { expect: 200 });
      await call('GET', '/organizers/{id}', '/organizers/201', { token: null, expect: 200 });
      await call('GET', '/organizers/by-slug/{slug}', '/organizers/by-slug/ada', { expect: 200 });
      await call('GET', '/categories/{id}', '/categories/11', { token: null, expect: 200 });
      await call('GET', '/tags/{id}', '/tags/20', { expect: 200 });

      // iCalendar, by address and by Accept.
      await call('GET', '/events.ics', '/events.ics?start_date=2026-01-01', { expect: 200 });
      await call('GET', '/events/{id}.ics', '/events/300.ics', { expect: 200 });
      await call('GET', '/events/by-slug/{slug}.ics', '/events/by-slug/gig.ics', { expect: 200 });
      await call('GET', '/events/{id}', '/events/300', { headers: { accept: 'text/calendar' }, expect: 200 });

      // Creates: inline venue and organizers, new terms by name; then terms, venues, organizers.
      const created = await call('POST', '/events', '/events', {
        expect: 201,
        json: {
          title: 'Jam', start_date: '2026-12-20 21:00:00', end_date: '2026-12-20 23:00:00', status: 'publish', cost: ['5', '10'],
          venue: { venue: 'Blue Room', city: 'Milan', geo_lat: 45.46, geo_lng: 9.19 }, organizer: [200, { organizer: 'Lin' }],
          categories: ['Music', 'Blues'], tags: ['late'], website: 'https://jam.example.org',
        },
      });
      // A series: the series itself (its rule), its occurrences in a list and one read alone,
      // one changed on its own (an exception), and a bad rule.
      const series = await call('POST', '/events', '/events', {
        expect: 201,
        json: { title: 'Weekly jam', timezone: 'Europe/Rome', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00', status: 'publish', recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4', exdate: ['2027-03-15'] } },
      });
      expect(series.recurrence.rrule).toContain('FREQ=WEEKLY');
      await call('GET', '/events/{id}', `/events/${series.id}`, { token: null, expect: 200 });
      const occurrences = await call('GET', '/events', '/events?start_date=2027-03-01&end_date=2027-03-31&search=weekly', { token: null, expect: 200 });
      expect(occurrences.events.map((e: { start_date: string }) => e.start_date)).toEqual(['2027-03-01 19:00:00', '2027-03-08 19:00:00', '2027-03-22 19:00:00']);
      const occurrence = await call('GET', '/events/{id}', `/events/${occurrences.events[1].id}`, { token: null, expect: 200 });
      expect(occurrence.post_parent).toBe(series.id);
      const exception = await call('PATCH', '/events/{id}', `/events/${occurrence.id}`, { json: { title: 'Weekly jam, guest night' }, expect: 200 });
      expect(exception.occurrence.exception).toBe(true);
      await call('POST', '/events', '/events', { json: { title: 'Bad', start_date: '2027-03-01 19:00:00', recurrence: 'FREQ=SOMETIMES' }, expect: 400 });

      const category = await call('POST', '/categories', '/categories', { json: { name: 'Folk', parent: 10, description: 'Songs' }, expect: 201 });
      const tag = await call('POST', '/tags', '/tags', { json: { name: 'Outdoor' }, expect: 201 });
      const venue = await call('POST', '/venues', '/venues', { json: { venue: 'Garden', country: 'Italy', province: 'RM', show_map: false }, expect: 201 });
      const organizer = await call('POST', '/organizers', '/organizers', { json: { organizer: 'Mo', phone: '123' }, expect: 201 });

      // Updates (POST, PUT, PATCH; by id and by slug) with validators.
      const read = await fetch(`${server.api}/events/${created.id}`, { headers: { authorization: `Bearer ${ADMIN}` } });
      const etag = read.headers.get('etag')!;
      await call('GET', '/events/{id}', `/events/${created.id}`, { headers: { 'if-none-match': etag }, expect: 304 });
      await call('POST', '/events/{id}', `/events/${created.id}`, { json: { title: 'Jam 2', start_date: '2026-12-20 21:00:00', end_date: '2026-12-20 23:30:00' }, expect: 200 });
      await call('PATCH', '/events/{id}', `/events/${created.id}`, { json: { featured: true }, headers: { 'if-match': etag }, expect: 412 });
      await call('PATCH', '/events/{id}', `/events/${created.id}`, { json: { featured: true, venue: [100, venue.id] }, expect: 200 });
      await call('PUT', '/events/{id}', `/events/${created.id}`, { json: { title: 'Jam 3', start_date: '2026-12-21 21:00', end_date: '2026-12-21 23:00', status: 'publish' }, expect: 200 });
      await call('POST', '/events/by-slug/{slug}', '/events/by-slug/fair', { json: { title: 'Fair', start_date: '2026-12-10', end_date: '2026-12-11', all_day: true, status: 'publish' }, expect: 200 });
      await call('PUT', '/events/by-slug/{slug}', '/events/by-slug/fair', { json: { title: 'Fair', start_date: '2026-12-10', end_date: '2026-12-12', all_day: true, status: 'publish' }, expect: 200 });
      await call('PATCH', '/events/by-slug/{slug}', '/events/by-slug/fair', { json: { sticky: true }, expect: 200 });
      for (const [kind, record, slug] of [['venues', venue, 'garden'], ['organizers', organizer, 'mo']] as const) {
        const nameKey = kind === 'venues' ? 'venue' : 'organizer';
        await call('POST', `/${kind}/{id}`, `/${kind}/${record.id}`, { json: { [nameKey]: `${record[nameKey]} 2` }, expect: 200 });
        await call('PUT', `/${kind}/{id}`, `/${kind}/${record.id}`, { json: { [nameKey]: `${record[nameKey]} 3`, status: 'publish' }, expect: 200 });
        await call('PATCH', `/${kind}/{id}`, `/${kind}/${record.id}`, { json: { phone: '555' }, expect: 200 });
        await call('POST', `/${kind}/by-slug/{slug}`, `/${kind}/by-slug/${slug}`, { json: { description: 'Updated' }, expect: 200 });
        await call('PUT', `/${kind}/by-slug/{slug}`, `/${kind}/by-slug/${slug}`, { json: { website: 'https://x.example.org' }, expect: 200 });
        await call('PATCH', `/${kind}/by-slug/{slug}`, `/${kind}/by-slug/${slug}`, { json: { phone: '556' }, expect: 200 });
      }
      for (const [kind, term] of [['categories', category], ['tags', tag]] as const) {
        await call('POST', `/${kind}/{id}`, `/${kind}/${term.id}`, { json: { description: 'More' }, expect: 200 });
        await call('PUT', `/${kind}/{id}`, `/${kind}/${term.id}`, { json: { name: `${term.name} II` }, expect: 200 });
        await call('PATCH', `/${kind}/{id}`, `/${kind}/${term.id}`, { json: { slug: `${term.slug}-2` }, expect: 200 });
      }

      // Errors: the documented statuses with the Error schema.
      await call('GET', '/events/{id}', '/events/999999', { expect: 404 });
      await call('GET', '/events/{id}', '/events/303', { token: null, expect: 403 });
      await call('GET', '/events', '/events?per_page=abc', { expect: 400 });
      await call('GET', '/events', '/events?page=99&start_date=2026-01-01', { expect: 404 });
      await call('POST', '/events', '/events', { json: { title: 'No dates' }, expect: 400 });
      await call('POST', '/events', '/events', { token: null, json: { title: 'x', start_date: 'tomorrow', end_date: 'tomorrow' }, expect: 401 });
      await call('POST', '/events', '/events', { token: SUBSCRIBER, json: { title: 'x', start_date: 'tomorrow', end_date: 'tomorrow' }, expect: 403 });
      await call('POST', '/events', '/events', { raw: '{"title": ', expect: 400 });
      await call('POST', '/events', '/events', { raw: JSON.stringify({ title: 'x'.repeat(1_100_000) }), expect: 413 });
      await call('POST', '/categories', '/categories', { json: { name: 'Music' }, expect: 400 });
      await call('GET', '/venues/{id}', '/venues/300', { expect: 400 });
      await call('GET', '/organizers/by-slug/{slug}', '/organizers/by-slug/nobody', { expect: 400 });
      await call('GET', '/categories/{id}', '/categories/999', { expect: 400 });

      // Deletes: to the trash (then 410), terms for good.
      await call('DELETE', '/events/{id}', `/events/${created.id}`, { expect: 200 });
      await call('DELETE', '/events/{id}', `/events/${created.id}`, { expect: 410 });
      await call('DELETE', '/events/by-slug/{slug}', '/events/by-slug/fair', { expect: 200 });
      await call('DELETE', '/venues/{id}', `/venues/${venue.id}`, { expect: 200 });
      await call('DELETE', '/venues/by-slug/{slug}', '/venues/by-slug/cellar', { expect: 200 });
      await call('DELETE', '/organizers/{id}', `/organizers/${organizer.id}`, { expect: 200 });
      await call('DELETE', '/organizers/by-slug/{slug}', '/organizers/by-slug/grace', { expect: 200 });
      await call('DELETE', '/categories/{id}', `/categories/${category.id}`, { expect: 200 });
      await call('DELETE', '/tags/{id}', `/tags/${tag.id}`, { expect: 200 });
      // Trashed posts as their readers see them.
      await call('GET', '/events', '/events?status=trash&start_date=2026-01-01', { expect: 200 });
      await call('GET', '/venues/{id}', `/venues/${venue.id}`, { expect: 200 });

      // The changes since the token: records as they are now, and tombstones (as each reader sees them).
      const changes = await call('GET', '/changes', `/changes?since=${encodeURIComponent(since.next_token)}&per_page=500`, { expect: 200 });
      expect(changes.changes.some((c: { deleted: boolean }) => c.deleted)).toBe(true);
      expect(changes.changes.some((c: { deleted: boolean }) => !c.deleted)).toBe(true);
      // The series comes once, with its occurrences (validated as /doc describes them).
      expect(changes.changes.filter((c: { id: number }) => c.id === series.id).map((c: { occurrences?: { records: unknown[] } }) => c.occurrences?.records.length)).toEqual([3]);
      await call('GET', '/changes', `/changes?since=${encodeURIComponent(since.next_token)}&per_page=2`, { token: null, expect: 200 });

      // Webhook endpoints (administrators; disabled, so that nothing is delivered).
      const endpoint = await call('POST', '/webhooks', '/webhooks', { json: { url: 'https://hooks.example.org/evcal', types: ['event.created'], enabled: false }, expect: 201 });
      await call('POST', '/webhooks', '/webhooks', { json: { url: 'ftp://hooks.example.org' }, expect: 400 });
      await call('GET', '/webhooks', '/webhooks', { expect: 200 });
      await call('GET', '/webhooks', '/webhooks', { token: SUBSCRIBER, expect: 403 });
      await call('GET', '/webhooks/{id}', `/webhooks/${endpoint.id}`, { expect: 200 });
      await call('GET', '/webhooks/{id}', '/webhooks/ep_missing', { expect: 404 });
      await call('POST', '/webhooks/{id}', `/webhooks/${endpoint.id}`, { json: { description: 'Mirror' }, expect: 200 });
      await call('PUT', '/webhooks/{id}', `/webhooks/${endpoint.id}`, { json: { types: [] }, expect: 200 });
      await call('PATCH', '/webhooks/{id}', `/webhooks/${endpoint.id}`, { json: { types: 'event.updated,venue.deleted' }, expect: 200 });
      await call('DELETE', '/webhooks/{id}', `/webhooks/${endpoint.id}`, { expect: 200 });
      await call('DELETE', '/webhooks/{id}', `/webhooks/${endpoint.id}`, { expect: 404 });

      expect(checker.routes().filter((route) => !checker.reached.has(route)), 'routes of /doc no request reached').toEqual([]);
    });
  });
}
