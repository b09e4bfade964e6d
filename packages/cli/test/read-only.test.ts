// `evcal serve` on a calendar it may read but not write: a SQLite file made immutable
// (`chattr +i`, which binds root too) and a JSON file on a read-only bind mount. It starts,
// serves reads, refuses writes with 503 rest_read_only, and /readyz says why. Root only (CI
// runs as root).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli, tempPath } from './support/processes';
import { logHolding, needBuiltCli, startServe, type Running } from './support/serve-process';

needBuiltCli();

const ROOT = process.getuid?.() === 0;
if (!ROOT && !process.env.CI) console.warn('NOTICE: not root: the tests of a read-only calendar are skipped (chattr and mount need root).');

const TOKEN = 'read-only-admin-token-0123456789';
const EVENT = { title: 'Gig', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00', status: 'publish' };

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-ro-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A calendar of one event written to `storage` by `evcal import`. */
async function calendarAt(storage: string): Promise<void> {
  const dataset = tempPath('dataset.json', JSON.stringify({ events: [{ id: 7, ...EVENT }] }));
  const res = await runCli(['import', dataset, '--storage', storage]);
  expect(res.code, res.stderr).toBe(0);
}

async function expectReadOnly(server: Running): Promise<void> {
  const list = await fetch(`${server.api}/events?start_date=2031-05-01&end_date=2031-05-31`);
  expect(list.status).toBe(200);
  expect(((await list.json()) as { events: { id: number }[] }).events.map((e) => e.id)).toEqual([7]);
  const write = await fetch(`${server.api}/events`, {
    method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(EVENT),
  });
  expect(write.status).toBe(503);
  expect(write.headers.get('retry-after')).toBeTruthy();
  expect(await write.json()).toMatchObject({ code: 'rest_read_only', data: { status: 503 } });
  expect(await (await fetch(`${server.origin}/readyz`)).json()).toMatchObject({ status: 'ready', writable: false, reason: 'read_only' });
  expect(await logHolding(server, ['storage read-only: the write was refused'])).toContain('storage read-only: the write was refused');
  expect(server.child.exitCode).toBeNull();
}

describe.skipIf(!ROOT && !process.env.CI)('evcal serve on a calendar it may not write', { timeout: 60_000 }, () => {
  it('sqlite: an immutable database file is served, writes answer 503 rest_read_only', async () => {
    const file = join(tempDir(), 'evcal.db');
    await calendarAt(`sqlite:${file}`);
    execFileSync('chattr', ['+i', file]);
    onTestFinished(() => { execFileSync('chattr', ['-i', file]); });
    await expectReadOnly(await startServe(['--storage', `sqlite:${file}`, '--user', `1:administrator:${TOKEN}`]));
  });

  it('json: a file on a read-only volume is served, writes answer 503 rest_read_only', async () => {
    const dir = tempDir();
    await calendarAt(`json:${join(dir, 'evcal.json')}`);
    const readOnly = tempDir();
    execFileSync('mount', ['--bind', dir, readOnly]);
    onTestFinished(() => { execFileSync('umount', ['-l', readOnly]); });
    execFileSync('mount', ['-o', 'remount,bind,ro', readOnly]);
    await expectReadOnly(await startServe(['--storage', `json:${join(readOnly, 'evcal.json')}`, '--user', `1:administrator:${TOKEN}`]));
  });
});
