// Where a request's parameters come from (behaviour reference: "Request pipeline"): JSON body (only
// with a JSON content type), form body, query string, path captures; the first non-null value wins.
import { msg } from '@evcal/core';
import type { HandlerRequest } from './handler-request';
import { TransportError } from './transport-errors';
import { parsePhpParams, type PhpParseLimits } from './php-params';

export interface ParamSources {
  readonly query: Record<string, unknown>;
  readonly body: Record<string, unknown>;
  readonly path: Readonly<Record<string, string>>;
}

/** WordPress's global parameters, read by the binding and never passed to operations. */
export const GLOBAL_PARAMS = ['_fields', '_envelope', '_method', '_embed', '_jsonp', '_locale'] as const;

/** The merged parameters: body over query over path. */
export function mergeParams(sources: ParamSources): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const source of [sources.path, sources.query, sources.body]) {
    // Skipped rather than deleted after: a deletion turns the object into a slow dictionary.
    for (const k in source) {
      const v = source[k];
      if (v !== null && v !== undefined && Object.hasOwn(source, k) && !GLOBAL_PARAM_SET.has(k)) out[k] = v;
    }
  }
  return out;
}

const GLOBAL_PARAM_SET: ReadonlySet<string> = new Set(GLOBAL_PARAMS);

export function queryParams(url: URL, limits?: PhpParseLimits): Record<string, unknown> {
  return parsePhpParams(url.searchParams, limits);
}

/**
 * The parameters of the body: JSON (an object: its members are the parameters), URL-encoded or
 * multipart form. Reads at most `maxBytes`. A JSON body that is not an object (`716`, `[1,2]`,
 * `null`) is refused: WordPress ignores it, and an update would then reset every field it
 * resets when omitted (docs/compatibility.md).
 */
export async function bodyParams(request: HandlerRequest, maxBytes: number, limits?: PhpParseLimits): Promise<Record<string, unknown>> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return {};
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readBytes(request, maxBytes);
  if (type.startsWith('multipart/form-data')) {
    // Parsed from the bytes already read, so the size cap holds for multipart bodies too.
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
    const pairs: [string, string][] = [];
    for (const [k, v] of form) if (typeof v === 'string') pairs.push([k, v]);
    return parsePhpParams(pairs, limits);
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (type.includes('json')) {
    if (text.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // PHP's json_last_error(): 4 is JSON_ERROR_SYNTAX.
      throw new TransportError('invalid_json', msg('Invalid JSON body passed.'), { jsonErrorCode: 4, jsonErrorMessage: msg('Syntax error') });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new TransportError('body_not_object', msg('The JSON body must be an object whose members are the parameters.'));
    }
    return parsed as Record<string, unknown>;
  }
  if (type.startsWith('application/x-www-form-urlencoded') || type === '') {
    return parsePhpParams(new URLSearchParams(text), limits);
  }
  return {};
}

/** The body's bytes, refusing more than `maxBytes`. */
async function readBytes(request: HandlerRequest, maxBytes: number): Promise<Uint8Array> {
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return concat(chunks, size);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): TransportError {
  return new TransportError('payload_too_large', msg('The request body is larger than {limit} bytes.', { limit: maxBytes }), { limit: maxBytes });
}
