// Authentication is pluggable: a function from the request to a principal, or none for an
// anonymous caller. Credentials that are present but do not authenticate are refused with
// 401 on every route, reads included (behaviour.md §10.11), never treated as anonymous.
import { CalendarError, msg, verbatim, type Principal } from '@evcal/core';

/**
 * Who sent the request: a principal, or undefined for anonymous. Throw `invalidCredentials()`
 * when credentials were sent but are not valid.
 */
export type Authenticate = (request: Request) => Principal | undefined | Promise<Principal | undefined>;

/** The error an `Authenticate` throws for credentials that do not authenticate; a custom message is sent as given. */
export function invalidCredentials(message?: string): CalendarError {
  return new CalendarError('invalid_credentials', message === undefined ? msg('The provided credentials are not valid.') : verbatim(message));
}

/**
 * Bearer-token authentication over a fixed table: `Authorization: Bearer <token>` acts as
 * that token's principal; no Authorization header is anonymous; anything else is 401.
 */
export function bearerTokens(tokens: ReadonlyMap<string, Principal> | Readonly<Record<string, Principal>>): Authenticate {
  const table = tokens instanceof Map ? tokens : new Map(Object.entries(tokens));
  return (request) => {
    const header = request.headers.get('authorization');
    if (header === null) return undefined;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const principal = m ? table.get(m[1]!) : undefined;
    if (!principal) throw new CalendarError('invalid_credentials', msg('The provided bearer token is not valid.'));
    return principal;
  };
}
