// A dataset loaded once before serving (`evcal serve --seed`), so that the server's heap is left
// as it would be had it been built for serving. Two things a bulk load leaves behind would
// otherwise slow every request after it, on the memory storage above all, whose records live
// in the JavaScript heap (each measured on `evcal serve --storage memory` answering saturated
// 304s, bench/http.mjs):
//
// - Pretenuring decisions. V8 watches, per allocation site (an object or array literal in a
//   function), how many of the objects it made survive a young-generation collection; a site
//   whose objects nearly all survive is "tenured" and from then on allocates straight into the
//   old generation. A load keeps everything it makes, so a couple of hundred sites are tenured
//   and the decisions are baked into the code compiled afterwards. Seeded with 10k events, a
//   304 cost about 14 µs of user CPU with them and about 11 without, as much as the same
//   server without a dataset. The load runs with allocation-site pretenuring off; V8's
//   default comes back for serving, whose own decisions it then makes from what serving does.
// - A fragmented old generation. The records a load keeps end up spread over the pages its
//   temporary objects filled: after loading 100k events, 181 MB of live objects occupied about
//   1,000 MB of old-generation pages (4,000 pages of 256 KB), and V8 keeps every page that
//   holds anything alive. Each young-generation collection walks the list of those pages: 3–6
//   ms each, about 30 a second under load. One compacting full collection after the load
//   (about 0.7 s at 100k events) moves the records together: 185 MB of pages, and the memory
//   given back.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Whether the process was started with a V8 flag set (`node --<flag>`, in its arguments or NODE_OPTIONS; `-` or `_`). */
export function startedWith(flag: string, execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  const same = (arg: string) => arg.replaceAll('_', '-') === flag;
  return execArgv.some(same) || nodeOptions.split(/\s+/).some(same);
}

export interface BulkLoadRuntime {
  /** Sets V8 flags (node:v8 setFlagsFromString). */
  readonly setFlags: (flags: string) => void;
  /** Runs a full garbage collection. */
  readonly collect: () => void;
  /** Whether the process was started with this flag. */
  readonly startedWith: (flag: string) => boolean;
}

/** The process's own V8. */
export const processRuntime: BulkLoadRuntime = {
  setFlags: setFlagsFromString,
  collect: () => {
    // `gc` is exposed only to contexts created while --expose-gc is set: one is made for it.
    setFlagsFromString('--expose-gc');
    try {
      (runInNewContext('gc') as () => void)();
    } finally {
      if (!startedWith('--expose-gc')) setFlagsFromString('--no-expose-gc');
    }
  },
  startedWith: (flag) => startedWith(flag),
};

/**
 * Runs a one-time bulk load with V8's allocation-site pretenuring off, then compacts the heap
 * once; every flag it changes is left as the process was started with it.
 */
export async function asBulkLoad<T>(load: () => Promise<T>, runtime: BulkLoadRuntime = processRuntime): Promise<T> {
  const result = await withFlag(runtime, 'allocation-site-pretenuring', false, load);
  await withFlag(runtime, 'compact-on-every-full-gc', true, async () => runtime.collect());
  return result;
}

/** Runs `run` with a boolean V8 flag set to `on`, then sets it back, unless the process was started with it so. */
async function withFlag<T>(runtime: BulkLoadRuntime, flag: string, on: boolean, run: () => Promise<T>): Promise<T> {
  const spelled = (value: boolean) => `--${value ? '' : 'no-'}${flag}`;
  if (runtime.startedWith(spelled(on))) return run();
  runtime.setFlags(spelled(on));
  try {
    return await run();
  } finally {
    runtime.setFlags(spelled(!on));
  }
}
