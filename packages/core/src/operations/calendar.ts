// createCalendar: the typed operations of the five resources, usable without HTTP.
import type { EncodedDataset } from '../dataset/codec';
import { exportDataset, importDataset, type ImportOptions, type ImportSummary } from '../dataset/dataset';
import { beginCall, type CallContext } from './call';
import { resolveConfig, type CalendarConfig, type CalendarOptions } from './config';
import { eventFeed, singleEventFeed, type EventFeed, type FeedOptions } from './event-feed';
import { getEvent, getEventBySlug, planEventList } from './event-read';
import { createEvent, deleteEvent, updateEvent } from './event-write';
import { linkedPostOperations, type LinkedPostOperations } from './linked-posts';
import { createScheduler } from './scheduler';
import type { ListPlan, ListResult } from './list-urls';
import type {
  EventCreateInput, EventDeleteBySlugInput, EventDeleteInput, EventGetBySlugInput, EventGetInput, EventListInput,
  EventUpdateBySlugInput, EventUpdateInput, OrganizerWriteInput, VenueWriteInput,
} from './inputs';
import type {
  CategoryListJson, EventJson, EventListJson, OrganizerJson, OrganizerListJson, TagListJson, VenueJson, VenueListJson,
} from '../represent/schemas';
import type { Validated } from './validators';
import { termOperations, type TermOperations } from './terms';
import { readChanges } from '../changes/change-feed';
import type { ChangeListener } from '../changes/change-events';
import { createPruner } from '../changes/change-retention';
import { webhookOperations, type WebhookOperations } from '../changes/webhook-endpoints';
import type { ChangesJson } from '../represent/change-schemas';
import type { ChangesInput } from './inputs';

type Input = Readonly<Record<string, unknown>>;
type Json = Validated<EventJson>;

/**
 * The operations of `/events`. Each takes the request parameters as one object (path
 * parameters included: `{ id: 12, password: '…' }`), typed from the declarations that
 * validate them, and returns the wire representation, typed from its schema
 * (represent/schemas.ts). Every representation carries its validator (`validatorOf`).
 */
export interface EventOperations {
  list(input?: EventListInput, ctx?: CallContext): Promise<ListResult<EventListJson>>;
  /** The list parsed and validated, with its validator, before it is read (see ListPlan). */
  planList(input?: EventListInput, ctx?: CallContext): Promise<ListPlan<EventListJson>>;
  get(input: EventGetInput, ctx?: CallContext): Promise<Json>;
  getBySlug(input: EventGetBySlugInput, ctx?: CallContext): Promise<Json>;
  create(input: EventCreateInput, ctx?: CallContext): Promise<Json>;
  /** POST/PUT on an existing event: omitted fields take their defaults, as the reference does. */
  update(input: EventUpdateInput, ctx?: CallContext): Promise<Json>;
  updateBySlug(input: EventUpdateBySlugInput, ctx?: CallContext): Promise<Json>;
  /** PATCH: only the fields sent change. */
  patch(input: EventUpdateInput, ctx?: CallContext): Promise<Json>;
  patchBySlug(input: EventUpdateBySlugInput, ctx?: CallContext): Promise<Json>;
  delete(input: EventDeleteInput, ctx?: CallContext): Promise<Json>;
  deleteBySlug(input: EventDeleteBySlugInput, ctx?: CallContext): Promise<Json>;
  /**
   * The iCalendar feed of the events `list` would show with the same arguments, every page of
   * them up to `ical.maxEvents` (docs/icalendar.md): checked now, rendered when opened.
   */
  feed(input?: EventListInput, ctx?: CallContext, options?: FeedOptions): Promise<EventFeed>;
  /** The iCalendar feed of one event, with the checks of `get` (`getBySlug` with `by: 'slug'`). */
  feedOne(input: EventGetInput | EventGetBySlugInput, ctx?: CallContext, options?: FeedOptions & { by?: 'id' | 'slug' }): Promise<EventFeed>;
}

