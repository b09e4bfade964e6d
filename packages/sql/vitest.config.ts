import { defineProject, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// Real databases and processes of their own (two writers on one SQLite file, a killed writer):
// a child process that starts through tsx takes seconds on a loaded machine, as in CI where
// Node 22 and 24 run side by side. A timeout is a hang detector here, not a measure.
export default mergeConfig(shared, defineProject({ test: { name: 'sql', testTimeout: 30_000 } }));
