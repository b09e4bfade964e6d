// The `status` filter of the event, venue and organizer lists (behaviour reference: "status parameter").
import { INVALID_PARAMETER } from '../domain/errors';
import type { PostKindPlural } from '../auth/capabilities';
import type { Permissions } from '../auth/capabilities';
import { arg } from '../kernel/args';
import { enumList } from '../kernel/wire-schemas';
import { POST_STATUSES, type PostKind, type PostStatus } from '../model/records';
import type { OwnedBy } from '../query/query-types';

/** What callers who may edit a kind see by default: every status but trash and auto-draft. */
export const EDITOR_STATUSES: readonly PostStatus[] = ['publish', 'future', 'draft', 'pending', 'private'];
export const PUBLIC_STATUSES: readonly PostStatus[] = ['publish'];
const PLURALS = { event: 'events', venue: 'venues', organizer: 'organizers' } as const satisfies Record<PostKind, PostKindPlural>;

/**
 * A list of statuses. Callers who cannot edit the kind may ask for `publish` only; others for
 * any registered status (`any` is not one).
 */
export function statusFilterArg(kind: PostKind) {
  return arg({
    // Only registered statuses pass; the validation then refuses an empty list, and any but
    // `publish` from callers who cannot edit the kind (the same message either way).
    schema: enumList(POST_STATUSES, true),
    description: 'The post status(es) to return, as a list or comma-separated string',
    validate: (statuses, ctx) => {
      if (statuses.length === 0) return INVALID_PARAMETER;
      if (!canEditKind(ctx.permissions, kind)) return statuses.length === 1 && statuses[0] === 'publish' ? undefined : INVALID_PARAMETER;
      return undefined;
    },
  });
}

/** What a list shows a caller: the statuses asked for (or the default), as far as they may read them. */
export interface Visibility {
  /** The statuses asked for, or the caller's default (what `rest_url` shows). */
  readonly requested: readonly PostStatus[];
  /** The query's status condition: everyone's posts with `statuses`, the caller's own with `ownedBy`. */
  readonly statuses: readonly PostStatus[];
  readonly ownedBy?: OwnedBy;
}

/**
 * One visibility policy for every list: a caller sees others' posts that are published, others'
 * private posts with the read-private capability, others' drafts, pending, scheduled and
 * trashed posts with the edit-others capability, and every status of their own posts when they
 * can edit the kind — exactly what a single read would show them.
 */
export function visibility(permissions: Permissions, kind: PostKind, requested: readonly PostStatus[] | undefined): Visibility {
  const wanted = [...new Set(requested ?? (canEditKind(permissions, kind) ? EDITOR_STATUSES : PUBLIC_STATUSES))];
  const k = PLURALS[kind];
  const othersVisible = (s: PostStatus) => s === 'publish'
    || (s === 'private' ? permissions.can(`read_private_${k}`) : permissions.can(`edit_others_${k}`));
  const statuses = wanted.filter(othersVisible);
  const own = wanted.filter((s) => !othersVisible(s));
  const me = permissions.principal?.id;
  return {
    requested: wanted,
    statuses,
    ...(own.length && me && canEditKind(permissions, kind) ? { ownedBy: { authorId: me, statuses: own } } : {}),
  };
}

export function canEditKind(permissions: Permissions, kind: PostKind): boolean {
  return permissions.can(`edit_${kind}s` as `edit_${PostKindPlural}`);
}
