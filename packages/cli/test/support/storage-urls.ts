// The storages a CLI test runs `evcal serve` on, as --storage values: memory, a JSON file, a
// SQLite file (each in a temporary directory removed when the test finishes) and, when
// EVCAL_TEST_POSTGRES_URL is set, a fresh PostgreSQL schema.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

export const POSTGRES_URL = process.env.EVCAL_TEST_POSTGRES_URL;

/** A temporary directory removed when the current test finishes. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `evcal-${prefix}-`));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** [name, the --storage value (call it inside a test), whether it is available]; `prefix` names the temporary files and schemas. */
export function storageUrls(prefix: string): Array<[string, () => string, boolean]> {
  return [
    ['memory', () => 'memory', true],
    ['json', () => `json:${join(tempDir(prefix), 'calendar.json')}`, true],
    ['sqlite', () => `sqlite:${join(tempDir(prefix), 'calendar.db')}`, true],
    ['postgres', () => `${POSTGRES_URL}${POSTGRES_URL?.includes('?') ? '&' : '?'}schema=evcal_${prefix}_${randomBytes(4).toString('hex')}`, Boolean(POSTGRES_URL)],
  ];
}
