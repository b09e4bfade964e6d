// `evcal import` and `evcal export` between storages, through the built command.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../../..');
const CLI = join(REPO, 'packages', 'cli', 'dist', 'cli.js');
const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function evcal(...args: string[]) {
  const res = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** A small calendar with links, terms, a draft, a trashed event and an all-day one. */
function dataset() {
  return {
    categories: [{ id: 1, name: 'Music', slug: 'music' }, { id: 2, name: 'Jazz', slug: 'jazz', parent: 1 }],
    tags: [{ id: 3, name: 'Free', slug: 'free' }],
    venues: [{ id: 10, venue: 'Blue Room', status: 'publish', city: 'Rome', geo_lat: 41.9, geo_lng: 12.5 }],
    organizers: [{ id: 20, organizer: 'Ada', status: 'publish', email: 'ada@example.com' }],
    events: [
      { id: 30, title: 'Gig & "more"', status: 'publish', timezone: 'Europe/Rome', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00', cost: ['10€', '20€'], categories: [2], tags: [3], venue: [10], organizer: [20], featured: true },
      { id: 31, title: 'Draft', status: 'draft', timezone: 'UTC', start_date: '2031-05-07 10:00:00', end_date: '2031-05-07 11:00:00' },
      { id: 32, title: 'Gone', status: 'trash', slug: 'gone', timezone: 'UTC', start_date: '2031-05-08 10:00:00', end_date: '2031-05-08 11:00:00' },
      { id: 33, title: 'Fair', status: 'publish', timezone: 'America/New_York', all_day: true, start_date: '2031-05-09', end_date: '2031-05-10', post_parent: 30 },
    ],
  };
}

describe('evcal import and export', () => {
  const targets: Array<[string, () => string, boolean]> = [
    ['json', () => `json:${join(dir, 'copy.json')}`, true],
    ['sqlite', () => `sqlite:${join(dir, 'copy.db')}`, true],
    ['postgres', () => `${POSTGRES_URL}${POSTGRES_URL?.includes('?') ? '&' : '?'}schema=evcal_cli_${randomBytes(4).toString('hex')}`, Boolean(POSTGRES_URL)],
  ];
  for (const [name, target, available] of targets) {
    it.skipIf(!available)(`a calendar exported from SQLite and imported into ${name} reads back identically`, () => {
      dir = mkdtempSync(join(tmpdir(), 'evcal-transfer-'));
      const input = join(dir, 'input.json');
      writeFileSync(input, JSON.stringify(dataset()));
      const source = `sqlite:${join(dir, 'source.db')}`;

      const loaded = evcal('import', input, '--storage', source);
      expect(loaded.code, loaded.stderr).toBe(0);
      // Not a terminal: one summary line, no progress bar.
      expect(loaded.stderr).toMatch(/^imported 4 events, 1 venues, 1 organizers, 2 categories, 1 tags into sqlite:.* in [\d.]+ s\n$/);

      const exported = evcal('export', '--storage', source, '--output', join(dir, 'export.json'));
      expect(exported.code, exported.stderr).toBe(0);
      const first = readFileSync(join(dir, 'export.json'), 'utf8');

      const copy = target();
      expect(evcal('import', join(dir, 'export.json'), '--storage', copy).code).toBe(0);
      const again = evcal('export', '--storage', copy);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first));
      expect(again.stdout).toBe(first);
    }, 60_000);
  }

  it('refuses an invalid dataset, names the bad record and loads nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'evcal-transfer-'));
    const input = join(dir, 'bad.json');
    writeFileSync(input, JSON.stringify({ venues: [{ id: 1, venue: 'Ok' }], events: [{ id: 2, title: 'No dates' }] }));
    const storage = `sqlite:${join(dir, 'target.db')}`;
    const res = evcal('import', input, '--storage', storage);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('events[0]');
    expect(JSON.parse(evcal('export', '--storage', storage).stdout).venues).toEqual([]);
  }, 60_000);

  it('needs exactly one dataset file', () => {
    dir = mkdtempSync(join(tmpdir(), 'evcal-transfer-'));
    const res = evcal('import');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/dataset file/);
  }, 60_000);
});