export interface Calendar {
  readonly config: CalendarConfig;
  readonly events: EventOperations;
  readonly venues: LinkedPostOperations<VenueJson, VenueListJson, VenueWriteInput>;
  readonly organizers: LinkedPostOperations<OrganizerJson, OrganizerListJson, OrganizerWriteInput>;
  readonly categories: TermOperations<CategoryListJson>;
  readonly tags: TermOperations<TagListJson>;
  /** Loads a dataset (ids kept), validated like the create routes, in one transaction. */
  importDataset(dataset: unknown, options?: ImportOptions): Promise<ImportSummary>;
  /** The whole calendar as a dataset: every field, ids and sequences kept. */
  exportDataset(): Promise<EncodedDataset>;
  /**
   * Stores the occurrences of series without an end up to `recurrence.horizonMonths` ahead of
   * now (docs/recurrence.md). Operations do it when the horizon lags; `evcal serve` also calls
   * it on a timer, so that no request waits for it.
   */
  extendRecurrences(): Promise<void>;
  /** What changed after a sync token (docs/sync.md). */
  readonly changes: ChangeOperations;
  /** Webhook endpoints (docs/webhooks.md); administrators only. */
  readonly webhooks: WebhookOperations;
  /**
   * Hears every change this calendar commits (made through it, in this process), after the
   * commit, as `{ type, id, revision, timestamp }`; returns a function that stops listening.
   * Changes made by other processes sharing the storage reach `/changes` and webhooks only.
   */
  on(event: 'change', listener: ChangeListener): () => void;
  off(event: 'change', listener: ChangeListener): void;
}

export interface ChangeOperations {
  /** `GET /changes`: the records changed after `since`, as they are now, and tombstones; without `since`, a token for now. */
  list(input?: ChangesInput, ctx?: CallContext): Promise<ChangesJson>;
}

/** A calendar over a storage adapter. */
export function createCalendar(options: CalendarOptions): Calendar {
  const config = resolveConfig(options);
  const publishDue = createScheduler(config);
  const pruneDue = createPruner(config);
  const call = (ctx?: CallContext) => beginCall(config, ctx);
  // Every operation first publishes the scheduled posts that are due (a sweep at most every 30 s)
  // and moves the recurrence horizon along when it lags (a storage read at most when it does).
  const scheduled = <T extends object>(ops: T): T => Object.fromEntries(Object.entries(ops).map(([name, op]) => [
    name,
    async (...args: unknown[]) => {
      await publishDue();
      // A horizon that cannot move now (a busy storage) moves on a later operation; this one goes on.
      await config.horizon.roll(call()).catch(() => undefined);
      await pruneDue();
      return (op as (...a: unknown[]) => unknown)(...args);
    },
  ])) as T;
  return {
    config,
    events: scheduled<EventOperations>({
      list: async (input = {}, ctx) => (await planEventList(call(ctx), input)).run(),
      planList: (input = {}, ctx) => planEventList(call(ctx), input),
      get: (input, ctx) => getEvent(call(ctx), input),
      getBySlug: (input, ctx) => getEventBySlug(call(ctx), input),
      create: (input, ctx) => createEvent(call(ctx), input),
      update: (input, ctx) => updateEvent(call(ctx), input, 'replace', 'id'),
      updateBySlug: (input, ctx) => updateEvent(call(ctx), input, 'replace', 'slug'),
      patch: (input, ctx) => updateEvent(call(ctx), input, 'patch', 'id'),
      patchBySlug: (input, ctx) => updateEvent(call(ctx), input, 'patch', 'slug'),
      delete: (input, ctx) => deleteEvent(call(ctx), input, 'id'),
      deleteBySlug: (input, ctx) => deleteEvent(call(ctx), input, 'slug'),
      feed: (input = {}, ctx, feedOptions) => eventFeed(call(ctx), input, feedOptions),
      feedOne: (input, ctx, feedOptions) => singleEventFeed(call(ctx), input, feedOptions?.by ?? 'id', feedOptions),
    }),
    venues: scheduled(linkedPostOperations('venue', config)),
    organizers: scheduled(linkedPostOperations('organizer', config)),
    categories: scheduled(termOperations('category', config)),
    tags: scheduled(termOperations('tag', config)),
    importDataset: (dataset, importOptions) => importDataset(config, dataset, importOptions),
    exportDataset: () => exportDataset(config.storage),
    extendRecurrences: () => config.horizon.roll(call()),
    changes: scheduled<ChangeOperations>({ list: (input = {}, ctx) => readChanges(call(ctx), input) }),
    webhooks: webhookOperations(config),
    on: (_event, listener) => config.changeEvents.on(listener),
    off: (_event, listener) => config.changeEvents.off(listener),
  };
}
