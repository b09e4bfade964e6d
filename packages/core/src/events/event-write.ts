// Writing events (behaviour reference: "Event create" through "Event delete", "Linking venues and
// organizers from an event", "Organizers on a POST/PUT update" through "End before start",
// "Explicitly empty links"). POST and PUT on an existing event replace it as the reference does
// (omitted fields take their defaults); PATCH changes only the fields sent.
import { msg } from '../domain/messages';
import { CalendarError } from '../domain/errors';
import { parseArgs, type WireArgs } from '../kernel/args';
import type { EventRecord, PostKind, PostRecord } from '../model/records';
import { requirePermission, type Call, type WriteCall } from '../kernel/call';
import { EVENT_ARGS } from './event-args';
import { deleteAnyEvent, insertEvent, updateAnyEvent } from './series-write';
import { applyEventWrite, blankEvent } from './event-apply';
import { findEventOrFail } from './event-read';
import { loadRelated, renderEvent } from './event-render';
import { checkPreconditions, eventValidator, needsValidator } from '../kernel/validators';
import type { Representation } from '../kernel/representation';
import { runWrite } from '../kernel/write';
import type { EventJson } from '../represent/schemas';

type Input = WireArgs;
/** The parsed path parameter that names the event of an update or delete. */
type EventKey = { readonly id?: number; readonly slug?: string };

export async function createEvent(call: Call, input: Input): Promise<Representation<EventJson>> {
  const { event, related } = await runWrite(call, async (c) => {
    const { values } = await parseArgs(EVENT_ARGS.create, input, c.args);
    requirePermission(c, c.permissions.can('edit_events'));
    const id = await c.storage.sequences.next('post');
    const created = await applyEventWrite(c, blankEvent(id, call.principal?.id ?? 0), values, 'create');
    return written(c, await insertEvent(c, created, values));
  });
  return renderEvent(call, event, {}, related);
}

/**
 * An event as written, with what its answer embeds, read in the write's transaction: the
 * venues, organizers and terms the write named were read by its validation already, so only
 * the term counts (which the write changed) are read here.
 */
async function written(c: WriteCall, event: EventRecord) {
  return { event, related: await loadRelated(c, [event]) };
}

/** POST/PUT (`replace`) or PATCH (`patch`) on `/events/{id}` or `/events/by-slug/{slug}`. */
export async function updateEvent(call: Call, input: Input, mode: 'replace' | 'patch', by: 'id' | 'slug'): Promise<Representation<EventJson>> {
  const { event, related } = await runWrite(call, async (c) => {
    const { values } = await parseArgs(EVENT_ARGS[mode === 'replace' ? (by === 'id' ? 'update' : 'updateBySlug') : (by === 'id' ? 'patch' : 'patchBySlug')], input, c.args);
    const current = await authorizeOnEvent(c, values, 'edit', by);
    await checkEventPreconditions(c, current);
    return written(c, await updateAnyEvent(c, current, values, mode));
  });
  return renderEvent(call, event, {}, related);
}

/** DELETE: moves the event to the trash; 410 when it already is there. */
export async function deleteEvent(call: Call, input: Input, by: 'id' | 'slug'): Promise<Representation<EventJson>> {
  const key: typeof EVENT_ARGS.delete | typeof EVENT_ARGS.deleteBySlug = by === 'id' ? EVENT_ARGS.delete : EVENT_ARGS.deleteBySlug;
  const trashed = await runWrite(call, async (c) => {
    const { values } = await parseArgs(key, input, c.args);
    const event = await authorizeOnEvent(c, values, 'delete', by);
    if (event.status === 'trash' && !(event.occurrence && values.scope !== undefined && values.scope !== 'this')) {
      throw new CalendarError('event_in_trash', msg('The event is already trashed'));
    }
    await checkEventPreconditions(c, event);
    return deleteAnyEvent(c, event, values);
  });
  return renderEvent(call, trashed);
}

/** Refuses the write unless the caller's preconditions hold for the event as it is now. */
async function checkEventPreconditions(c: WriteCall, event: EventRecord): Promise<void> {
  const related = needsValidator(c.preconditions) ? await loadRelated(c, [event]) : undefined;
  checkPreconditions(c.preconditions, () => eventValidator(event, related!));
}

/**
 * The permission check of an update or delete, then the event. The caller must be able to
 * edit (delete) the addressed post when it exists — by id or by slug alike (the reference
 * checks only the general capability on slug routes; docs/compatibility.md) — else hold the
 * general capability, so that a missing event can be answered with 404. On by-slug routes
 * `slug` names the event (a body `slug` wins over the path, as parameters do everywhere).
 */
async function authorizeOnEvent(call: Call, values: EventKey, verb: 'edit' | 'delete', by: 'id' | 'slug'): Promise<EventRecord> {
  const { storage, permissions } = call;
  let post: { kind: 'event'; record: EventRecord } | { kind: Exclude<PostKind, 'event'>; record: PostRecord } | undefined;
  const { id = 0, slug = '' } = values;
  if (by === 'slug') {
    post = { kind: 'event', record: (await storage.events.getBySlug(slug))! };
  } else if (id > 0) {
    const found = (await storage.events.get(id)) ?? undefined;
    const venue = found ? undefined : await storage.venues.get(id);
    const organizer = found || venue ? undefined : await storage.organizers.get(id);
    if (found) post = { kind: 'event', record: found };
    else if (venue) post = { kind: 'venue', record: venue };
    else if (organizer) post = { kind: 'organizer', record: organizer };
  }
  const allowed = post
    ? verb === 'edit' ? permissions.canEdit(post.kind, post.record) : permissions.canDelete(post.kind, post.record)
    : permissions.can(verb === 'edit' ? 'edit_events' : 'delete_events');
  requirePermission(call, allowed);
  if (post?.kind === 'event') return post.record;
  return findEventOrFail(call, id);
}
