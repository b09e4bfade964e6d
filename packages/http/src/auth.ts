// Authentication is pluggable: a function from the request to a principal, or none for an
// anonymous caller. Credentials that are present but do not authenticate are refused with
// 401 on every route, reads included (behaviour.md §10.11), never treated as anonymous.
import { CalendarError, msg, verbatim, type Principal } from '@evcal/core';
import type { HandlerRequest } from './handler-request';

/**
 * Who sent the request: a principal, or undefined for anonymous. Throw `invalidCredentials()`
 * when credentials were sent but are not valid.
 */
export type Authenticate = (request: HandlerRequest) => Principal | undefined | Promise<Principal | undefined>;

/** The error an `Authenticate` throws for credentials that do not authenticate; a custom message is sent as given. */
export function invalidCredentials(message?: string): CalendarError {
  return new CalendarError('invalid_credentials', message === undefined ? msg('The provided credentials are not valid.') : verbatim(message));
}

export interface BearerTokenOptions {
  /**
   * Also accept `Authorization: Basic <base64 of name:token>`, the form WordPress application
   * passwords take, so clients of the reference authenticate unchanged. The token is the
   * secret; the user name is not checked.
   * @default false
   */
  readonly basic?: boolean;
}

/**
 * Bearer-token authentication over a fixed table: `Authorization: Bearer <token>` acts as
 * that token's principal; no Authorization header is anonymous; anything else is 401.
 */
export function bearerTokens(
  tokens: ReadonlyMap<string, Principal> | Readonly<Record<string, Principal>>, options: BearerTokenOptions = {},
): Authenticate {
  const table = tokens instanceof Map ? tokens : new Map(Object.entries(tokens));
  return (request) => {
    const header = request.headers.get('authorization');
    if (header === null) return undefined;
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (bearer) {
      const principal = table.get(bearer[1]!);
      if (!principal) throw new CalendarError('invalid_credentials', msg('The provided bearer token is not valid.'));
      return principal;
    }
    const basic = options.basic ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
    const password = basic ? basicPassword(basic[1]!) : undefined;
    const principal = password === undefined ? undefined : table.get(password);
    if (!principal) throw new CalendarError('invalid_credentials', basic ? msg('The provided credentials are not valid.') : msg('The provided bearer token is not valid.'));
    return principal;
  };
}

/** The password of Basic credentials (`name:password`, base64); undefined when malformed. */
function basicPassword(encoded: string): string | undefined {
  let decoded: string;
  try {
    // atob and TextDecoder rather than Buffer: the handler runs on any web-standard runtime.
    decoded = new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}
