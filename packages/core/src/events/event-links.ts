// The `venue` and `organizer` values of an event write (behaviour reference: "Linking venues and
// organizers from an event"): ids, `{id}` objects, inline data that creates (or reuses) a record,
// lists of those, or an empty value.
import type { Message } from '../domain/messages';
import { INVALID_PARAMETER } from '../domain/errors';
import * as v from 'valibot';
import { parseArgs, type ArgContext, type WireArgs } from '../kernel/args';
import { splitList, toPositiveInt } from '../kernel/wire-schemas';
import type { LinkedPostKind } from '../query/linked-post-engine';
import { remember } from '../kernel/arg-memo';
import { linkedPostWriteArgs } from '../linked-posts/linked-post-args';

export type LinkedRef =
  | { readonly id: number }
  /** Inline venue or organizer data to create one (or reuse a duplicate). */
  | { readonly data: WireArgs };

export type LinkedValue = { readonly kind: 'empty' } | { readonly kind: 'refs'; readonly refs: readonly LinkedRef[] };

/**
 * Accepts an id (number or numeric string), a comma-separated list of ids, an object with
 * `id` or with record fields, or a list of those; `null`, "", 0 and empty lists are "empty".
 */
export const linkedValueSchema = v.pipe(
  v.union([v.number(), v.string(), v.array(v.unknown()), v.record(v.string(), v.unknown())]),
  v.transform((x): LinkedValue | undefined => normaliseLinkedValue(x)),
  v.check((x) => x !== undefined),
  v.transform((x): LinkedValue => x!),
);

/** Validation: ids must name existing records of the kind; inline data must pass the create rules. */
export function validateLinkedValue(kind: LinkedPostKind) {
  return async (value: LinkedValue, ctx: ArgContext): Promise<Message | undefined> => {
    if (value.kind === 'empty') return undefined;
    const collection = kind === 'venue' ? ctx.storage.venues : ctx.storage.organizers;
    const ids = value.refs.flatMap((ref) => ('id' in ref ? [ref.id] : []));
    const records = ids.length ? await collection.getMany(ids) : [];
    remember(ctx.memo, kind, records);
    const existing = new Set(records.map((r) => r.id));
    for (const ref of value.refs) {
      if ('id' in ref) {
        if (!existing.has(ref.id)) return INVALID_PARAMETER;
        continue;
      }
      try {
        await parseArgs(linkedPostWriteArgs(kind, 'create'), ref.data, ctx);
      } catch {
        return INVALID_PARAMETER;
      }
    }
    return undefined;
  };
}

// ---- helpers ----

function isEmptyScalar(x: unknown): boolean {
  return x === null || x === undefined || x === '' || x === 0 || x === '0' || x === false;
}

function normaliseLinkedValue(x: unknown): LinkedValue | undefined {
  if (isEmptyScalar(x)) return { kind: 'empty' };
  if (typeof x === 'number' || typeof x === 'string') {
    const parts = splitList(String(x));
    if (parts.length === 0) return { kind: 'empty' };
    const ids = parts.map(toPositiveInt);
    return ids.every((id) => id !== undefined) ? { kind: 'refs', refs: ids.map((id) => ({ id: id! })) } : undefined;
  }
  if (Array.isArray(x)) {
    const items = x.filter((item) => !isEmptyScalar(item) && !(Array.isArray(item) && item.length === 0));
    if (items.length === 0) return { kind: 'empty' };
    const refs: LinkedRef[] = [];
    for (const item of items) {
      const ref = isRecord(item)
        ? objectRef(item)
        : typeof item === 'number' || typeof item === 'string' ? idRef(item) : undefined;
      if (!ref) return undefined;
      refs.push(ref);
    }
    return { kind: 'refs', refs };
  }
  if (isRecord(x)) {
    if (Object.keys(x).length === 0) return { kind: 'empty' };
    const ref = objectRef(x);
    return ref ? { kind: 'refs', refs: [ref] } : undefined;
  }
  return undefined;
}

/** A JSON object (not an array). */
function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function idRef(x: number | string): LinkedRef | undefined {
  const id = toPositiveInt(x);
  return id === undefined ? undefined : { id };
}

function objectRef(o: Record<string, unknown>): LinkedRef | undefined {
  if ('id' in o && !isEmptyScalar(o.id)) {
    return typeof o.id === 'number' || typeof o.id === 'string' ? idRef(o.id) : undefined;
  }
  return { data: o };
}
