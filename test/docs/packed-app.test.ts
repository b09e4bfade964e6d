// The runner the docs test drives commands with (packed-app.ts).
import { tmpdir } from 'node:os';
import { expect, it } from 'vitest';
import { run } from './packed-app';

it('runs a command that exits without reading its input: its exit code, no EPIPE thrown', async () => {
  // 4 MiB is more than a pipe holds: the write is still under way when the command has gone.
  const result = await run(process.execPath, ['-e', 'process.exit(3)'], { cwd: tmpdir(), input: 'x'.repeat(4 << 20) });
  expect(result.code).toBe(3);
});
