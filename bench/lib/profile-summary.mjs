// Summarises a V8 .cpuprofile: self time and inclusive time per function (top N).
import { readFileSync } from 'node:fs';

/**
 * `exclude`: function names; samples with one of them on the stack are left out (e.g. start-up
 * work). `lastSeconds`: only the samples of the profile's last seconds (a server's steady state).
 */
export function summarise(file, top = 25, exclude = [], lastSeconds = Infinity) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = prof.timeDeltas;
  const counts = new Map();
  const from = prof.endTime - lastSeconds * 1e6;
  for (let i = 0, at = prof.startTime; i < prof.samples.length; i++) {
    at += dt[i] ?? 0;
    if (at >= from) counts.set(prof.samples[i], (counts.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
  }
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
  const incl = new Map();
  let total = 0;
  const excluded = (id) => {
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) if (exclude.includes(byId.get(cur).callFrame.functionName)) return true;
    return false;
  };
  for (const [id, t] of counts) {
    if (exclude.length && excluded(id)) continue;
    total += t;
    const l = label(byId.get(id));
    self.set(l, (self.get(l) ?? 0) + t);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const lab = label(byId.get(cur));
      if (seen.has(lab)) continue;
      seen.add(lab);
      incl.set(lab, (incl.get(lab) ?? 0) + t);
    }
  }
  const fmt = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([l, t]) => `${(t / 1000).toFixed(0).padStart(7)} ms ${(100 * t / total).toFixed(1).padStart(5)}%  ${l}`).join('\n');
  return `total ${(total / 1000).toFixed(0)} ms\n-- self --\n${fmt(self)}\n-- inclusive --\n${fmt(incl)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node profile-summary.mjs <file> [top] [excluded,function,names] [last seconds]
  console.log(summarise(process.argv[2], Number(process.argv[3] ?? 25), (process.argv[4] ?? '').split(',').filter(Boolean), Number(process.argv[5] ?? Infinity)));
}
