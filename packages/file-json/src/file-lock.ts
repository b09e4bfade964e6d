// The writer lock: a `<file>.lock` created exclusively, holding the owner's pid and host.
// A lock whose process no longer runs on this host is stale and taken over; a live one
// refuses the second writer with a clear error.
import { hostname } from 'node:os';
import { CalendarError, msg } from '@evcal/core/adapter';
import { errorCode, type FileSystemLike } from './file-system';

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

export interface FileLock {
  release(): Promise<void>;
}

export async function acquireLock(fs: FileSystemLike, path: string): Promise<FileLock> {
  const lockPath = `${path}.lock`;
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(lockPath, JSON.stringify(me), { flag: 'wx', encoding: 'utf8' });
      return { release: () => release(fs, lockPath, me) };
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const owner = await readOwner(fs, lockPath);
    if (owner && !isStale(owner)) {
      // Clients read the message; who holds the lock is for operators (details, logs).
      throw new CalendarError('conflict',
        msg('The calendar is being written by another process; only one process may write a JSON file calendar at a time.'),
        { details: { path, pid: owner.pid, host: owner.host, since: owner.since } });
    }
    // Stale (or unreadable, i.e. half-written by a process that died): take it over.
    await fs.unlink(lockPath).catch(() => undefined);
  }
  throw new CalendarError('conflict', msg('The calendar file could not be locked for writing; try again.'));
}

async function readOwner(fs: FileSystemLike, lockPath: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await fs.readFile(lockPath, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

function isStale(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return errorCode(error) === 'ESRCH';
  }
}

async function release(fs: FileSystemLike, lockPath: string, me: LockOwner): Promise<void> {
  const owner = await readOwner(fs, lockPath);
  if (owner && owner.pid === me.pid && owner.since === me.since) await fs.unlink(lockPath).catch(() => undefined);
}
