// The file operations the adapter calls, as the smallest structural interface: node's
// `fs/promises` satisfies it, and so does memfs's `fs.promises` for tests.
import * as nodeFs from 'node:fs/promises';

export interface FileHandleLike {
  writeFile(data: string | Uint8Array, encoding: 'utf8'): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface FileStatLike {
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number | bigint;
}

export interface FileSystemLike {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string, options: { flag: string; encoding: 'utf8' }): Promise<void>;
  open(path: string, flags: string): Promise<FileHandleLike>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<FileStatLike>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
}

export const nodeFileSystem: FileSystemLike = nodeFs as unknown as FileSystemLike;

/** The error code of a failed file operation (`ENOENT`, `EEXIST`, …). */
export function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}
