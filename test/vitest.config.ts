import { defineProject, mergeConfig } from 'vitest/config';
import { shared } from '../vitest.shared.ts';

// Tests of the repository as a whole: the docs' code blocks, run in an app that installed the
// packed packages (docs/). Packing and installing take a minute or two, more on a loaded machine.
export default mergeConfig(shared, defineProject({ test: { name: 'docs', testTimeout: 120_000, hookTimeout: 600_000 } }));
