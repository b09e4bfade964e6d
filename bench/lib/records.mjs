// Stored records for the benchmark datasets, built by core's own import (the same validation
// and write rules as the create routes) and cached in bench/.cache as encoded datasets (the
// lossless codec of @evcal/core), in chunks of CHUNK events so that 1M events never sit in
// one string. Chunks are built on worker threads, one per core.
import { createCalendar, decodeDataset, encodeDataset } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { BENCH_NOW_MS, REPLICA_BASE, generateEvents, generateReferences, isReplicated, recurringShare } from './dataset.mjs';

export const CACHE = join(dirname(fileURLToPath(import.meta.url)), '..', '.cache');
/** Bump when the generator changes, so stale caches are not reused. */
export const GENERATOR_VERSION = 3;
export const CHUNK = 10_000;

/** The dataset's key: its size, and the share of series (`--recurring`). */
export const datasetKey = (n) => `n${n}${recurringShare() > 0 ? `-r${recurringShare()}` : ''}`;
const dirOf = (n) => join(CACHE, `records-v${GENERATOR_VERSION}-c${CHUNK}-${datasetKey(n)}`);
const chunkFile = (n, i) => join(dirOf(n), `events-${String(i).padStart(3, '0')}.json`);
const refsFile = (n) => join(dirOf(n), 'references.json');
export const chunkCount = (n) => Math.ceil(n / CHUNK);

/** Imports the references and events [from, to) of a calendar of N events; returns encoded events. */
async function buildChunk(n, from, to) {
  const storage = createMemoryStorage();
  const calendar = createCalendar({ storage, timezone: 'UTC', now: () => BENCH_NOW_MS });
  await calendar.importDataset({ ...generateReferences(n), events: generateEvents(n, from, to) });
  const encoded = encodeDataset(storage.snapshot());
  await storage.close();
  return encoded;
}

/**
 * Makes sure every chunk of a calendar of N events is cached; `log` reports progress.
 *
 * A calendar of a multiple of REPLICA_BASE events above it (1M) is made of copies of the
 * REPLICA_BASE calendar: copy r of event id k is event k + r·REPLICA_BASE with the slug made
 * the same way from the new id (and the same categories, tags, venues and organizers). Each
 * copy is exactly the record core's import stores for that event with that id and slug; only
 * the time to build them differs (core's import costs about 1 ms per event here, mostly time
 * zone arithmetic: 1M events would take 10 to 60 minutes, depending on the machine's load).
 * EVCAL_BENCH_FULL_IMPORT=1 builds them through the import instead.
 */
export async function ensureRecords(n, log = () => {}) {
  mkdirSync(dirOf(n), { recursive: true });
  if (isReplicated(n)) return replicate(n, log);
  const missing = [];
  for (let i = 0; i < chunkCount(n); i++) if (!existsSync(chunkFile(n, i))) missing.push(i);
  if (!existsSync(refsFile(n)) && !missing.includes(0)) missing.unshift(0);
  if (missing.length === 0) return;
  const t0 = performance.now();
  log(`building records for ${n} events through core's import (${missing.length} chunk(s) of up to ${CHUNK}; cached in ${dirOf(n)})`);
  const queue = [...missing];
  const workers = Math.min(availableParallelism(), queue.length);
  await Promise.all(Array.from({ length: workers }, async () => {
    while (queue.length) {
      const i = queue.shift();
      await new Promise((resolve, reject) => {
        const w = new Worker(fileURLToPath(import.meta.url), { workerData: { n, i } });
        w.once('message', resolve);
        w.once('error', reject);
        w.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`records worker exited with ${code}`))));
      });
      log(`  chunk ${i + 1}/${chunkCount(n)} done (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  }));
}

async function replicate(n, log) {
  // Copies would need their occurrence ids made anew: series are generated up to REPLICA_BASE events.
  if (recurringShare() > 0) throw new Error(`--recurring works with up to ${REPLICA_BASE} events`);
  const base = REPLICA_BASE;
  const perCopy = chunkCount(base);
  const missing = [];
  for (let i = 0; i < chunkCount(n); i++) if (!existsSync(chunkFile(n, i))) missing.push(i);
  if (missing.length === 0 && existsSync(refsFile(n))) return;
  await ensureRecords(base, log);
  log(`building records for ${n} events as ${n / base} copies of the ${base}-event calendar (cached in ${dirOf(n)})`);
  writeAtomic(refsFile(n), readFileSync(refsFile(base), 'utf8'));
  for (const i of missing) {
    const copy = Math.floor(i / perCopy);
    const events = JSON.parse(readFileSync(chunkFile(base, i % perCopy), 'utf8'));
    for (const e of events) {
      const id = e.id + copy * base;
      // Slugs end with the id (trashed events then carry "__trashed"); drafts may have none.
      const m = /^(.*-)(\d+)(__trashed)?$/.exec(e.slug ?? '');
      if (m && Number(m[2]) === e.id) e.slug = `${m[1]}${id}${m[3] ?? ''}`;
      else if (e.slug) throw new Error(`unexpected slug ${e.slug} for event ${e.id}`);
      e.id = id;
    }
    writeAtomic(chunkFile(n, i), JSON.stringify(events));
  }
}

function writeAtomic(file, text) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** The references (categories, tags, venues, organizers) as stored records. */
export function loadReferences(n) {
  const { categories, tags, venues, organizers } = decodeDataset(JSON.parse(readFileSync(refsFile(n), 'utf8')));
  return { categories, tags, venues, organizers };
}

/** The stored events of chunk i. */
export function loadEventChunk(n, i) {
  return decodeDataset({ events: JSON.parse(readFileSync(chunkFile(n, i), 'utf8')) }).events;
}

/** Every record of a calendar of N events, as a memory snapshot (for N up to a few hundred thousand). */
export async function loadSnapshot(n, log) {
  await ensureRecords(n, log);
  const refs = loadReferences(n);
  const events = [];
  for (let i = 0; i < chunkCount(n); i++) for (const e of loadEventChunk(n, i)) events.push(e);
  // Occurrence ids (above 2^31) are not taken from the post sequence.
  const maxId = events.reduce((m, e) => (e.id > 2_147_483_647 ? m : Math.max(m, e.id)), 0);
  const maxTerm = Math.max(...refs.categories.map((t) => t.id), ...refs.tags.map((t) => t.id));
  const change = events.reduce((m, e) => Math.max(m, e.revision), 0);
  return { ...refs, events, sequences: { post: maxId, term: maxTerm, change } };
}

if (!isMainThread && workerData?.n !== undefined) {
  const { n, i } = workerData;
  const from = i * CHUNK;
  const to = Math.min(n, from + CHUNK);
  const encoded = await buildChunk(n, from, to);
  if (i === 0) {
    const { categories, tags, venues, organizers } = encoded;
    writeAtomic(refsFile(n), JSON.stringify({ categories, tags, venues, organizers }));
  }
  writeAtomic(chunkFile(n, i), JSON.stringify(encoded.events));
  parentPort.postMessage('done');
}
