// Password protection (behaviour reference: "Password-protected content (redaction)") and the
// explicit publish dates of a write.
import type { PostKind, PostRecord } from '../model/records';
import { formatUtc, formatWall, parseWall } from '../time/wall-clock';
import { instantToWall, wallToInstant, type Zone } from '../time/zone';
import type { Call } from '../kernel/call';

/** What unlocks protected content for a caller: the password, or edit rights with `context=edit`. */
export interface Unlock {
  readonly password?: string | undefined;
  readonly context?: string | undefined;
}

/** Whether a protected post is shown in full to this caller. */
export function isUnlocked(call: Call, kind: PostKind, post: PostRecord, unlock: Unlock): boolean {
  if (post.password === '') return true;
  if (unlock.context === 'edit' && call.permissions.canEdit(kind, post)) return true;
  return unlock.password !== undefined && constantTimeEqual(unlock.password, post.password);
}

/**
 * The explicit publish dates of a write: `local` read as a wall clock in `localZone`, `utc` as
 * UTC; either one given alone determines the other.
 */
export function explicitDates(
  local: string | undefined, utc: string | undefined, localZone: Zone, site: Zone,
): { local?: string; utc?: string } {
  if (local !== undefined && utc === undefined) {
    return { local, utc: formatUtc(wallToInstant(parseWall(local)!, localZone)) };
  }
  if (utc !== undefined && local === undefined) {
    return { utc, local: formatWall(instantToWall(Date.parse(`${utc.replace(' ', 'T')}Z`), site)) };
  }
  return { ...(local !== undefined ? { local } : {}), ...(utc !== undefined ? { utc } : {}) };
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
