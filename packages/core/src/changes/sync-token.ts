// Sync tokens: where a reader of the change log stands, with the identity of the log, so that
// a token of another calendar (or of this one before its storage was replaced) is recognised.
// Opaque to clients: base64url of a versioned text.
import type { ChangePosition } from '../storage/change-store';

export interface SyncToken extends ChangePosition {
  readonly logId: string;
}

export function encodeSyncToken(token: SyncToken): string {
  const text = `1.${token.logId}.${token.change}.${token.seq}`;
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The token's parts; undefined when it is not a token this version wrote. */
export function decodeSyncToken(token: string): SyncToken | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(token)) return undefined;
  let text: string;
  try {
    text = atob(token.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const m = /^1\.([A-Za-z0-9-]{1,64})\.(\d{1,15})\.(\d{1,9})$/.exec(text);
  if (!m) return undefined;
  return { logId: m[1]!, change: Number(m[2]), seq: Number(m[3]) };
}
