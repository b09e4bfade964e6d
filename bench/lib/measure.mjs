// Latency sampling: warm up, then time each call until enough samples or the time budget runs
// out; report percentiles. Nothing here asserts anything.

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/**
 * Calls `fn(i)` repeatedly. `budgetMs` bounds the measured phase; at least `minSamples` and at
 * most `maxSamples` calls are timed. Returns milliseconds (`cpuMs`: the process's CPU time per
 * timed call).
 */
export async function sample(fn, { warmup = 20, budgetMs = 3000, minSamples = 10, maxSamples = 5000 } = {}) {
  let i = 0;
  const warmEnd = performance.now() + Math.min(budgetMs / 4, 2000);
  for (let w = 0; w < warmup && (w < 2 || performance.now() < warmEnd); w++) await fn(i++);
  const times = [];
  // CPU time of the whole process over the measured phase, per call: on a shared machine wall
  // times vary with the load, the CPU a call costs much less.
  const cpu0 = process.cpuUsage();
  const end = performance.now() + budgetMs;
  while (times.length < maxSamples && (times.length < minSamples || performance.now() < end)) {
    const t = performance.now();
    await fn(i++);
    times.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((s, t) => s + t, 0);
  return {
    samples: times.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    mean: total / times.length,
    min: sorted[0],
    max: sorted.at(-1),
    opsPerSec: (1000 * times.length) / total,
    cpuMs: (cpu.user + cpu.system) / 1000 / times.length,
  };
}

export const fmtMs = (ms) => (ms === undefined || Number.isNaN(ms) ? '—' : ms < 0.1 ? `${(ms * 1000).toFixed(0)} µs` : ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`);
