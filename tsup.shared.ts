// The build every package shares: its library entry as ESM and CommonJS with types, for the
// Node versions the workspace supports (package.json `engines`).
import type { Options } from 'tsup';

/**
 * `EVCAL_BUILD=run`: only what running `evcal` needs (`npm start`, the `evcal` executable in a
 * checkout, scripts/build-for-run.mjs): ESM, without CommonJS and without type declarations,
 * whose generation takes most of a build's time. `npm run build` makes everything.
 */
export const forRun = process.env.EVCAL_BUILD === 'run';

export const library: Options = {
  entry: ['src/index.ts'],
  format: forRun ? ['esm'] : ['esm', 'cjs'],
  dts: !forRun,
  sourcemap: true,
  clean: true,
  target: 'node20',
};
