import { defineProject, mergeConfig } from 'vitest/config';
import { shared } from '../../vitest.shared.ts';

// Every test here runs real processes (evcal serve, import, export…): on a loaded machine
// (CI runs the suite under three Nodes) starting one takes seconds, not vitest's default 5.
export default mergeConfig(shared, defineProject({ test: { name: 'cli', testTimeout: 30_000 } }));
