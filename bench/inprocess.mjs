// In-process operation latency on one storage at one dataset size:
//   node bench/inprocess.mjs --storage memory|file-json|sqlite|postgres --n 100000 [--budget 3000] [--out result.json] [--recurring 0.1]
// The calendar runs in this process over the storage (no HTTP), as an embedding app calls it.
// Reads are anonymous (a visitor); writes are an administrator's. Lists are measured cold, on a
// calendar with every cache off (`renderCache: 0`: nothing parsed, read or rendered is kept),
// and cached (`…-cached`: the defaults, the same list asked again), reported side by side.
import { createCalendar } from '@evcal/core';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BENCH_NOW_MS, benchEvents, benchParams } from './lib/dataset.mjs';
import { fmtMs, sample } from './lib/measure.mjs';
import { OPENERS } from './lib/stores.mjs';

const { values: opts } = parseArgs({
  options: {
    storage: { type: 'string' }, n: { type: 'string' }, budget: { type: 'string', default: '3000' },
    out: { type: 'string' }, ops: { type: 'string' }, profile: { type: 'string' },
    // The share of events that are series (0.1: one in ten), stored with their occurrences.
    recurring: { type: 'string' },
  },
});
if (opts.recurring !== undefined) process.env.EVCAL_BENCH_RECURRING = opts.recurring;
const storageName = opts.storage;
const n = Number(opts.n);
const budgetMs = Number(opts.budget);
const log = (m) => process.stderr.write(`[${storageName} ${n}] ${m}\n`);

const t0 = performance.now();
const opened = await OPENERS[storageName](n, log);
const openMs = performance.now() - t0;
const calendar = createCalendar({ storage: opened.storage, timezone: 'UTC', now: () => BENCH_NOW_MS });
const cold = createCalendar({ storage: opened.storage, timezone: 'UTC', now: () => BENCH_NOW_MS, renderCache: 0 });
const admin = { principal: { id: 1, role: 'administrator' } };
const p = benchParams(n);

// Published event ids to read and update: from pages spread over the default list.
const readable = [];
for (const page of [1, 7, 23, 61, 150]) {
  const result = await calendar.events.list({ per_page: 50, page }).catch(() => undefined);
  for (const e of result?.body.events ?? []) readable.push(e.id);
}
if (readable.length === 0) throw new Error('no readable events');

let created = 0;
const newEvent = benchEvents(n);

const LISTS = {
  'list-default': {},
  'list-week': { ...p.week },
  'list-category': { categories: p.category },
  'list-week-category': { ...p.week, categories: p.category },
  'list-search': { search: p.search },
};
const OPS = {
  ...Object.fromEntries(Object.entries(LISTS).flatMap(([name, query]) => [
    [name, () => cold.events.list(query)],
    [`${name}-cached`, () => calendar.events.list(query)],
  ])),
  // What answering 304 to the same list costs: its validator (the change counter and the
  // normalised query); the list is not read and nothing is rendered.
  'list-default-304': () => calendar.events.planList({}),
  // The event as an object, as an app reads it (`value` is parsed from the kept text when asked for).
  read: async (i) => (await calendar.events.get({ id: readable[i % readable.length] })).value,
  create: () => calendar.events.create(newEvent(created++), admin),
  update: (i) => calendar.events.update({ id: readable[i % readable.length], ...newEvent(i), title: `Updated ${i}` }, admin),
};
const selected = opts.ops ? opts.ops.split(',') : Object.keys(OPS);

// One call of each first: a failing operation is a crash, not a number.
const totals = {};
const firstMs = {};
for (const name of selected) {
  const t = performance.now();
  const r = await OPS[name](0);
  firstMs[name] = performance.now() - t;
  if (r?.total !== undefined) totals[name] = r.total;
}

// --profile <file>: a V8 CPU profile of the measured calls only (not of loading the dataset).
let session;
if (opts.profile) {
  const { Session } = await import('node:inspector/promises');
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}

const results = {};
for (const name of selected) {
  // Operations that take seconds (scans of a million rows) get fewer samples, so that a full
  // run stays within its time; their p99 is then only the slowest of a few.
  const slow = firstMs[name] > 1000 ? 2 : firstMs[name] > 100 ? 1 : 0;
  const r = await sample((i) => OPS[name](i), {
    budgetMs,
    minSamples: [10, 5, 3][slow],
    warmup: [20, 2, 0][slow],
  });
  results[name] = { ...r, ...(totals[name] !== undefined ? { total: totals[name] } : {}) };
  log(`${name.padEnd(20)} p50 ${fmtMs(r.p50).padStart(9)}  p99 ${fmtMs(r.p99).padStart(9)}  cpu ${fmtMs(r.cpuMs).padStart(9)}  (${r.samples} samples${totals[name] !== undefined ? `, total ${totals[name]}` : ''})`);
}

if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(opts.profile, JSON.stringify(profile));
  session.disconnect();
}
await opened.close();
const out = { storage: storageName, n, openMs, firstMs, results };
if (opts.out) writeFileSync(opts.out, JSON.stringify(out, null, 2));
else console.log(JSON.stringify(out));
