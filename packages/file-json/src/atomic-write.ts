// Durable, atomic replacement of a file: write a temporary file beside it, fsync it, rename it
// over the target, fsync the directory. A crash at any point leaves the old or the new file,
// never a partial one.
import { dirname } from 'node:path';
import { errorCode, type FileHandleLike, type FileStatLike, type FileSystemLike } from './file-system';

let counter = 0;

/**
 * Replaces `path` with `data`. `beforeRename` is told the new file's stat just before it takes
 * the place of the old one (a rename keeps it), so a caller knows its own file the moment it
 * appears.
 */
export async function atomicWrite(
  fs: FileSystemLike, path: string, data: string | Uint8Array, beforeRename?: (written: FileStatLike) => void,
): Promise<void> {
  const temp = `${path}.${process.pid}.${++counter}.tmp`;
  try {
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    beforeRename?.(await fs.stat(temp));
    await fs.rename(temp, path);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(fs, dirname(path));
}

/** Makes the rename itself durable. Some file systems cannot open a directory: best effort there. */
async function syncDirectory(fs: FileSystemLike, dir: string): Promise<void> {
  let handle: FileHandleLike | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'ENOTSUP', 'EBADF'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
