// The accounts section of a stored calendar document (the JSON file adapter writes one):
// users, and tokens as their hashes. Exports and imports of datasets leave it out; it is how
// a storage that is one file keeps its accounts.
import * as v from 'valibot';
import { TOKEN_KINDS, type TokenRecord, type UserRecord } from '../model/accounts';

export interface AccountSet {
  readonly users?: readonly UserRecord[];
  readonly tokens?: readonly TokenRecord[];
}

/** The `accounts` section, or undefined when there are no accounts (a plain dataset). */
export function encodeAccounts(records: AccountSet): Record<string, unknown> | undefined {
  const users = records.users ?? [];
  const tokens = records.tokens ?? [];
  if (users.length === 0 && tokens.length === 0) return undefined;
  return {
    users: [...users].sort((a, b) => a.id - b.id).map((u) => ({ id: u.id, name: u.name, role: u.role, created: iso(u.created) })),
    tokens: [...tokens].sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1)).map((t) => ({
      id: t.id, user: t.userId, kind: t.kind, label: t.label, sha256: t.hash, created: iso(t.created), expires: t.expires === null ? null : iso(t.expires),
    })),
  };
}

/** Reads what `encodeAccounts` wrote; the issue's path and message when it is not that. */
export function decodeAccounts(raw: unknown): { ok: true; value: Required<AccountSet> } | { ok: false; path: string; message: string } {
  const result = v.safeParse(accountsSchema, raw);
  if (!result.success) {
    const issue = result.issues[0];
    return { ok: false, path: ['accounts', ...(issue.path ?? []).map((p) => String(p.key))].join('.'), message: issue.message };
  }
  return {
    ok: true,
    value: {
      users: result.output.users.map((u) => ({ id: u.id, name: u.name, role: u.role, created: Date.parse(u.created) })),
      tokens: result.output.tokens.map((t) => ({
        id: t.id, userId: t.user, kind: t.kind, label: t.label, hash: t.sha256, created: Date.parse(t.created),
        expires: t.expires === null ? null : Date.parse(t.expires),
      })),
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const instant = v.pipe(v.string(), v.isoTimestamp());
const accountsSchema = v.object({
  users: v.optional(v.array(v.object({ id: v.pipe(v.number(), v.integer(), v.minValue(1)), name: v.string(), role: v.string(), created: instant })), []),
  tokens: v.optional(v.array(v.object({
    id: v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/)),
    user: v.pipe(v.number(), v.integer(), v.minValue(1)),
    kind: v.picklist(TOKEN_KINDS),
    label: v.optional(v.string(), ''),
    sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
    created: instant,
    expires: v.nullable(instant),
  })), []),
});
