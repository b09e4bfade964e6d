// createAccounts: the users of a server and their API tokens, kept in the storage, so that
// every server sharing it sees a role change or a revoked token on its next request (nothing
// is cached between requests). Tokens are stored as SHA-256 hashes; the token itself is
// returned once, by `tokens.create`.
import * as v from 'valibot';
import { DEFAULT_ROLES, type Principal, type RoleTable } from '../auth/capabilities';
import type { TokenKind, TokenRecord, UserRecord } from '../model/accounts';
import { MAX_ID } from '../model/records';
import type { Storage } from '../storage/storage';
import { AccountError } from './account-error';
import {
  bearerTokenId, hashesEqual, newApplicationPassword, newBearerToken, newTokenId, normaliseApplicationPassword, sha256Hex,
} from './secrets';

export interface AccountsOptions {
  /** Where users and token hashes are kept. */
  readonly storage: Storage;
  /** The clock, for creation times and expiry. @default Date.now */
  readonly now?: () => number;
  /** The roles a user may have. @default DEFAULT_ROLES (WordPress's) */
  readonly roles?: RoleTable;
}

/** A user, by id (a number, or digits) or by name. */
export type UserRef = number | string;

export interface NewUser {
  readonly name: string;
  readonly role: string;
  /** @default one more than the largest id in use */
  readonly id?: number;
}

export interface NewToken {
  readonly user: UserRef;
  /** @default 'bearer' */
  readonly kind?: TokenKind;
  /** What it is for. @default '' */
  readonly label?: string;
  /** When it stops working, epoch milliseconds. @default never */
  readonly expires?: number | null;
}

export interface CreatedToken {
  /** The token (an application password in groups of four): shown once, stored nowhere. */
  readonly token: string;
  readonly record: TokenRecord;
  readonly user: UserRecord;
}

/** What Basic credentials with an application password come to. */
export type PasswordCheck =
  | { readonly ok: true; readonly principal: Principal }
  /** `unknown_user` / `unknown_email`: no user by that name (an email-like name is told apart, as WordPress does). */
  | { readonly ok: false; readonly reason: 'unknown_user' | 'unknown_email' | 'incorrect_password' };

export interface Accounts {
  readonly users: {
    /** Adds a user; the name must be free (compared case-insensitively). */
    add(input: NewUser): Promise<UserRecord>;
    list(): Promise<readonly UserRecord[]>;
    find(ref: UserRef): Promise<UserRecord | undefined>;
    setRole(ref: UserRef, role: string): Promise<UserRecord>;
    /** Removes a user and every token of theirs; their events keep their author id. */
    remove(ref: UserRef): Promise<{ readonly user: UserRecord; readonly tokens: number }>;
  };
  readonly tokens: {
    create(input: NewToken): Promise<CreatedToken>;
    /** Every token (of one user), without secrets: only hashes are kept. */
    list(user?: UserRef): Promise<readonly TokenRecord[]>;
    revoke(id: string): Promise<TokenRecord>;
  };
  /** The principal a bearer token acts as, or undefined when it is no live token of a user. */
  verifyBearer(token: string): Promise<Principal | undefined>;
  /** Checks HTTP Basic credentials: a user name and one of that user's application passwords. */
  verifyApplicationPassword(name: string, password: string): Promise<PasswordCheck>;
}

