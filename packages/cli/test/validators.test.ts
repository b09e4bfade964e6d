// Validators over real HTTP, on every storage: ETags on every resource, 304 to a matching
// If-None-Match (lists without being read), 412 to a stale If-Match, 428 where If-Match is
// required, and list validators that see writes made through another server.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { needBuiltCli, startServe } from './support/serve-process';
import { caller } from './support/api-call';

needBuiltCli();

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the HTTP validator tests on PostgreSQL are skipped.');

const ADMIN = 'tok-admin';
const ARGS = ['--user', `1:administrator:${ADMIN}`, '--now', '2026-11-22T06:30:00Z', '--languages', 'en,de'];

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-validators-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
/** Storage URLs; `shared` when two processes can serve one calendar. */
const storages: Array<[string, () => string, { available: boolean; shared: boolean }]> = [
  ['memory', () => 'memory', { available: true, shared: false }],
  ['json', () => `json:${join(tempDir(), 'calendar.json')}`, { available: true, shared: false }],
  ['sqlite', () => `sqlite:${join(tempDir(), 'calendar.db')}`, { available: true, shared: true }],
  ['postgres', () => `${POSTGRES_URL}${POSTGRES_URL?.includes('?') ? '&' : '?'}schema=evcal_etag_${randomBytes(4).toString('hex')}`, { available: Boolean(POSTGRES_URL), shared: true }],
];

const call = caller(ADMIN);

