// Write rules shared by events, venues and organizers: status scale-back and scheduling,
// publish dates, slugs, and the timestamps of a write.
import { sanitizeSlug, trashedSlug, uniqueSlug, untrashedSlug } from '../domain/slug';
import type { PostRecord, PostStatus } from '../model/records';
import { formatUtc, formatWall } from '../time/wall-clock';
import { instantToWall, type Zone } from '../time/zone';
import type { Call } from '../kernel/call';

/**
 * The status a write stores (behaviour reference: "Status"): users who cannot publish events get
 * `pending` for publish/future and `draft` when they name none; users who can get `publish`
 * when they name none. Venues and organizers use the event publish capability too.
 */
export function scaleBackStatus(call: Call, requested: PostStatus | undefined): PostStatus {
  const canPublish = call.permissions.can('publish_events');
  if (requested === undefined) return canPublish ? 'publish' : 'draft';
  if (!canPublish && (requested === 'publish' || requested === 'future')) return 'pending';
  return requested;
}

/** `publish` with a publish date in the future is scheduled; `future` without one publishes now. */
export function scheduleStatus(status: PostStatus, dateUtc: string | null, now: number): PostStatus {
  const inFuture = dateUtc !== null && Date.parse(`${dateUtc.replace(' ', 'T')}Z`) > now;
  if (status === 'publish' && inFuture) return 'future';
  if (status === 'future' && !inFuture) return 'publish';
  return status;
}

/** Whether a status publishes the post (drafts and pending posts have no slug or date yet). */
export function isUnpublishedStatus(status: PostStatus): boolean {
  return status === 'draft' || status === 'pending' || status === 'auto-draft';
}

/** "now" as the site-local and UTC wall clocks of a write. */
export function stamps(now: number, site: Zone): { local: string; utc: string } {
  return { local: formatWall(instantToWall(now, site)), utc: formatUtc(now) };
}

/**
 * The publish date after a write: an explicit date or UTC date wins; a post being published
 * whose date was never set gets "now"; a draft without one keeps no UTC date.
 */
export function publishDates(
  previous: Pick<PostRecord, 'date' | 'dateUtc'> | undefined,
  explicit: { local?: string; utc?: string },
  status: PostStatus,
  now: { local: string; utc: string },
): { date: string; dateUtc: string | null } {
  if (explicit.local !== undefined || explicit.utc !== undefined) {
    return { date: explicit.local ?? previous?.date ?? now.local, dateUtc: explicit.utc ?? previous?.dateUtc ?? now.utc };
  }
  if (previous && (previous.dateUtc !== null || isUnpublishedStatus(status))) return { date: previous.date, dateUtc: previous.dateUtc };
  return isUnpublishedStatus(status) ? { date: now.local, dateUtc: null } : { date: now.local, dateUtc: now.utc };
}

/**
 * The slug after a write: a requested one (sanitised, made unique), else the current one,
 * else — once the post is published, or at once with `slugFromTitle` — one made from the
 * title. Trashed posts carry `__trashed`; restored ones lose it.
 */
export async function resolveSlug(options: {
  readonly requested: string | undefined;
  readonly current: string;
  readonly title: string;
  readonly id: number;
  readonly status: PostStatus;
  /** Whether another record of the same type uses the slug. */
  readonly taken: (slug: string) => Promise<boolean>;
  /** Make one from the title whatever the status (venues and organizers created through the API). */
  readonly slugFromTitle?: boolean;
}): Promise<string> {
  const { requested, status, id } = options;
  if (status === 'trash') return trashedSlug(requested !== undefined ? sanitizeSlug(requested) : options.current);
  let base = requested !== undefined ? sanitizeSlug(requested) : untrashedSlug(options.current);
  const changed = requested !== undefined || base !== options.current;
  if (base === '' && (options.slugFromTitle || !isUnpublishedStatus(status))) base = sanitizeSlug(options.title) || String(id);
  if (base === '') return '';
  if (!changed && base === options.current) return base;
  return uniqueSlug(base, options.taken);
}
