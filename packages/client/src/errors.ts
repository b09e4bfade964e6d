// The API's errors as values: every route answers a failure with the same JSON body
// (`{ code, message, data: { status } }`), typed from /doc's Error schema.
import type { components } from './generated/api';

/** An error as the API answers it: a stable `code`, a `message` in the address's language, the `data.status`. */
export type ApiError = components['schemas']['Error'];

/** What a call came to: its data, 304 (what you hold is current), or the API's error. */
export type Outcome<D> =
  | { readonly kind: 'ok'; readonly status: number; readonly data: D; readonly etag: string | undefined; readonly response: Response }
  | { readonly kind: 'not-modified'; readonly status: 304; readonly etag: string | undefined; readonly response: Response }
  | { readonly kind: 'error'; readonly status: number; readonly error: ApiError; readonly response: Response };

/**
 * One tagged value from what an `api` call resolved with:
 * `const r = outcome(await client.api.GET('/events/{id}', …)); if (r.kind === 'ok') r.data.title`.
 */
export function outcome<D>(result: { readonly data?: D; readonly error?: unknown; readonly response: Response }): Outcome<D> {
  const { response } = result;
  const etag = response.headers.get('etag') ?? undefined;
  if (response.status === 304) return { kind: 'not-modified', status: 304, etag, response };
  if (response.ok && 'data' in result && result.data !== undefined) return { kind: 'ok', status: response.status, data: result.data, etag, response };
  return { kind: 'error', status: response.status, error: asApiError(result.error, response), response };
}

/** A failed page of `pages()` / `all()`, which cannot answer a value mid-iteration. */
export class EvcalApiError extends Error {
  readonly status: number;
  constructor(readonly error: ApiError, readonly response: Response) {
    super(`${error.code}: ${error.message}`);
    this.name = 'EvcalApiError';
    this.status = response.status;
  }
}

/** Whether a value has the API error's shape. */
export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null
    && 'code' in value && typeof value.code === 'string'
    && 'message' in value && typeof value.message === 'string'
    && 'data' in value && typeof value.data === 'object' && value.data !== null;
}

/** The error body of a failed response (one that is not the API's, e.g. a proxy's page, becomes `evcal_client_unexpected_response`). */
export async function readError(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return asApiError(body, response);
}

function asApiError(body: unknown, response: Response): ApiError {
  if (isApiError(body)) return body;
  const text = typeof body === 'string' ? body.slice(0, 200) : '';
  return { code: 'evcal_client_unexpected_response', message: text || `HTTP ${response.status}`, data: { status: response.status } };
}