const EVENT = { title: 'Gig', start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00', status: 'publish', venue: { venue: 'Hall' }, organizer: { organizer: 'Ada' }, categories: ['Music'], tags: ['Free'] };

for (const [name, storageUrl, { available, shared }] of storages) {
  describe.skipIf(!available)(`${name}: validators over HTTP`, { timeout: 60_000 }, () => {
    it('every single resource has a strong ETag and answers 304 to it, GET and HEAD', async () => {
      const server = await startServe(['--storage', storageUrl(), ...ARGS]);
      const event = (await call(`${server.api}/events`, { json: EVENT })).json;
      const category = event.categories[0].id;
      const tag = event.tags[0].id;
      for (const path of [`/events/${event.id}`, `/events/by-slug/${event.slug}`, `/venues/${event.venue.id}`, `/venues/by-slug/hall`,
        `/organizers/${event.organizer[0].id}`, `/organizers/by-slug/ada`, `/categories/${category}`, `/tags/${tag}`]) {
        for (const anonymous of [true, false]) {
          const first = await call(`${server.api}${path}`, { anonymous });
          expect(first.status, path).toBe(200);
          const etag = first.headers.get('etag')!;
          expect(etag, path).toMatch(/^"[^"]+"$/);
          expect(first.headers.get('cache-control'), path).toBe(anonymous ? 'no-cache' : 'private, no-cache');
          for (const method of ['GET', 'HEAD']) {
            const again = await call(`${server.api}${path}`, { method, anonymous, headers: { 'if-none-match': `"other", ${etag}` } });
            expect([again.status, again.text, again.headers.get('etag'), again.headers.get('cache-control'), again.headers.get('vary')], `${method} ${path}`)
              .toEqual([304, '', etag, first.headers.get('cache-control'), first.headers.get('vary')]);
          }
          // The same request with other parameters has other bytes, so another tag.
          const fields = await call(`${server.api}${path}?_fields=id`, { anonymous, headers: { 'if-none-match': etag } });
          expect(fields.status, path).toBe(200);
          expect(fields.headers.get('etag')).not.toBe(etag);
        }
      }
      // A change to an embedded venue changes the event's tag.
      const before = (await call(`${server.api}/events/${event.id}`)).headers.get('etag')!;
      await call(`${server.api}/venues/${event.venue.id}`, { method: 'PATCH', json: { city: 'Rome' } });
      const after = await call(`${server.api}/events/${event.id}`, { headers: { 'if-none-match': before } });
      expect(after.status).toBe(200);
      expect(after.json.venue.city).toBe('Rome');
    });

    it('lists have a weak ETag, answer 304 until anything is written, and 200 after', async () => {
      const server = await startServe(['--storage', storageUrl(), ...ARGS]);
      await call(`${server.api}/events`, { json: EVENT });
      for (const path of ['/events?per_page=5', '/venues', '/organizers', '/categories', '/tags?hide_empty=0']) {
        const first = await call(`${server.api}${path}`, { anonymous: true });
        const etag = first.headers.get('etag')!;
        expect(etag, path).toMatch(/^W\/"[^"]+"$/);
        const again = await call(`${server.api}${path}`, { anonymous: true, headers: { 'if-none-match': etag.slice(2) } });
        expect([again.status, again.text, again.headers.get('etag')], path).toEqual([304, '', etag]);
      }
      const list = await call(`${server.api}/events?per_page=5`, { anonymous: true });
      await call(`${server.api}/events`, { json: { ...EVENT, title: 'Second' } });
      const changed = await call(`${server.api}/events?per_page=5`, { anonymous: true, headers: { 'if-none-match': list.headers.get('etag')! } });
      expect(changed.status).toBe(200);
      expect(changed.json.total).toBe(2);
      expect(changed.headers.get('etag')).not.toBe(list.headers.get('etag'));
    });

    it('a write with a stale If-Match answers 412 and changes nothing; a current one proceeds', async () => {
      const server = await startServe(['--storage', storageUrl(), ...ARGS]);
      const created = await call(`${server.api}/events`, { json: EVENT });
      const id = created.json.id;
      const read = await call(`${server.api}/events/${id}`);
      const tag = read.headers.get('etag')!;
      const patched = await call(`${server.api}/events/${id}`, { method: 'PATCH', json: { title: 'First' }, headers: { 'if-match': tag } });
      expect(patched.status).toBe(200);
      const newTag = patched.headers.get('etag')!;
      expect(newTag).toMatch(/^"[^"]+"$/);

      for (const [method, path, json] of [['PATCH', `/events/${id}`, { title: 'Lost' }], ['PUT', `/events/by-slug/gig`, { title: 'Lost' }], ['DELETE', `/events/${id}`, undefined]] as const) {
        const refused = await call(`${server.api}${path}`, { method, ...(json ? { json } : {}), headers: { 'if-match': tag } });
        expect([refused.status, refused.json.code], `${method} ${path}`).toEqual([412, 'rest_precondition_failed']);
      }
      expect((await call(`${server.api}/events/${id}`)).json.title).toBe('First');
      // A weak tag never matches If-Match; * does while the event exists; If-None-Match * refuses.
      expect((await call(`${server.api}/events/${id}`, { method: 'PATCH', json: { title: 'X' }, headers: { 'if-match': `W/${newTag}` } })).status).toBe(412);
      expect((await call(`${server.api}/events/${id}`, { method: 'PATCH', json: { title: 'Any' }, headers: { 'if-match': '*' } })).status).toBe(200);
      expect((await call(`${server.api}/events/${id}`, { method: 'PATCH', json: { title: 'X' }, headers: { 'if-none-match': '*' } })).status).toBe(412);
      // The tag of the write's answer names the state just written.
      const current = (await call(`${server.api}/events/${id}`)).headers.get('etag')!;
      const deleted = await call(`${server.api}/events/${id}`, { method: 'DELETE', headers: { 'if-match': current } });
      expect(deleted.json.status).toBe('trash');
      // In another language the refusal is translated.
      const german = await call(`${server.origin}/de/cal/events/v1/venues/${created.json.venue.id}`, { method: 'PATCH', json: { city: 'X' }, headers: { 'if-match': '"v1r1.x"' } });
      expect([german.status, german.json.code]).toEqual([412, 'rest_precondition_failed']);
      expect(german.json.message).toMatch(/Ressource/);
    });

    it('with --require-if-match, a change without If-Match answers 428; creates need none', async () => {
      const server = await startServe(['--storage', storageUrl(), ...ARGS, '--require-if-match']);
      const created = await call(`${server.api}/events`, { json: EVENT });
      expect(created.status).toBe(201);
      const refused = await call(`${server.api}/events/${created.json.id}`, { method: 'PATCH', json: { title: 'X' } });
      expect([refused.status, refused.json.code]).toEqual([428, 'rest_precondition_required']);
      const tag = (await call(`${server.api}/categories/${created.json.categories[0].id}`)).headers.get('etag')!;
      expect((await call(`${server.api}/categories/${created.json.categories[0].id}`, { method: 'POST', json: { name: 'Jazz' }, headers: { 'if-match': tag } })).status).toBe(200);
    });

    it.skipIf(!shared)('a list\'s validator sees writes made through another server', async () => {
      const storage = storageUrl();
      const a = await startServe(['--storage', storage, ...ARGS]);
      const b = await startServe(['--storage', storage, ...ARGS]);
      await call(`${a.api}/events`, { json: EVENT });
      const list = await call(`${a.api}/events`, { anonymous: true });
      const etag = list.headers.get('etag')!;
      expect((await call(`${a.api}/events`, { anonymous: true, headers: { 'if-none-match': etag } })).status).toBe(304);
      await call(`${b.api}/events`, { json: { ...EVENT, title: 'Through B' } });
      const seen = await call(`${a.api}/events`, { anonymous: true, headers: { 'if-none-match': etag } });
      expect(seen.status).toBe(200);
      expect(seen.json.events.map((e: { title: string }) => e.title)).toContain('Through B');
    });
  });
}
