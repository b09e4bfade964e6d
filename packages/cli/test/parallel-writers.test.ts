// Three `evcal serve` processes on one PostgreSQL, whose writes run side by side (docs/storage.md,
// "Transactions and the change counter"): a reader following /changes while all three create,
// update and trash events ends with a copy equal to the final lists and has been given every
// record (the log, read in position order, never skips an entry that commits late); every write
// gives its record a new revision and ETag, and every server's list validators see every write.
// PostgreSQL runs when EVCAL_TEST_POSTGRES_URL names a server (skipped with a notice otherwise).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { needBuiltCli, startServe, type Running } from './support/serve-process';
import { catchUp, expectCopyEqualsLists, startCopy, syncPage } from './support/sync-client';
import { caller } from './support/api-call';

needBuiltCli();

const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
if (!POSTGRES_URL) console.warn('NOTICE: EVCAL_TEST_POSTGRES_URL is not set: the tests of parallel writers on PostgreSQL are skipped.');

const ADMIN = 'tok-admin';
// One public origin: every server writes the same addresses, so their answers compare byte for byte.
const USERS = ['--user', `1:administrator:${ADMIN}`, '--site-url', 'https://cal.example.org'];

const call = caller(ADMIN);

const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title, start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00', status: 'publish', ...extra,
});

/** The revision an event's entity tag names (`"e<id>r<revision>…"`, docs/http.md). */
const revisionOf = (etag: string | null) => Number(/^"e\d+r(\d+)/.exec(etag ?? '')?.[1]);

async function threeServers(): Promise<Running[]> {
  const url = `${POSTGRES_URL}${POSTGRES_URL?.includes('?') ? '&' : '?'}schema=evcal_pw_${randomBytes(4).toString('hex')}`;
  // One first: it migrates the schema; the others find it current.
  const first = await startServe(['--storage', url, ...USERS]);
  return [first, ...(await Promise.all([1, 2].map(() => startServe(['--storage', url, ...USERS]))))];
}

describe.skipIf(!POSTGRES_URL)('postgres: three evcal serve processes writing at once', { timeout: 240_000 }, () => {
  it('a reader following /changes while three servers create, update and trash never skips a change', async () => {
    const servers = await threeServers();
    const [a] = servers;
    const client = await startCopy(a!.api, ADMIN);
    let writing = true;
    let pages = 0;
    const reader = (async () => {
      while (writing) {
        await syncPage(servers[pages % 3]!.api, client, ADMIN, 5);
        pages += 1;
      }
    })();
    // Each writer creates events, then updates events any writer created (but those trashed)
    // and trashes three of its own.
    const created = new Set<number>();
    const kept: number[] = [];
    const writer = async (server: Running, w: number) => {
      const mine: number[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await call(`${server.api}/events`, { json: event(`S${w} event ${i}`, { categories: [`Writer ${w}`] }) });
        expect(r.status, JSON.stringify(r.json)).toBe(201);
        mine.push(r.json.id);
        created.add(r.json.id);
        if (i >= 3) kept.push(r.json.id);
      }
      for (let i = 0; i < 12; i++) {
        const pick = kept[(w * 7 + i * 5) % kept.length]!;
        const r = await call(`${server.api}/events/${pick}`, { method: 'PATCH', json: { description: `by ${w} (${i})` } });
        expect(r.status, JSON.stringify(r.json)).toBe(200);
      }
      for (const id of mine.slice(0, 3)) expect((await call(`${server.api}/events/${id}`, { method: 'DELETE' })).status).toBe(200);
    };
    await Promise.all(servers.map((s, w) => Promise.all([writer(s, w), writer(s, w + 3)])));
    writing = false;
    await reader;
    await catchUp(a!.api, client, ADMIN);
    expect(pages).toBeGreaterThan(3);
    const seen = client.seen.get('event') ?? new Set<number>();
    expect([...created].filter((id) => !seen.has(id))).toEqual([]);
    // The copy is the final state: every update and every trashing reached it.
    await expectCopyEqualsLists(a!.api, client, ADMIN);
    const trashed = await call(`${a!.api}/events?status=trash&per_page=50`);
    expect(trashed.json.total).toBe(18);
  });

  it('every write gives its record a new ETag and changes every server\'s list validators', async () => {
    const servers = await threeServers();
    const created = await call(`${servers[0]!.api}/events`, { json: event('Watched') });
    const id = created.json.id as number;
    let recordTag = created.etag;
    for (let round = 0; round < 9; round++) {
      const [reader, writer, checker] = [servers[round % 3]!, servers[(round + 1) % 3]!, servers[Math.floor(round / 3) % 3]!];
      const list = await call(`${reader.api}/events?per_page=5`, { anonymous: true });
      expect(list.status).toBe(200);
      // Unchanged: the validator holds on every server.
      expect((await call(`${checker.api}/events?per_page=5`, { anonymous: true, headers: { 'if-none-match': list.etag! } })).status).toBe(304);
      const written = await call(`${writer.api}/events/${id}`, { method: 'PATCH', json: { excerpt: `round ${round}` } });
      expect(written.status).toBe(200);
      expect(revisionOf(written.etag)).toBeGreaterThan(revisionOf(recordTag));
      recordTag = written.etag;
      // Written on another server: no server answers the old validator 304.
      for (const server of servers) {
        const again = await call(`${server.api}/events?per_page=5`, { anonymous: true, headers: { 'if-none-match': list.etag! } });
        expect(again.status).toBe(200);
        expect(again.etag).not.toBe(list.etag);
      }
      // Every server reads the record at that revision.
      expect(revisionOf((await call(`${checker.api}/events/${id}`)).etag)).toBe(revisionOf(recordTag));
    }
  });
});
