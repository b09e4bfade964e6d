// The change log and webhooks of a storage written as one document (the JSON file adapter),
// under the dataset's `evcal` metadata: `evcal.changes`. Datasets that are imported leave it
// alone (a change log belongs to the storage that wrote it).
import * as v from 'valibot';
import { POST_STATUSES } from '../model/records';
import { CHANGE_KINDS, type StoredChanges } from '../storage/change-store';

const int = v.pipe(v.number(), v.integer());
const ms = v.pipe(v.number(), v.integer());
const state = v.nullable(v.object({ status: v.picklist(POST_STATUSES), authorId: int }));

const entrySchema = v.object({
  change: int, seq: int, kind: v.picklist(CHANGE_KINDS), id: int,
  action: v.picklist(['created', 'updated', 'trashed', 'deleted']),
  revision: int, at: ms, before: state, after: state,
  occurrences: v.optional(v.object({ created: v.array(int), updated: v.array(int), trashed: v.array(int), deleted: v.array(int) })),
  series: v.optional(int),
});

const endpointSchema = v.object({
  id: v.string(), url: v.string(), secret: v.string(), types: v.array(v.string()), description: v.string(),
  enabled: v.boolean(), disabledReason: v.nullable(v.string()), created: ms, updated: ms,
});

const attemptsSchema = v.object({
  endpointId: v.string(), lastAttemptAt: ms, lastStatus: v.nullable(int), lastError: v.nullable(v.string()), consecutiveFailures: int,
});

const deliverySchema = v.object({
  endpointId: v.string(), change: int, seq: int, messageId: v.string(), recordKey: v.string(), type: v.string(), payload: v.string(),
  state: v.picklist(['pending', 'failed']), attempts: int, nextAttemptAt: ms, leasedUntil: v.nullable(ms),
  lastAttemptAt: v.nullable(ms), lastStatus: v.nullable(int), lastError: v.nullable(v.string()),
});

/** `evcal.changes` of a document. */
export const changesSchema = v.object({
  log: v.object({ id: v.pipe(v.string(), v.minLength(1)), prunedThrough: int }),
  entries: v.array(entrySchema),
  endpoints: v.array(endpointSchema),
  /** Absent in documents written before endpoints' attempts were kept. */
  endpointAttempts: v.optional(v.array(attemptsSchema)),
  deliveries: v.array(deliverySchema),
});

/**
 * `changes` as UTF-8 JSON pieces (the text of `{ log, endpoints, endpointAttempts, entries, deliveries }`); with a `cache`, each entry's and delivery's bytes are kept by
 * object (they are immutable once stored), so a rewrite after each change encodes only the new ones.
 */
export function changesJsonPieces(changes: StoredChanges, cache?: WeakMap<object, Uint8Array>): Uint8Array[] {
  const out: Uint8Array[] = [utf8.encode(`{"log":${JSON.stringify(changes.log)},"endpoints":${JSON.stringify(changes.endpoints)},`
    + `"endpointAttempts":${JSON.stringify(changes.endpointAttempts ?? [])},"entries":[`)];
  out.push(...jsonListPieces(changes.entries, cache));
  out.push(utf8.encode('],"deliveries":['));
  out.push(...jsonListPieces(changes.deliveries, cache));
  out.push(utf8.encode(']}'));
  return out;
}

/** The items of a JSON list (without its brackets) as UTF-8 pieces, each item's bytes kept by object in `cache`. */
export function jsonListPieces(items: readonly object[], cache?: WeakMap<object, Uint8Array>): Uint8Array[] {
  const out: Uint8Array[] = [];
  items.forEach((item, i) => {
    let bytes = cache?.get(item);
    if (bytes === undefined) {
      bytes = utf8.encode(JSON.stringify(item));
      cache?.set(item, bytes);
    }
    if (i > 0) out.push(COMMA);
    out.push(bytes);
  });
  return out;
}

const utf8 = new TextEncoder();
const COMMA = utf8.encode(',');
