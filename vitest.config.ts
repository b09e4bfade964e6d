import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    // Drops the PostgreSQL schemas the tests created, once every project has run.
    globalSetup: ['./scripts/test-schemas.mjs'],
    // vitest's default is one worker fewer than the cores: on CI's two cores, one, and the 74
    // files ran one after another. Many of them mostly wait (on the `evcal serve` processes
    // they start, on PostgreSQL), so two run side by side on two cores: the CLI project took
    // 128 s with one worker, 91 s with two. From three cores up this is vitest's default.
    // Tests use their own temporary files and PostgreSQL schemas, so files may run at once.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
