import { defineConfig } from 'tsup';
import { library } from '../../tsup.shared.ts';

export default defineConfig([
  library,
  {
    // The `evcal` executable: ESM only, with its shebang.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: library.target,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
