// The `status` filter of the event, venue and organizer lists (behaviour.md §2.1.5).
import type { PostKindPlural } from '../auth/capabilities';
import type { Permissions } from '../auth/capabilities';
import { arg } from '../input/args';
import { stringList } from '../input/wire-schemas';
import { POST_STATUSES, type PostKind, type PostStatus } from '../model/records';

/** What callers who may edit a kind see by default: every status but trash and auto-draft. */
export const EDITOR_STATUSES: readonly PostStatus[] = ['publish', 'future', 'draft', 'pending', 'private'];
export const PUBLIC_STATUSES: readonly PostStatus[] = ['publish'];

/**
 * A list of statuses. Callers who cannot edit the kind may ask for `publish` only; others for
 * any registered status (`any` is not one).
 */
export function statusFilterArg(kind: PostKind) {
  return arg({
    schema: stringList,
    description: 'The post status(es) to return, as a list or comma-separated string',
    validate: (statuses, ctx) => {
      if (statuses.length === 0) return 'Invalid parameter.';
      if (!canEditKind(ctx.permissions, kind)) return statuses.length === 1 && statuses[0] === 'publish' ? undefined : 'Invalid parameter.';
      return statuses.every((s) => (POST_STATUSES as readonly string[]).includes(s)) ? undefined : 'Invalid parameter.';
    },
  });
}

/** The statuses a list shows: those asked for, else the default for the caller. */
export function effectiveStatuses(permissions: Permissions, kind: PostKind, requested: readonly string[] | undefined): PostStatus[] {
  if (requested) return [...new Set(requested)] as PostStatus[];
  return [...(canEditKind(permissions, kind) ? EDITOR_STATUSES : PUBLIC_STATUSES)];
}

export function canEditKind(permissions: Permissions, kind: PostKind): boolean {
  return permissions.can(`edit_${kind}s` as `edit_${PostKindPlural}`);
}
