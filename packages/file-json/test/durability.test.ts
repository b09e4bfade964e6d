// Durability on a real disk: writer locks between processes, stale-lock recovery, a crash in
// the middle of a stream of writes, and the file being a dataset.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createCalendar } from '@evcal/core';
import { isCalendarError, type Storage } from '@evcal/core/adapter';
import { createMemoryStorage } from '@evcal/memory';
import { eventRecord } from '@evcal/storage-test-suite';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFileSystem, type FileSystemLike } from '../src/file-system';
import { openJsonFileStorage } from '../src/json-file-storage';

const root = resolve(__dirname, '../../..');
// One process (tsx as a loader, not its wrapper CLI), so that SIGKILL hits the writer itself.
const node = [process.execPath, '--import', 'tsx', '--conditions=@evcal/source'] as const;
const writer = join(__dirname, 'fixtures', 'writer.ts');
const open: Storage[] = [];
let dir: string;

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function openAt(path: string): Promise<Storage> {
  const s = await openJsonFileStorage({ path });
  open.push(s);
  return s;
}

function fresh(): string {
  dir = mkdtempSync(join(tmpdir(), 'evcal-file-json-'));
  return join(dir, 'calendar.json');
}

function runWriterOnce(path: string) {
  return spawnSync(node[0], [...node.slice(1), writer, path, 'once'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
}

describe('JSON file storage on disk', () => {
  it('loses no write while the same process reads all along (a read never loads an older file of its own)', async () => {
    const path = fresh();
    // A slow disk: reading the file takes longer than the next write, and so does making a rename durable.
    const pause = () => new Promise((r) => setTimeout(r, 15));
    const slow: FileSystemLike = {
      ...nodeFileSystem,
      readFile: async (p, encoding) => {
        const text = await nodeFileSystem.readFile(p, encoding);
        await pause();
        return text;
      },
      open: async (p, flags) => {
        const handle = await nodeFileSystem.open(p, flags);
        return flags === 'r' ? { ...handle, writeFile: handle.writeFile.bind(handle), close: handle.close.bind(handle), sync: async () => { await pause(); await handle.sync(); } } : handle;
      },
    };
    const storage = await openJsonFileStorage({ path, fs: slow });
    open.push(storage);
    const calendar = createCalendar({ storage });
    const admin = { principal: { id: 1, role: 'administrator' } };
    let writing = true;
    const readers = Array.from({ length: 3 }, async () => {
      while (writing) await calendar.events.list({ per_page: 3 });
    });
    const created = await Promise.all(Array.from({ length: 40 }, async (_, i) => (await calendar.events.create(
      { title: `Concurrent ${i}`, start_date: '2027-01-10 20:00:00', end_date: '2027-01-10 23:00:00', categories: [`Cat ${i % 3}`] }, admin,
    )).value));
    writing = false;
    await Promise.all(readers);
    expect(new Set(created.map((e) => e.id)).size).toBe(40);
    const listed = await calendar.events.list({ per_page: 50, start_date: '2027-01-01' });
    expect(listed.total).toBe(40);
    const again = await openAt(path);
    expect((await again.events.list({ records: 'listed', statuses: ['publish'], excludeHidden: false, sort: [{ field: 'id', direction: 'asc' }] })).total).toBe(40);
  });

  it('refuses a second writer in another process with a clear error, and lets it read', async () => {
    const path = fresh();
    const first = await openAt(path);
    await first.events.insert(eventRecord(1));
    const child = runWriterOnce(path);
    expect(child.status).toBe(3);
    expect(child.stderr).toMatch(/being written by another process/);
    // Who holds the lock is in the details, for operators; the message (what clients read) does not name it.
    expect(child.stderr).toContain(`"pid":${process.pid}`);
    // The refused process changed nothing.
    expect((await first.events.getMany([1, 2])).map((e) => e.id)).toEqual([1]);
  }, 60_000);

  it('refuses a second writer in the same process too', async () => {
    const path = fresh();
    const a = await openAt(path);
    const b = await openAt(path);
    await a.events.insert(eventRecord(1));
    const refused = await b.events.insert(eventRecord(2)).catch((e: unknown) => e);
    expect(isCalendarError(refused) && refused.code).toBe('conflict');
  });

  it('re-reads the file when another process changed it', async () => {
    const path = fresh();
    const reader = await openAt(path);
    expect(await reader.events.get(1)).toBeUndefined();
    const child = runWriterOnce(path);
    expect(child.status, child.stderr).toBe(0);
    expect((await reader.events.get(1))?.title).toBe('Write 0');
  }, 60_000);

  it('takes over the lock of a process that died', async () => {
    const path = fresh();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: Number(dead.stdout), host: hostname(), since: '2026-01-01T00:00:00Z' }));
    const s = await openAt(path);
    await s.events.insert(eventRecord(1));
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
  });

  it('keeps every acknowledged write when the writer is killed in the middle of a stream', async () => {
    const path = fresh();
    const child = spawn(node[0], [...node.slice(1), writer, path], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    await new Promise<void>((done, fail) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        for (const m of buffer.matchAll(/ack (\d+)\n/g)) acked.push(Number(m[1]));
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
        if (acked.length >= 60) {
          child.kill('SIGKILL');
          done();
        }
      });
      child.on('exit', (code) => (acked.length >= 60 ? done() : fail(new Error(`writer exited with ${code}`))));
    });
    await new Promise((r) => child.once('close', r));
    // The file parses, and every acknowledged event is there.
    const reopened = await openAt(path);
    const stored = await reopened.events.getMany(acked);
    expect(stored.map((e) => e.id).sort((a, b) => a - b)).toEqual([...acked].sort((a, b) => a - b));
    // The killed writer's lock is stale: this process can write.
    await reopened.events.insert(eventRecord(100_000));
  }, 120_000);

  it('writes a dataset that importDataset loads', async () => {
    const path = fresh();
    const storage = await openAt(path);
    const calendar = createCalendar({ storage });
    const admin = { principal: { id: 1, role: 'administrator' } };
    await calendar.events.create({ title: 'Gig', start_date: '2031-05-06 20:00', end_date: '2031-05-06 23:00', venue: { venue: 'Hall' }, categories: 'Music' }, admin);
    const copy = createCalendar({ storage: createMemoryStorage() });
    await copy.importDataset(JSON.parse(readFileSync(path, 'utf8')));
    expect(await copy.exportDataset()).toEqual(await calendar.exportDataset());
  });
});
