// `evcal serve` loads a seed with V8's allocation-site pretenuring off, then compacts the heap
// once (bulk-load.ts says why; bench/http.mjs measures it). Here: the flags it sets, in order,
// that it leaves a process started with them as it was, and that the real V8 takes them.
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { asBulkLoad, processRuntime, startedWith, type BulkLoadRuntime } from '../src/bulk-load';

/** A runtime that records what is done to it; `started` are the flags the process was started with. */
function recording(started: readonly string[] = []): { runtime: BulkLoadRuntime; calls: string[] } {
  const calls: string[] = [];
  return { calls, runtime: { setFlags: (flags) => calls.push(flags), collect: () => calls.push('collect'), startedWith: (flag) => started.includes(flag) } };
}

describe('asBulkLoad', () => {
  it('loads with pretenuring off, turns it back on, then compacts in one full collection', async () => {
    const { runtime, calls } = recording();
    const result = await asBulkLoad(async () => {
      calls.push('load');
      return 42;
    }, runtime);
    expect(result).toBe(42);
    expect(calls).toEqual([
      '--no-allocation-site-pretenuring', 'load', '--allocation-site-pretenuring',
      '--compact-on-every-full-gc', 'collect', '--no-compact-on-every-full-gc',
    ]);
  });

  it('turns pretenuring back on when the load fails, and passes the failure on without collecting', async () => {
    const { runtime, calls } = recording();
    await expect(asBulkLoad(async () => {
      throw new Error('invalid dataset');
    }, runtime)).rejects.toThrow('invalid dataset');
    expect(calls).toEqual(['--no-allocation-site-pretenuring', '--allocation-site-pretenuring']);
  });

  it('leaves flags the process was started with as they were', async () => {
    const { runtime, calls } = recording(['--no-allocation-site-pretenuring', '--compact-on-every-full-gc']);
    expect(await asBulkLoad(async () => 'loaded', runtime)).toBe('loaded');
    expect(calls).toEqual(['collect']);
  });

  it('compacts the real heap: the pages a load fragmented are given back', async () => {
    const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_size;
    let kept: object[] = [];
    await asBulkLoad(async () => {
      // Every tenth object lives on, the rest die after they were promoted: sparse pages.
      const all: object[] = [];
      for (let i = 0; i < 400_000; i++) all.push({ i, text: `record ${i}`, tags: [i, i + 1] });
      kept = all.filter((_, i) => i % 10 === 0);
    }, { ...processRuntime, collect: () => undefined });
    const before = oldSpace();
    processRuntime.collect();
    const collectedOnly = oldSpace();
    await asBulkLoad(async () => undefined);
    expect(kept).toHaveLength(40_000);
    expect(oldSpace()).toBeLessThan(Math.min(before, collectedOnly) * 0.8);
  });
});

describe('startedWith', () => {
  it('finds a flag in node arguments or NODE_OPTIONS, either spelling', () => {
    expect(startedWith('--no-allocation-site-pretenuring', [], '')).toBe(false);
    expect(startedWith('--no-allocation-site-pretenuring', ['--no-allocation-site-pretenuring'], '')).toBe(true);
    expect(startedWith('--no-allocation-site-pretenuring', ['--no_allocation_site_pretenuring'], '')).toBe(true);
    expect(startedWith('--no-allocation-site-pretenuring', [], '--max-old-space-size=4096 --no-allocation-site-pretenuring')).toBe(true);
    expect(startedWith('--no-allocation-site-pretenuring', ['--allocation-site-pretenuring'], '--inspect')).toBe(false);
  });
});
