// Temporary SQLite files for the SQL adapter's tests, each in a directory of its own, removed
// when the test file that made them is done (whether or not its storages were closed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A path for a new SQLite file, in a new directory removed after the test file. */
export function sqliteFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evcal-sql-'));
  made.push(dir);
  return join(dir, 'calendar.db');
}
