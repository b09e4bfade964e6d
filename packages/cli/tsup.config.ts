import { defineConfig } from 'tsup';
import { library } from '../../tsup.shared.ts';

export default defineConfig([
  // `shims`: the page handler finds its files through import.meta.url in the CommonJS build too.
  { ...library, shims: true },
  {
    // The `evcal` executable: ESM only, with its shebang.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: library.target,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
