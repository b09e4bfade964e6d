// Authentication is pluggable: a function from the request to a principal, or none for an
// anonymous caller. Credentials that are present but do not authenticate are refused with
// 401 on every route, reads included (behaviour reference: "Credentials that do not authenticate"),
// never treated as anonymous.
import { CalendarError, msg, verbatim, type Accounts, type Principal } from '@evcal/core';
import type { HandlerRequest } from './handler-request';

/**
 * Who sent the request: a principal, or undefined for anonymous. Throw `invalidCredentials()`
 * when credentials were sent but are not valid.
 */
export type Authenticate = (request: HandlerRequest) => Principal | undefined | Promise<Principal | undefined>;

const ANONYMOUS_WITHOUT_AUTHORIZATION = Symbol('evcal: anonymous without an Authorization header');

/**
 * Declares that `authenticate` takes every request without an `Authorization` header as
 * anonymous, whatever else it carries (cookies, addresses, other headers). The handler may then
 * answer such a request's repeated, unchanged list with 304 from its validator alone, without
 * calling `authenticate` (see `createFetchHandler`). `bearerTokens` and `accountCredentials`
 * are declared so; wrap a function of your own only if it is true of it. Returns `authenticate`.
 */
export function anonymousWithoutAuthorization<A extends Authenticate>(authenticate: A): A {
  return Object.assign(authenticate, { [ANONYMOUS_WITHOUT_AUTHORIZATION]: true });
}

/** Whether every request without an `Authorization` header is anonymous to `authenticate` (none at all: every request is). */
export function isAnonymousWithoutAuthorization(authenticate: Authenticate | undefined): boolean {
  return authenticate === undefined || (authenticate as { [ANONYMOUS_WITHOUT_AUTHORIZATION]?: boolean })[ANONYMOUS_WITHOUT_AUTHORIZATION] === true;
}

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

type TokenTable = ReadonlyMap<string, Principal> | Readonly<Record<string, Principal>>;

/**
 * Bearer-token authentication over a fixed table: `Authorization: Bearer <token>` acts as
 * that token's principal; no Authorization header is anonymous; anything else is 401.
 *
 * Throws when a token is empty, shorter than MIN_SECRET_LENGTH or the text of a missing value
 * (`"undefined"`, `"null"`: what `{ [process.env.ADMIN_TOKEN!]: admin }` makes when the variable
 * is not set), naming the entry by its principal: a missing secret never becomes a credential.
 */
export function bearerTokens(tokens: TokenTable, options: BearerTokenOptions = {}): Authenticate {
  const table = tableOf(tokens, 'bearerTokens');
  return anonymousWithoutAuthorization((request: HandlerRequest) => {
    const credentials = credentialsOf(request);
    if (credentials === undefined) return undefined;
    if (credentials.scheme === 'bearer') return table.get(credentials.token) ?? refuse(credentials);
    if (credentials.scheme === 'basic' && options.basic) return table.get(credentials.password) ?? refuse(credentials);
    return refuse(options.basic ? credentials : { scheme: 'other' });
  });
}

export interface AccountCredentialsOptions {
  /**
   * Fixed tokens checked before the accounts (`evcal serve --user`), as `bearerTokens` with
   * `basic: true` takes them.
   * @default none
   */
  readonly tokens?: TokenTable;
}

/**
 * Authentication against accounts kept in the storage (core's `createAccounts`), read on
 * every request, so a revoked token or a changed role counts from the next request on, on
 * every server sharing the storage. `Authorization: Bearer <token>` with an API token, or
 * HTTP Basic with a user name and one of that user's application passwords, as the
 * reference's clients send WordPress application passwords; wrong Basic credentials are
 * refused as WordPress refuses them (401 `invalid_username`, `invalid_email` or
 * `incorrect_password`).
 */
