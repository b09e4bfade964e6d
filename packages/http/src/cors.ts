// Cross-origin requests: off unless allowed origins are configured. Allowed origins get the
// CORS headers on every response and an answer to their preflight requests.

export interface CorsOptions {
  /** Origins allowed to call the API: a list (`https://app.example`), `'*'` for any, or a predicate. */
  readonly origins: readonly string[] | '*' | ((origin: string) => boolean);
  /** Allow cookies and `Authorization` on cross-origin requests (never with `'*'`). @default false */
  readonly credentials?: boolean;
  /** How long browsers may cache a preflight answer, in seconds. @default 600 */
  readonly maxAge?: number;
}

const ALLOWED_HEADERS = 'Authorization, Content-Type, X-HTTP-Method-Override, X-WP-Nonce, Content-Disposition, Content-MD5, If-Match, If-None-Match, Idempotency-Key';
const EXPOSED_HEADERS = 'X-TEC-Total, X-TEC-TotalPages, X-WP-Total, X-WP-TotalPages, Link, Content-Language, Retry-After, ETag, Idempotent-Replayed';

/** The CORS headers for a request's origin; none when the origin is not allowed (or there is none). */
export function corsHeaders(cors: CorsOptions | undefined, origin: string | null): Record<string, string> {
  if (!cors || origin === null || !allowed(cors, origin)) return {};
  const any = cors.origins === '*' && !cors.credentials;
  return {
    'access-control-allow-origin': any ? '*' : origin,
    ...(any ? {} : { vary: 'Origin' }),
    ...(cors.credentials ? { 'access-control-allow-credentials': 'true' } : {}),
    'access-control-expose-headers': EXPOSED_HEADERS,
  };
}

/** The answer to a preflight request (`OPTIONS` with `Access-Control-Request-Method`). */
export function preflightHeaders(cors: CorsOptions | undefined, origin: string | null, methods: readonly string[]): Record<string, string> {
  const base = corsHeaders(cors, origin);
  if (Object.keys(base).length === 0) return {};
  return {
    ...base,
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': String(cors!.maxAge ?? 600),
  };
}

function allowed(cors: CorsOptions, origin: string): boolean {
  if (cors.origins === '*') return true;
  if (typeof cors.origins === 'function') return cors.origins(origin);
  return cors.origins.includes(origin);
}
