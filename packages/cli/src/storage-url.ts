// Storage URLs of the CLI: `memory`, `json:<file>`; `sqlite:<file>` and `postgres://…` are
// recognised and refused with a clear message until their adapter lands.
import type { Storage } from '@evcal/core';
import { openJsonFileStorage } from '@evcal/file-json';
import { createMemoryStorage } from '@evcal/memory';

export class StorageUrlError extends Error {
  override readonly name = 'StorageUrlError';
}

const PLANNED: Array<[RegExp, string]> = [
  [/^sqlite:/, 'the SQL adapter on SQLite (@evcal/sql)'],
  [/^postgres(ql)?:\/\//, 'the SQL adapter on PostgreSQL (@evcal/sql)'],
];

/** Opens the storage a URL names. */
export async function openStorage(url: string): Promise<Storage> {
  if (url === 'memory' || url === 'memory:') return createMemoryStorage();
  if (url.startsWith('json:')) {
    const path = url.slice('json:'.length);
    if (!path) throw new StorageUrlError('storage "json:" needs a file: json:<file>');
    return openJsonFileStorage({ path });
  }
  for (const [pattern, what] of PLANNED) {
    if (pattern.test(url)) throw new StorageUrlError(`storage "${redact(url)}" needs ${what}, which this build does not include yet`);
  }
  throw new StorageUrlError(`unknown storage "${redact(url)}": use memory, json:<file>, sqlite:<file> or postgres://…`);
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
