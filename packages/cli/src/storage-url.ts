// Storage URLs of the CLI: `memory` today; `json:<file>`, `sqlite:<file>` and
// `postgres://…` are recognised and refused with a clear message until their adapters land.
import type { Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';

export class StorageUrlError extends Error {
  override readonly name = 'StorageUrlError';
}

const PLANNED: Array<[RegExp, string]> = [
  [/^json:/, 'the JSON file adapter (@evcal/file-json)'],
  [/^sqlite:/, 'the SQL adapter on SQLite (@evcal/sql)'],
  [/^postgres(ql)?:\/\//, 'the SQL adapter on PostgreSQL (@evcal/sql)'],
];

/** Opens the storage a URL names. */
export async function openStorage(url: string): Promise<Storage> {
  if (url === 'memory' || url === 'memory:') return createMemoryStorage();
  for (const [pattern, what] of PLANNED) {
    if (pattern.test(url)) throw new StorageUrlError(`storage "${redact(url)}" needs ${what}, which this build does not include yet`);
  }
  throw new StorageUrlError(`unknown storage "${redact(url)}": use memory, json:<file>, sqlite:<file> or postgres://…`);
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