export function createAccounts(options: AccountsOptions): Accounts {
  const { storage } = options;
  const now = options.now ?? Date.now;
  const roles = options.roles ?? DEFAULT_ROLES;
  const roleOf = (role: string) => {
    if (!Object.hasOwn(roles, role)) throw new AccountError('invalid', `unknown role "${role}" (one of ${Object.keys(roles).join(', ')})`);
    return role;
  };
  const find = (s: Storage, ref: UserRef) => {
    const id = typeof ref === 'number' ? ref : /^\d+$/.test(ref) ? Number(ref) : undefined;
    return id === undefined ? s.users.getByName(String(ref)) : s.users.get(id);
  };
  const existing = async (s: Storage, ref: UserRef) => {
    const user = await find(s, ref);
    if (!user) throw new AccountError('not_found', `no user ${JSON.stringify(String(ref))}`);
    return user;
  };
  const live = (t: TokenRecord) => t.expires === null || t.expires > now();
  const principalOf = (user: UserRecord): Principal => ({ id: user.id, role: user.role });

  return {
    users: {
      add: (input) => storage.transaction(async (tx) => {
        const name = parse(nameSchema, input.name, 'the name');
        const role = roleOf(input.role);
        if (input.id !== undefined && !(Number.isInteger(input.id) && input.id >= 1 && input.id <= MAX_ID)) {
          throw new AccountError('invalid', `the id must be an integer between 1 and ${MAX_ID}, got ${input.id}`);
        }
        if (await tx.users.getByName(name)) throw new AccountError('exists', `a user named "${name}" exists`);
        let id = input.id;
        if (id === undefined) id = (await tx.users.list()).reduce((m, u) => Math.max(m, u.id), 0) + 1;
        else if (await tx.users.get(id)) throw new AccountError('exists', `a user with id ${id} exists`);
        const user: UserRecord = { id, name, role, created: now() };
        await tx.users.insert(user);
        return user;
      }),
      list: () => storage.users.list(),
      find: (ref) => find(storage, ref),
      setRole: (ref, role) => storage.transaction(async (tx) => {
        const user = await existing(tx, ref);
        const changed = { ...user, role: roleOf(role) };
        await tx.users.replace(changed);
        return changed;
      }),
      remove: (ref) => storage.transaction(async (tx) => {
        const user = await existing(tx, ref);
        const tokens = await tx.tokens.list(user.id);
        for (const t of tokens) await tx.tokens.delete(t.id);
        await tx.users.delete(user.id);
        return { user, tokens: tokens.length };
      }),
    },
    tokens: {
      create: (input) => storage.transaction(async (tx) => {
        const user = await existing(tx, input.user);
        const kind = input.kind ?? 'bearer';
        const label = parse(labelSchema, input.label ?? '', 'the label');
        const expires = input.expires ?? null;
        if (expires !== null && !(Number.isFinite(expires) && expires > now())) throw new AccountError('invalid', 'the expiry must be in the future');
        let id = newTokenId();
        while (await tx.tokens.get(id)) id = newTokenId();
        const token = kind === 'bearer' ? newBearerToken(id) : newApplicationPassword();
        const hash = await sha256Hex(kind === 'bearer' ? token : normaliseApplicationPassword(token));
        const record: TokenRecord = { id, userId: user.id, kind, label, hash, created: now(), expires };
        await tx.tokens.insert(record);
        return { token, record, user };
      }),
      list: async (ref) => (ref === undefined ? storage.tokens.list() : storage.tokens.list((await existing(storage, ref)).id)),
      revoke: (id) => storage.transaction(async (tx) => {
        const token = await tx.tokens.get(id);
        if (!token) throw new AccountError('not_found', `no token "${id}"`);
        await tx.tokens.delete(id);
        return token;
      }),
    },
    async verifyBearer(token) {
      const id = bearerTokenId(token);
      if (id === undefined) return undefined;
      const record = await storage.tokens.get(id);
      if (!record || record.kind !== 'bearer' || !hashesEqual(await sha256Hex(token), record.hash) || !live(record)) return undefined;
      const user = await storage.users.get(record.userId);
      return user ? principalOf(user) : undefined;
    },
    async verifyApplicationPassword(name, password) {
      const user = await storage.users.getByName(name);
      if (!user) return { ok: false, reason: EMAIL.test(name) ? 'unknown_email' : 'unknown_user' };
      const hash = await sha256Hex(normaliseApplicationPassword(password));
      // Every password of the user compared, none skipped once one matches.
      let matched = false;
      for (const t of await storage.tokens.list(user.id)) {
        if (t.kind === 'application-password' && hashesEqual(hash, t.hash) && live(t)) matched = true;
      }
      return matched ? { ok: true, principal: principalOf(user) } : { ok: false, reason: 'incorrect_password' };
    },
  };
}

// ---- helpers ----

/** Login names as WordPress's sanitize_user keeps them; not digits only, which would read as an id. */
const nameSchema = v.pipe(
  v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(60, 'must be at most 60 characters'),
  v.regex(/^[A-Za-z0-9 _.@-]+$/, 'may hold letters, digits, spaces and _ . @ - only'),
  v.check((s) => !/^\d+$/.test(s), 'must not be digits only (those name user ids)'),
);
const labelSchema = v.pipe(v.string(), v.trim(), v.maxLength(100, 'must be at most 100 characters'));
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function parse<S extends v.GenericSchema<unknown, string>>(schema: S, value: unknown, what: string): string {
  const result = v.safeParse(schema, value);
  if (!result.success) throw new AccountError('invalid', `${what} ${result.issues[0].message}`);
  return result.output;
}

