#!/usr/bin/env node
// The `evcal` executable. Installed from npm, it runs the build in dist/. In a checkout of the
// repository (where the package's tsup.config.ts is beside it), it first builds what running
// needs when that is missing or older than its sources (scripts/build-for-run.mjs), so that
// `npx evcal` works right after `npm ci` and after an edit.
import { existsSync } from 'node:fs';

const checkout = new URL('../../../scripts/build-for-run.mjs', import.meta.url);
if (existsSync(new URL('../tsup.config.ts', import.meta.url)) && existsSync(checkout)) {
  const { buildForRun } = await import(checkout.href);
  try {
    await buildForRun();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
await import('../dist/cli.js');
