// Resident size of the memory adapter holding N events (run with --expose-gc):
//   node --expose-gc bench/memory.mjs --n 100000 [--out result.json]
// Stored records (built by core's import, lib/records.mjs) are inserted chunk by chunk through
// the storage interface, each chunk in one transaction, so the process never holds a second
// copy of the calendar. Measured after a full GC: the process's RSS, and V8 heap plus external
// memory (typed arrays), each against the same process before the first record.
import { createMemoryStorage } from '@evcal/memory';
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import { parseArgs } from 'node:util';
import { chunkCount, ensureRecords, loadEventChunk, loadReferences } from './lib/records.mjs';

const { values: opts } = parseArgs({ options: { n: { type: 'string' }, out: { type: 'string' } } });
const n = Number(opts.n);
const log = (m) => process.stderr.write(`[memory ${n}] ${m}\n`);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

const settle = () => {
  for (let i = 0; i < 6; i++) globalThis.gc();
};
const usage = async () => {
  settle();
  // Let V8's memory reducer return freed pages (it runs on idle timers), then collect again.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  settle();
  const m = process.memoryUsage();
  const h = v8.getHeapStatistics();
  return { rss: m.rss, heap: m.heapUsed, external: m.external, heapCommitted: h.total_heap_size };
};

await ensureRecords(n, log);
const refs = loadReferences(n);
const storage = createMemoryStorage();
await storage.transaction(async (tx) => {
  for (const t of refs.categories) await tx.categories.insert(t);
  for (const t of refs.tags) await tx.tags.insert(t);
  for (const v of refs.venues) await tx.venues.insert(v);
  for (const o of refs.organizers) await tx.organizers.insert(o);
});
const before = await usage();

for (let i = 0; i < chunkCount(n); i++) {
  let chunk = loadEventChunk(n, i);
  await storage.transaction(async (tx) => {
    for (const e of chunk) await tx.events.insert(e);
  });
  chunk = undefined;
  settle();
}
const loaded = await usage();

// The indexes are built by the first list; the folded search texts by the first search.
const query = {
  statuses: ['publish'], excludeHidden: true, start: { gte: Date.UTC(2030, 5, 30) },
  sort: [{ field: 'startLocal', direction: 'asc' }, { field: 'id', direction: 'asc' }], limit: 10, offset: 0,
};
await storage.events.list(query);
const indexed = await usage();
await storage.events.list({ ...query, start: undefined, search: ['zzzz'] });
const searched = await usage();

const per = (m) => ({
  rssBytesPerEvent: (m.rss - before.rss) / n,
  heapBytesPerEvent: (m.heap + m.external - before.heap - before.external) / n,
  rssMB: m.rss / 1e6,
  heapCommittedMB: m.heapCommitted / 1e6,
  heapUsedMB: m.heap / 1e6,
});
const result = {
  n,
  before: { rssMB: before.rss / 1e6, heapMB: before.heap / 1e6 },
  loaded: per(loaded),
  indexed: per(indexed),
  searched: per(searched),
};
log(`records loaded:        ${result.loaded.rssBytesPerEvent.toFixed(0)} B/event RSS, ${result.loaded.heapBytesPerEvent.toFixed(0)} B/event heap (RSS ${result.loaded.rssMB.toFixed(0)} MB)`);
log(`+ list indexes built:  ${result.indexed.rssBytesPerEvent.toFixed(0)} B/event RSS, ${result.indexed.heapBytesPerEvent.toFixed(0)} B/event heap (RSS ${result.indexed.rssMB.toFixed(0)} MB)`);
log(`+ search texts folded: ${result.searched.rssBytesPerEvent.toFixed(0)} B/event RSS, ${result.searched.heapBytesPerEvent.toFixed(0)} B/event heap (RSS ${result.searched.rssMB.toFixed(0)} MB)`);
await storage.close();
if (opts.out) writeFileSync(opts.out, JSON.stringify(result, null, 2));
else console.log(JSON.stringify(result));
