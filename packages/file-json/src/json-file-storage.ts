// The calendar as one JSON document on disk, in the dataset format (a file written here can
// be loaded with `evcal serve --seed` or `importDataset`). Records live in memory and are
// queried by the core engine; every committed transaction rewrites the file atomically before
// it is acknowledged. The first write takes a lock that keeps other processes from writing;
// they can still read, and every read re-reads the file when another process changed it.
import { datasetJsonBytes, decodeDataset, isCalendarError, storageError, writeFaults, type Storage, type StorageReadiness } from '@evcal/core/adapter';
import { statfsSync } from 'node:fs';
import { createMemoryStorage, type MemorySnapshot } from '@evcal/memory';
import { dirname } from 'node:path';
import { atomicWrite } from './atomic-write';
import { acquireLock, type FileLock } from './file-lock';
import { errorCode, nodeFileSystem, type FileStatLike, type FileSystemLike } from './file-system';

export interface JsonFileStorageOptions {
  /** The JSON file; created (with its directory) on the first write. */
  readonly path: string;
  /** The file operations to use. @default node:fs/promises */
  readonly fs?: FileSystemLike;
  /**
   * The bytes free on the file's volume, or undefined when unknown: after a write failed for
   * want of room, readiness counts the storage writable again once room was made.
   * @default statfs of the file's directory with node:fs, unknown with another `fs`
   */
  readonly freeBytes?: () => number | undefined;
}

const EMPTY: MemorySnapshot = { events: [], venues: [], organizers: [], categories: [], tags: [], sequences: { post: 0, term: 0, change: 0 } };
/** The methods of each part of the storage that write (run in a transaction: file lock, rewrite). */
const RECORD_WRITES = new Set(['insert', 'replace', 'delete', 'unlink', 'setStatus']);
const WRITES = {
  events: RECORD_WRITES, venues: RECORD_WRITES, organizers: RECORD_WRITES, categories: RECORD_WRITES, tags: RECORD_WRITES,
  users: RECORD_WRITES, tokens: RECORD_WRITES,
  changes: new Set(['append', 'prune']),
  webhooks: new Set(['insertEndpoint', 'replaceEndpoint', 'deleteEndpoint', 'enqueue', 'claim', 'settle', 'wake', 'prune']),
  idempotency: new Set(['insert', 'delete', 'prune']),
};
type Part = keyof typeof WRITES;