export function accountCredentials(
  accounts: Pick<Accounts, 'verifyBearer' | 'verifyApplicationPassword'>, options: AccountCredentialsOptions = {},
): Authenticate {
  const table = tableOf(options.tokens ?? {}, 'accountCredentials tokens');
  return anonymousWithoutAuthorization(async (request: HandlerRequest) => {
    const credentials = credentialsOf(request);
    if (credentials === undefined) return undefined;
    if (credentials.scheme === 'bearer') {
      return table.get(credentials.token) ?? (await accounts.verifyBearer(credentials.token)) ?? refuse(credentials);
    }
    if (credentials.scheme !== 'basic') return refuse(credentials);
    const fixed = table.get(credentials.password);
    if (fixed) return fixed;
    const checked = await accounts.verifyApplicationPassword(credentials.name, credentials.password);
    if (checked.ok) return checked.principal;
    throw BASIC_REFUSALS[checked.reason]();
  });
}

// ---- helpers ----

type Credentials =
  | { readonly scheme: 'bearer'; readonly token: string }
  | { readonly scheme: 'basic'; readonly name: string; readonly password: string }
  /** Basic credentials that do not decode to `name:password`. */
  | { readonly scheme: 'malformed-basic' }
  | { readonly scheme: 'other' };

/** What the Authorization header holds; undefined without one. */
function credentialsOf(request: HandlerRequest): Credentials | undefined {
  const header = request.headers.get('authorization');
  if (header === null) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return { scheme: 'bearer', token: bearer[1]! };
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return { scheme: 'other' };
  const decoded = decodeBasic(basic[1]!);
  return decoded ?? { scheme: 'malformed-basic' };
}

/** `name:password` of Basic credentials (base64 of UTF-8); undefined when malformed. */
function decodeBasic(encoded: string): Credentials | undefined {
  let decoded: string;
  try {
    // atob and TextDecoder rather than Buffer: the handler runs on any web-standard runtime.
    decoded = new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { scheme: 'basic', name: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function refuse(credentials: Credentials): never {
  throw credentials.scheme === 'basic' || credentials.scheme === 'malformed-basic'
    ? invalidCredentials()
    : new CalendarError('invalid_credentials', msg('The provided bearer token is not valid.'));
}

/** WordPress's answers to Basic credentials that name no user, or none of the user's application passwords. */
const BASIC_REFUSALS = {
  unknown_user: () => new CalendarError('unknown_user', msg('<strong>Error</strong>: Unknown username. Check again or try your email address.')),
  unknown_email: () => new CalendarError('unknown_email', msg('<strong>Error</strong>: Unknown email address. Check again or try your username.')),
  incorrect_password: () => new CalendarError('incorrect_password', msg('The provided password is an invalid application password.')),
};

/** The fewest characters a fixed secret may have. */
export const MIN_SECRET_LENGTH = 8;

/** What a missing value becomes as an object key or in a template string. */
const MISSING_VALUES = new Set(['undefined', 'null', 'NaN', '[object Object]']);

/**
 * Why `secret` cannot be a credential, or undefined when it can: empty or blank, the text of a
 * missing value, or shorter than MIN_SECRET_LENGTH.
 */
export function weakSecret(secret: unknown): string | undefined {
  if (typeof secret !== 'string' || secret.trim() === '') return 'is empty';
  if (MISSING_VALUES.has(secret.trim())) return `is the text "${secret.trim()}" (a variable that is not set?)`;
  if (secret.length < MIN_SECRET_LENGTH) return `has ${secret.length} characters, fewer than ${MIN_SECRET_LENGTH}`;
  return undefined;
}

function tableOf(tokens: TokenTable, where: string): ReadonlyMap<string, Principal> {
  const table = tokens instanceof Map ? tokens : new Map(Object.entries(tokens));
  for (const [secret, principal] of table) {
    const weak = weakSecret(secret);
    // The entry is named by whom it stands for, never by its secret.
    if (weak) throw new TypeError(`${where}: the token of user ${principal.id}${principal.role ? ` (${principal.role})` : ''} ${weak}; refusing to use it as a credential`);
  }
  return table;
}
