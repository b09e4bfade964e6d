import { defineConfig, type Options } from 'tsup';
import { forRun, library } from '../../tsup.shared.ts';

/** The `evcal` executable: ESM only, with its shebang. */
const executable: Options = {
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  sourcemap: true,
  target: library.target,
  banner: { js: '#!/usr/bin/env node' },
};

// `shims`: the page handler finds its files through import.meta.url in the CommonJS build too.
// A build for running only (EVCAL_BUILD=run) makes the executable alone.
export default defineConfig(forRun ? [executable] : [{ ...library, shims: true }, executable]);