/** Opens (or starts) a JSON file calendar. Fails if the file exists but is not a valid calendar. */
export async function openJsonFileStorage(options: JsonFileStorageOptions): Promise<Storage> {
  const fs = options.fs ?? nodeFileSystem;
  const { path } = options;
  /**
   * The files memory already holds (or has gone past): the one last loaded and the last few this
   * process wrote. A file that is one of them is never loaded again, so a read that sees this
   * process's previous file while it writes the next cannot take memory back.
   */
  let known: Array<FileStatLike | undefined> = [undefined];
  let lock: Promise<FileLock> | undefined;
  let closed = false;
  /** The JSON of each stored record, so that a write encodes only what changed (datasetJsonBytes). */
  const encoded = new WeakMap<object, Uint8Array>();
  const freeBytes = options.freeBytes ?? (fs === nodeFileSystem ? () => freeBytesAt(dirname(path)) : undefined);
  // Writes that failed for want of room or permission: readiness says so until that changes.
  const faults = writeFaults(freeBytes ? { freeBytes } : {});

  const memory = createMemoryStorage({
    // Runs in the committing transaction's turn: no other transaction starts before it ends.
    onCommit: async (m) => {
      try {
        // This process's own file is known before it appears.
        await atomicWrite(fs, path, datasetJsonBytes(m.snapshot(), encoded), (written) => {
          known = [...known.slice(-3), written];
        });
        faults.succeeded();
      } catch (error) {
        // Memory holds a commit the file does not: back to the file's state, still in this turn.
        await refresh(true);
        throw fileStorageError(error);
      }
    },
  });

  /** Loads the file when it is not what this process last read or wrote. */
  const refresh = async (force = false) => {
    const current = await statOrUndefined(fs, path);
    if (!force && known.some((k) => sameFile(current, k))) return;
    if (!current) {
      memory.load(EMPTY);
    } else {
      const text = await fs.readFile(path, 'utf8');
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (e) {
        throw new Error(`evcal/file-json: ${path} is not JSON: ${(e as Error).message}`);
      }
      memory.load(decodeDataset(data));
    }
    known = [current];
  };

  const transaction: Storage['transaction'] = async (fn) => {
    if (closed) throw storageError('unavailable', new Error('evcal/file-json: storage is closed'));
    // One acquisition shared by concurrent transactions; a refused one may be retried later.
    lock ??= fs.mkdir(dirname(path), { recursive: true }).then(() => acquireLock(fs, path));
    try {
      await lock.catch((error: unknown) => {
        lock = undefined;
        throw fileStorageError(error);
      });
      await refresh();
      // A transaction that fails leaves memory as it was (memory transactions are atomic); one
      // whose file could not be written is taken back in onCommit.
      return await memory.transaction(fn);
    } catch (error) {
      faults.failed(error);
      throw error;
    }
  };

  const wrap = <K extends Part>(name: K): Storage[K] => {
    const inner = memory[name] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const [method, fn] of Object.entries(inner)) {
      wrapped[method] = WRITES[name].has(method)
        ? (...args) => transaction((tx) => (tx[name] as unknown as typeof inner)[method]!(...args))
        : async (...args) => {
          await refresh();
          return fn(...args);
        };
    }
    return wrapped as unknown as Storage[K];
  };

  await refresh();
  return {
    capabilities: { transactions: true, durable: true },
    events: wrap('events'),
    venues: wrap('venues'),
    organizers: wrap('organizers'),
    categories: wrap('categories'),
    tags: wrap('tags'),
    users: wrap('users'),
    tokens: wrap('tokens'),
    changes: wrap('changes'),
    webhooks: wrap('webhooks'),
    idempotency: wrap('idempotency'),
    sequences: {
      next: (kind) => transaction((tx) => tx.sequences.next(kind)),
      bump: (kind, id) => transaction((tx) => tx.sequences.bump(kind, id)),
      peek: async (kind) => {
        await refresh();
        return memory.sequences.peek(kind);
      },
    },
    // The file is re-read when another process wrote it, so its counter is the file's.
    lastChange: async () => {
      await refresh();
      return memory.lastChange();
    },
    transaction,
    // Ready when the file can be read (or does not exist yet) and holds a calendar.
    async readiness(): Promise<StorageReadiness> {
      if (closed) return { ready: false, reason: 'unreachable', detail: 'the storage is closed' };
      try {
        await refresh();
        return faults.readiness();
      } catch (error) {
        // A file system error (EACCES, EIO…) means unreachable; anything else, a file that is not a calendar.
        const unreachable = !isCalendarError(error) && errorCode(error) !== undefined;
        return { ready: false, reason: unreachable ? 'unreachable' : 'schema', detail: `${path}: ${(error as Error).message}` };
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await memory.close();
      await (await lock?.catch(() => undefined))?.release();
    },
  };
}

async function statOrUndefined(fs: FileSystemLike, path: string): Promise<FileStatLike | undefined> {
  try {
    return await fs.stat(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Every write replaces the file (a new inode), so inode, size and time tell a change. */
function sameFile(a: FileStatLike | undefined, b: FileStatLike | undefined): boolean {
  if (!a || !b) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * A file system's failure as a storage error: no room (ENOSPC, a quota) is `full`, a read-only
 * file system or a file this process may not write is `read_only`, an I/O error `unavailable`;
 * anything else is left as it is.
 */
function fileStorageError(error: unknown): unknown {
  const code = errorCode(error);
  if (code === 'ENOSPC' || code === 'EDQUOT') return storageError('full', error);
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return storageError('read_only', error);
  if (code === 'EIO' || code === 'EMFILE' || code === 'ENFILE' || code === 'EBUSY') return storageError('unavailable', error);
  return error;
}

/** The bytes free to this process on the volume holding `dir`, or undefined when it cannot tell. */
export function freeBytesAt(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return undefined;
  }
}
