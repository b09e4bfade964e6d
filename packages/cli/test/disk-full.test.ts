// `evcal serve` on a volume that fills up, as operators meet it: a small tmpfs mounted for the
// test (root only; CI runs as root), the calendar's SQLite database or JSON file on it, and a
// file that takes the rest of the room. Writes must be refused with 507 while reads go on, the
// log and /readyz must say why, and the next write after room is made must succeed without a
// restart. And the SQLite write-ahead log must stay small enough for such a volume.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { logHolding, needBuiltCli, startServe, type Running } from './support/serve-process';

needBuiltCli();

const ROOT = process.getuid?.() === 0;
if (!ROOT && !process.env.CI) console.warn('NOTICE: not root: the tests on a full tmpfs are skipped (mounting one needs root).');

const TOKEN = 'disk-full-admin-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** A tmpfs of `size` mounted on a new directory, unmounted and removed when the test ends. */
function smallVolume(size: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-volume-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  onTestFinished(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

const free = (dir: string) => { const s = statfsSync(dir); return s.bavail * s.bsize; };

interface Answer { status: number; json: any; retryAfter: string | null }

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after') };
}

let n = 0;
/** Creates an event with a long description, through the API root of `language` when given. */
const create = (server: Running, language?: string) => call(`${language ? `${server.origin}/${language}/cal/events/v1` : server.api}/events`, {
  method: 'POST', headers: AUTH,
  body: JSON.stringify({
    title: `Night ${n++}`, description: `<p>${'Music and guests. '.repeat(40)}</p>`, status: 'publish',
    start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00', categories: [`Category ${n % 7}`],
  }),
});

describe.skipIf(!ROOT && !process.env.CI)('evcal serve on a full disk', { timeout: 120_000 }, () => {
  for (const scheme of ['sqlite', 'json'] as const) {
    it(`${scheme}: refuses writes with 507 while reads go on, says why, and writes again once room is made`, async () => {
      const volume = smallVolume('6m');
      const file = join(volume, scheme === 'sqlite' ? 'evcal.db' : 'evcal.json');
      const server = await startServe(['--storage', `${scheme}:${file}`, '--user', `1:administrator:${TOKEN}`, '--languages', 'en,de']);
      expect((await create(server)).status).toBe(201);
      // Everything but a few pages taken by another file.
      const filler = join(volume, 'filler');
      writeFileSync(filler, Buffer.alloc(Math.max(0, free(volume) - 12 * 1024)));

      let refused: Answer | undefined;
      const seen = new Set<number>();
      // Through the German API root: the refusal is translated.
      for (let i = 0; i < 200 && !refused; i++) {
        const answer = await create(server, 'de');
        seen.add(answer.status);
        if (answer.status !== 201) refused = answer;
      }
      expect([...seen].filter((s) => s !== 201 && s !== 507)).toEqual([]);
      expect(refused).toMatchObject({
        status: 507, json: { code: 'rest_insufficient_storage', message: expect.stringContaining('Kalenderspeicher ist voll'), data: { status: 507 } },
      });
      expect(Number(refused!.retryAfter)).toBeGreaterThan(0);

      // Reads go on; /readyz says the storage takes no writes; the log names the cause.
      expect((await call(`${server.api}/events?start_date=2031-05-01&end_date=2031-05-31`)).status).toBe(200);
      expect(await call(`${server.origin}/readyz`)).toMatchObject({ status: 200, json: { status: 'ready', writable: false, reason: 'full' } });
      const log = await logHolding(server, ['storage full: the write was refused', 'storage not writable']);
      expect(log).toContain('storage full: the write was refused');
      expect(log).toMatch(scheme === 'sqlite' ? /SQLITE_FULL: database or disk is full/ : /ENOSPC/);
      expect(log).toContain('storage not writable');
      expect(log).not.toContain('unexpected error');

      // Room made: writable again at once, and the next write succeeds, without a restart.
      rmSync(filler);
      expect(await call(`${server.origin}/readyz`)).toMatchObject({ status: 200, json: { status: 'ready', writable: true } });
      const after = await create(server);
      expect(after.status).toBe(201);
      expect((await call(`${server.api}/events/${after.json.id}`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    });
  }

  it('sqlite: keeps its write-ahead log small on a small volume (checkpoints sized for it)', async () => {
    const volume = smallVolume('12m');
    const file = join(volume, 'evcal.db');
    const server = await startServe(['--storage', `sqlite:${file}`, '--user', `1:administrator:${TOKEN}`]);
    let largestWal = 0;
    // About 16 pages of log a create: 300 of them wrote some 20 MB of log, which SQLite
    // checkpointed only every 10,000 pages (40 MB).
    for (let i = 0; i < 300; i++) {
      const answer = await create(server);
      expect(answer.status).toBe(201);
      if (existsSync(`${file}-wal`)) largestWal = Math.max(largestWal, statSync(`${file}-wal`).size);
    }
    expect(largestWal).toBeLessThan(2 * 1024 * 1024);
  });
});
