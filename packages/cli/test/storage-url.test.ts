// How `evcal serve` opens `sqlite:` storage (storage-url.ts): in WAL mode, checkpointed every
// WAL_CHECKPOINT_PAGES pages rather than at SQLite's default of 1,000 (docs/performance.md).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createCalendar } from '@evcal/core';
import { openStorage, WAL_CHECKPOINT_PAGES } from '../src/storage-url';

/** A WAL frame: a page of 4,096 bytes (SQLite's default page size) and its 24-byte header. */
const FRAME = 4096 + 24;

describe('sqlite: storage as evcal serve opens it', () => {
  it('lets the WAL grow past SQLite\'s default 1,000 pages before it checkpoints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evcal-wal-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'calendar.db');
    const storage = await openStorage(`sqlite:${file}`);
    onTestFinished(() => storage.close());
    const calendar = createCalendar({ storage, timezone: 'UTC' });
    const admin = { principal: { id: 1, role: 'administrator' as const } };
    const walPages = () => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size / FRAME : 0);
    // With checkpoints every 1,000 pages the WAL starts again from its beginning after each one
    // and never holds much more than 1,000 pages; the cap ends the loop in that case.
    for (let i = 0; i < 3000 && walPages() <= 1_200; i++) {
      await calendar.events.create({
        title: `Night ${i}`, description: `<p>${'Music and guests. '.repeat(20)}</p>`,
        start_date: `2031-0${1 + (i % 9)}-1${i % 10} 20:00:00`, end_date: `2031-0${1 + (i % 9)}-1${i % 10} 23:00:00`,
        status: 'publish', categories: [`Category ${i % 50}`], tags: [`tag-${i % 40}`],
      }, admin);
    }
    expect(WAL_CHECKPOINT_PAGES).toBe(10_000);
    expect(walPages()).toBeGreaterThan(1_200);
  });
});

describe('postgres: the storage URL', () => {
  it('takes prepare=true or prepare=false, and names any other value before connecting', async () => {
    // Port 1: nothing listens there; the URL is refused before any connection is tried.
    await expect(openStorage('postgres://evcal@127.0.0.1:1/evcal?schema=cal&prepare=maybe')).rejects.toThrow(/prepare is "true" or "false", not "maybe"/);
  });
});
