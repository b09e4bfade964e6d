// The build every package shares: its library entry as ESM and CommonJS with types, for the
// Node versions the workspace supports (package.json `engines`).
import type { Options } from 'tsup';

export const library: Options = {
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
};
