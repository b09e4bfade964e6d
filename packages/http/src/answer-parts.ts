// The parts of an answer that createFetchHandler assembles (fetch-handler.ts): the headers every
// JSON answer carries, a 304, Vary, a list's totals and Link, where a created resource is,
// `_fields`, the `_envelope` form, and a kept idempotent answer sent again.
import { jsonBody, textBody, type WireResponse } from './wire-response';
import { REPLAYED_HEADER, type KeptAnswer } from './idempotency-keys';

export const BASE_HEADERS = {
  'content-type': 'application/json; charset=UTF-8',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex',
  // Sent on every response, as the reference does (it lists only the X-WP-* totals).
  'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, Link, ETag',
};

/** A 304: no body, and the validator and caching headers a 200 would carry (RFC 9110 §15.4.5). */
export function notModified(etag: string, caching: Record<string, string>, common: Record<string, string>): WireResponse {
  const headers = Object.assign({}, common, caching);
  headers.etag = etag;
  return { status: 304, headers, body: null };
}

/** `Vary`: the CORS origin when it selects the headers, the credentials when they select the body, and `Accept` where it selects JSON or iCalendar. */
export function vary(cors: string | undefined, authenticated: boolean, negotiated = false): string | undefined {
  let out = cors ?? '';
  if (authenticated) out = out ? `${out}, Authorization` : 'Authorization';
  if (negotiated) out = out ? `${out}, Accept` : 'Accept';
  return out || undefined;
}

/** X-TEC-* totals and an RFC 8288 Link header with the next and previous pages. */
export function listHeaders(list: { total: number; totalPages: number; next?: string; previous?: string }): Record<string, string> {
  const links = [list.next && `<${list.next}>; rel="next"`, list.previous && `<${list.previous}>; rel="prev"`].filter(Boolean);
  const headers: Record<string, string> = { 'x-tec-total': String(list.total), 'x-tec-totalpages': String(list.totalPages) };
  if (links.length) headers.link = links.join(', ');
  return headers;
}

/** The address of a created resource under its collection's address, by its `id` (a webhook endpoint). */
export function idUrl(collection: string, body: object): string | undefined {
  if (!('id' in body) || (typeof body.id !== 'string' && typeof body.id !== 'number')) return undefined;
  return `${collection}/${encodeURIComponent(String(body.id))}`;
}

/** The address of a created resource in the API (`urls.self` of a term). */
export function selfUrl(body: object): string | undefined {
  if (!('urls' in body) || typeof body.urls !== 'object' || body.urls === null) return undefined;
  return 'self' in body.urls && typeof body.urls.self === 'string' ? body.urls.self : undefined;
}

/** `_fields=a,b.c`: only those keys (nested with dots), on each item of a list body. */
export function pickFields(body: unknown, fields: string): unknown {
  if (typeof body !== 'object' || body === null || 'code' in (body as object)) return body;
  const wanted = fields.split(',').map((f) => f.trim()).filter(Boolean);
  const pick = (obj: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const f of wanted) {
      const [head, ...rest] = f.split('.');
      if (!(head! in obj)) continue;
      const value = obj[head!];
      out[head!] = rest.length && value && typeof value === 'object' && !Array.isArray(value)
        ? { ...(out[head!] as object), ...(pick(value as Record<string, unknown>) as object) }
        : value;
    }
    return out;
  };
  return Array.isArray(body) ? body.map((x) => pick(x as Record<string, unknown>)) : pick(body as Record<string, unknown>);
}

/**
 * A write's answer kept with its idempotency key, sent again: its status, headers and body as
 * they were (in the language and at the addresses of the first request, which the key's
 * fingerprint holds), this response's own CORS headers, and `Idempotent-Replayed: true`.
 */
export function replay(kept: KeptAnswer, common: Record<string, string>, mode: { head: boolean; envelope: boolean }): WireResponse {
  const headers = Object.assign({}, kept.headers, { [REPLAYED_HEADER]: 'true' });
  if (mode.envelope) return respond(kept.status, JSON.parse(kept.body) as unknown, common, headers, mode);
  return { status: kept.status, headers: Object.assign({}, BASE_HEADERS, common, headers), body: mode.head ? null : textBody(kept.body) };
}

/** `common` headers go on the HTTP response itself, also when `_envelope` wraps the rest in the body. */
export function respond(
  status: number, body: unknown, common: Record<string, string>, headers: Record<string, string>, mode: { head: boolean; envelope: boolean },
): WireResponse {
  if (mode.envelope) {
    return { status: 200, headers: { ...BASE_HEADERS, ...common }, body: jsonBody({ body, status, headers }) };
  }
  return { status, headers: Object.assign({}, BASE_HEADERS, common, headers), body: mode.head ? null : jsonBody(body) };
}
