// Several `evcal serve` processes on one database, as operators run them: writes sent at the
// same time through both servers give the result of some serial order. Nothing is lost, no
// request answers 5xx, ids and slugs stay unique, a term or venue named inline is created
// once, and term counts equal the truth. PostgreSQL runs when EVCAL_TEST_POSTGRES_URL names a
// server (skipped with a notice otherwise); SQLite runs always (two processes, one file).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { needBuiltCli, startServe, type Running } from './support/serve-process';

needBuiltCli();

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the multi-process PostgreSQL tests of evcal serve are skipped.');

const ADMIN = 'tok-admin';
const USERS = ['--user', `1:administrator:${ADMIN}`];
const NOW = ['--now', '2026-11-22T06:30:00Z'];

const databases: Array<[string, () => string, boolean]> = [
  ['postgres', () => `${POSTGRES_URL}${POSTGRES_URL?.includes('?') ? '&' : '?'}schema=evcal_mp_${randomBytes(4).toString('hex')}`, Boolean(POSTGRES_URL)],
  ['sqlite', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evcal-mp-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    return `sqlite:${join(dir, 'calendar.db')}`;
  }, true],
];

interface Answer {
  readonly status: number;
  readonly etag: string | null;
  readonly json: any;
}

async function call(url: string, init: { method?: string; json?: unknown } = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${ADMIN}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), json: text ? JSON.parse(text) : undefined };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title, start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00', status: 'publish', ...extra,
});
/** The text of a rendered description or excerpt (`<p>…</p>`). */
const text = (html: string) => html.replace(/<[^>]+>/g, '').trim();
/** The revision an event's entity tag names (`"e<id>r<revision>…"`, docs/http.md). */
const revisionOf = (etag: string | null) => Number(/^"e\d+r(\d+)/.exec(etag ?? '')?.[1]);

async function twoServers(storage: string): Promise<[Running, Running]> {
  const first = await startServe(['--storage', storage, ...USERS, ...NOW]);
  const second = await startServe(['--storage', storage, ...USERS, ...NOW]);
  return [first, second];
}

for (const [name, storageUrl, available] of databases) {
  describe.skipIf(!available)(`${name}: two evcal serve processes on one database`, { timeout: 120_000 }, () => {
    it('concurrent PATCHes of different fields of one event lose nothing, in some serial order', async () => {
      const [a, b] = await twoServers(storageUrl());
      const created = await call(`${a.api}/events`, { json: event('Shared') });
      expect(created.status).toBe(201);
      const id = created.json.id as number;
      const N = 40;
      const answers = await Promise.all([
        ...range(N).map((i) => call(`${a.api}/events/${id}`, { method: 'PATCH', json: { description: `d${i}` } })),
        ...range(N).map((i) => call(`${b.api}/events/${id}`, { method: 'PATCH', json: { excerpt: `x${i}` } })),
      ]);
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));

      // Nothing lost: both fields hold a value one of the PATCHes sent.
      const final = await call(`${b.api}/events/${id}`);
      expect(text(final.json.description)).toMatch(/^d\d+$/);
      expect(text(final.json.excerpt)).toMatch(/^x\d+$/);

      // Some serial order: in the order of their revisions, every answer shows the last value
      // each field was given before it, and the last ones are what is stored.
      const ordered = [...answers].sort((x, y) => revisionOf(x.etag) - revisionOf(y.etag));
      expect(new Set(ordered.map((r) => revisionOf(r.etag))).size).toBe(2 * N);
      let description = '';
      let excerpt = '';
      for (const [i, r] of ordered.entries()) {
        const sent = answers.indexOf(r) < N ? 'description' : 'excerpt';
        if (sent === 'description') description = text(r.json.description);
        else excerpt = text(r.json.excerpt);
        expect([text(r.json.description), text(r.json.excerpt)], `answer ${i}`).toEqual([description, excerpt]);
      }
      expect([text(final.json.description), text(final.json.excerpt)]).toEqual([description, excerpt]);
    });

    it('concurrent creates: unique ids and slugs, one term and one venue per name, true term counts', async () => {
      const [a, b] = await twoServers(storageUrl());
      const N = 25;
      const body = event('Same Title', { categories: ['Brand New'], tags: ['Fresh Tag'], venue: { venue: 'Shared Hall', city: 'Rome' } });
      const answers = await Promise.all(range(2 * N).map((i) => call(`${(i % 2 ? a : b).api}/events`, { json: body })));
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
      expect(new Set(answers.map((r) => r.json.id)).size).toBe(2 * N);
      expect(new Set(answers.map((r) => r.json.slug)).size).toBe(2 * N);

      const categories = await call(`${a.api}/categories?search=Brand&hide_empty=0`);
      expect(categories.json.categories.map((c: { name: string; count: number }) => [c.name, c.count])).toEqual([['Brand New', 2 * N]]);
      const tags = await call(`${b.api}/tags?search=Fresh&hide_empty=0`);
      expect(tags.json.tags.map((t: { name: string; count: number }) => [t.name, t.count])).toEqual([['Fresh Tag', 2 * N]]);
      const venues = await call(`${a.api}/venues?search=Shared`);
      expect(venues.json.venues.map((v: { venue: string }) => v.venue)).toEqual(['Shared Hall']);
      expect(new Set(answers.map((r) => r.json.venue.id))).toEqual(new Set([venues.json.venues[0].id]));
      const listed = await call(`${b.api}/events?categories=brand-new&per_page=50`);
      expect(listed.json.total).toBe(2 * N);
    });

    it('concurrent deletes and updates: each event trashed once, every change kept, no 5xx', async () => {
      const [a, b] = await twoServers(storageUrl());
      const N = 15;
      const ids: number[] = [];
      for (const i of range(N)) ids.push((await call(`${a.api}/events`, { json: event(`Event ${i}`, { categories: ['Counted'] }) })).json.id);
      const answers = await Promise.all(ids.flatMap((id, i) => [
        call(`${a.api}/events/${id}`, { method: 'DELETE' }),
        call(`${b.api}/events/${id}`, { method: 'DELETE' }),
        call(`${b.api}/events/${id}`, { method: 'PATCH', json: { title: `Renamed ${i}` } }),
        call(`${a.api}/events/${id}`, { method: 'PATCH', json: { featured: true } }),
      ]));
      expect(answers.filter((r) => r.status >= 500)).toEqual([]);
      for (const i of range(N)) {
        const [deleteA, deleteB, rename, feature] = answers.slice(4 * i, 4 * i + 4);
        // One DELETE moved the event to the trash; the other found it there.
        expect([deleteA!.status, deleteB!.status].sort()).toEqual([200, 410]);
        expect([rename!.status, feature!.status]).toEqual([200, 200]);
      }
      const trashed = await call(`${b.api}/events?status=trash&per_page=50`);
      expect(trashed.json.total).toBe(N);
      for (const e of trashed.json.events) {
        expect(e.title).toBe(`Renamed ${ids.indexOf(e.id)}`);
        expect(e.featured).toBe(true);
      }
      // Trashed events no longer count towards the category.
      const counted = await call(`${a.api}/categories?search=Counted&hide_empty=0`);
      expect(counted.json.categories.map((c: { count: number }) => c.count)).toEqual([0]);
    });
  });
}
