// `Idempotency-Key` on writes (docs/http.md, "Retries"; the IETF httpapi draft, as Stripe
// does it): the key read from its header, the fingerprint of what a request asks, and the
// answer kept with the key and replayed. Core keeps the answer in the write's transaction and
// decides what a key answers (calendar.idempotent); this file only speaks HTTP.
import { parseItem } from 'structured-headers';
import { invalidIdempotencyKey } from '@evcal/core/binding';

/** Response header of a replayed answer (Stripe's). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The key a request sends: undefined without the header. The draft's form is a Structured
 * Field string (`Idempotency-Key: "8e03978e-…"`); the bare form Stripe's clients send
 * (`Idempotency-Key: 8e03978e-…`) is taken as the key itself. Either way the key is 1 to 255
 * printable ASCII characters (core checks the length and characters); a quoted value that is
 * not a valid string, or a bare one with quotes, commas or spaces in it, is refused.
 */
export function idempotencyKeyOf(header: string | null): string | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (value.startsWith('"')) {
    let item: ReturnType<typeof parseItem>;
    try {
      item = parseItem(value);
    } catch {
      throw invalidIdempotencyKey();
    }
    // Parameters after the string (`"k";a=1`) are allowed by Structured Fields and mean nothing here.
    if (typeof item[0] !== 'string') throw invalidIdempotencyKey();
    return item[0];
  }
  if (!/^[\x21-\x7e]+$/.test(value) || /["\\,;]/.test(value)) throw invalidIdempotencyKey();
  return value;
}

/**
 * What a request asks, as a key's fingerprint: its method, its address as served (the path,
 * base path and namespace included, and the query: another language's address is another
 * request; the host is not part of it, so a retry through another host name of the same
 * servers is the same request) and its body.
 * Bodies are compared as the parameters they parse to, in canonical JSON (object keys sorted,
 * no white space): key order and formatting do not matter; names, values and their types do.
 * A SHA-256 digest, so the storage keeps 64 characters whatever the body.
 */
export async function requestFingerprint(method: string, address: string, body: Readonly<Record<string, unknown>>): Promise<string> {
  const text = JSON.stringify([method, address, canonicalJson(body)]);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** An answer as kept with a key: the status, the headers that belong to it (Location, ETag) and the JSON text of the body. */
export interface KeptAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export function keptAnswerText(answer: KeptAnswer): string {
  return JSON.stringify(answer);
}

export function keptAnswerOf(text: string): KeptAnswer {
  return JSON.parse(text) as KeptAnswer;
}

/** A value's JSON text with every object's keys in code-unit order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
