// Preloaded with `--import` (through NODE_OPTIONS): writes the URL of every module the process
// loads, one a line, to the file EVCAL_TEST_MODULE_LOG names. startup.test.ts reads it to see
// what `evcal serve` loads before it listens.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.EVCAL_TEST_MODULE_LOG, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
