// The `--user id:role:token` users of `evcal serve` (tests and demos): bearer tokens fixed at
// start, besides the accounts kept in the storage. Parsed here with the rules accounts follow
// (an id in range, a known role, a token that is not weak).
import { DEFAULT_ROLES, MAX_ID, type Principal } from '@evcal/core';
import { weakSecret } from '@evcal/http';
import type { ServeUser } from './serve-options';

/** Parses `id:role:token`. */
export function parseUser(spec: string): ServeUser {
  const m = /^(\d+):([a-z_]+):(\S+)$/.exec(spec);
  if (!m) throw new Error(`--user must be id:role:token, got "${spec}"`);
  if (Number(m[1]) < 1 || Number(m[1]) > MAX_ID) throw new Error(`--user ${spec}: the id must be between 1 and ${MAX_ID}`);
  const role = m[2]!;
  if (!(role in DEFAULT_ROLES)) throw new Error(`--user ${spec}: unknown role "${role}" (one of ${Object.keys(DEFAULT_ROLES).join(', ')})`);
  const weak = weakSecret(m[3]!);
  if (weak) throw new Error(`--user ${m[1]}:${role}:…: the token ${weak}`);
  return { id: Number(m[1]), role, token: m[3]! };
}

/** The principal a `--user` token stands for. */
export function principalOf(user: ServeUser): Principal {
  return { id: user.id, ...(user.role ? { role: user.role } : {}), ...(user.capabilities ? { capabilities: user.capabilities } : {}) };
}
