// A dataset import committed in chunks (ImportOptions.chunks): a transaction of its own for every
// so many records or milliseconds, so that other writers never wait long behind an import
// (docs/datasets.md). Each chunk commits, with its records, a marker saying how far the import
// has come; an import that stopped part-way (killed, a lost connection) and is run again with
// the same dataset skips what was committed and goes on from there, so it ends with the same
// calendar, records without ids included, and no duplicates. The import's last chunk removes the
// marker: importing a dataset once more afterwards is a new import, as it has always been.
import { hash } from '../kernel/validators';
import type { Storage, StorageTransaction } from '../storage/storage';

/** How big a chunk grows before it commits. */
export interface ImportChunks {
  /** Records (a series with its exceptions counts once). @default 500 */
  readonly records?: number;
  /** Milliseconds of writing. @default 200 */
  readonly ms?: number;
}

/** The idempotency scope of import markers: no caller's (`user:<id>`, `anonymous`). */
const SCOPE = 'evcal:import';
/** How long a marker waits for an import to be run again. */
const KEPT_MS = 30 * 86_400_000;

/** One dataset's chunks: where a run starts, and the marker each chunk commits. */
export interface ChunkedImport {
  /** The number of units committed by an earlier run of this dataset (0: none). */
  readonly resumeAt: number;
  /** Whether the chunk that has written units [from, to) should commit now. */
  full(from: number, to: number, startedAt: number): boolean;
  /** Inside the chunk's transaction: records how far the import has come, or (at the end) removes the marker. */
  committing(tx: StorageTransaction, next: number): Promise<void>;
}

/**
 * The chunks of an import of `units` (each one's JSON, in import order) into `storage`: the
 * marker is keyed by a digest of the whole dataset, so only a run of the same dataset resumes.
 */
export async function chunkedImport(storage: Storage, units: readonly string[], chunks: ImportChunks, now: () => number): Promise<ChunkedImport> {
  let digest = String(units.length);
  for (const unit of units) digest = hash(`${digest}\u0000${unit}`);
  const key = `dataset:${digest}`;
  const kept = await storage.idempotency.get(SCOPE, key);
  const position = kept ? Number(kept.answer) : 0;
  const records = chunks.records ?? 500;
  const ms = chunks.ms ?? 200;
  return {
    resumeAt: Number.isInteger(position) && position > 0 && position < units.length ? position : 0,
    full: (from, to, startedAt) => to - from >= records || Date.now() - startedAt >= ms,
    async committing(tx, next) {
      await tx.idempotency.delete(SCOPE, key);
      if (next >= units.length) return;
      const at = now();
      await tx.idempotency.insert({ scope: SCOPE, key, fingerprint: digest, answer: String(next), created: at, expires: at + KEPT_MS });
    },
  };
}
