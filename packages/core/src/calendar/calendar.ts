// createCalendar: the typed operations of the five resources, usable without HTTP.
import type { EncodedDataset } from '../dataset/codec';
import { exportDataset, importDataset, type ImportOptions, type ImportSummary } from '../dataset/dataset';
import { beginCall, listUnchanged, listUnchangedNow, startCall, type CallContext } from '../kernel/call';
import { resolveConfig } from './config';
import type { CalendarConfig } from '../kernel/context';
import type { CalendarOptions } from '../kernel/options';
import { eventFeed, singleEventFeed, type EventFeed, type FeedOptions } from '../ical/event-feed';
import { eventListPlanner, getEvent, getEventBySlug } from '../events/event-read';
import { createEvent, deleteEvent, updateEvent } from '../events/event-write';
import { linkedPostOperations, type LinkedPostOperations } from '../linked-posts/linked-posts';
import type { ListPlan, ListResult, ListStability } from '../kernel/list-urls';
import type {
  EventCreateInput, EventDeleteBySlugInput, EventDeleteInput, EventGetBySlugInput, EventGetInput, EventListInput,
  EventUpdateBySlugInput, EventUpdateInput,
} from '../events/event-inputs';
import type { OrganizerWriteInput, VenueWriteInput } from '../linked-posts/linked-post-inputs';
import type {
  CategoryListJson, EventJson, EventListJson, OrganizerJson, OrganizerListJson, TagListJson, VenueJson, VenueListJson,
} from '../represent/schemas';
import type { Representation } from '../kernel/representation';
import { termOperations, type TermOperations } from '../terms/terms';
import { readChanges } from '../changes/change-feed';
import type { ChangeListener } from '../kernel/context';
import { webhookOperations, type WebhookOperations } from '../changes/webhook-endpoints';
import type { ChangesJson } from '../represent/change-schemas';
import type { ChangesInput } from '../changes/change-args';
import { createIdempotentRunner, type IdempotentRunner } from '../kernel/idempotency';
import { keptReads, type KeptRead } from '../kernel/kept-reads';

type Json = Representation<EventJson>;

/**
 * The operations of `/events`. Each takes the request parameters as one object (path
 * parameters included: `{ id: 12, password: '…' }`), typed from the declarations that
 * validate them, and returns the wire representation, typed from its schema
 * (represent/schemas.ts). A single record comes as a `Representation`: `{ value, validator }`
 * (and `bytes`, its JSON text, when that was already made); lists as a `ListResult`.
 */
export interface EventOperations {
  list(input?: EventListInput, ctx?: CallContext): Promise<ListResult<EventListJson>>;
  /** The list parsed and validated, with its validator, before it is read (see ListPlan). */
  planList(input?: EventListInput, ctx?: CallContext): Promise<ListPlan<EventListJson>>;
  get(input: EventGetInput, ctx?: CallContext): Promise<Json>;
  /**
   * `get`'s answer with its JSON text (UTF-8) always made, kept by the storage's change counter
   * (kept-reads.ts): what a binding sends as it is, and when it may send it again (`stable`). A
   * read asked again costs one read of the change counter.
   */
  getJson(input: EventGetInput, ctx?: CallContext): Promise<KeptRead<EventJson>>;
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
  /**
   * Whether a list planned earlier (`planList`, with `stable` set) would be planned with the
   * same validator now: no change committed since, the clock within the interval its dates
   * hold for (validity.ts), and nothing due to run first
   * (scheduled posts to publish, the recurrence horizon to move). One read of the change
   * counter instead of planning the list again; false whenever in doubt.
   */
  listUnchanged(stable: ListStability): Promise<boolean>;
  /**
   * `listUnchanged` answered at once, where the storage can read its change counter without
   * waiting (`Storage.changeNow`); undefined where it cannot (ask `listUnchanged`).
   */
  listUnchangedNow(stable: ListStability): boolean | undefined;
  /**
   * Runs a write once per idempotency key of its caller (docs/http.md, "Retries"): the first
   * time, `write` runs (give it the context it receives: its operation then runs in the
   * transaction begun here) and `keep(result)` is kept with the key by that transaction; a
   * repeat with the same key and fingerprint within `idempotency.ttlSeconds` answers the kept
   * text (`replayed: true`) and writes nothing. Another fingerprint with the key is refused
   * (`idempotency_key_reused`), and so is a repeat while the first runs (`idempotency_key_in_use`).
   *
   *     const out = await calendar.idempotent({ key, fingerprint }, ctx, (c) => calendar.events.create(input, c), (r) => JSON.stringify(r.value));
   */
  readonly idempotent: IdempotentRunner;
}

export interface ChangeOperations {
  /** `GET /changes`: the records changed after `since`, as they are now, and tombstones; without `since`, a token for now. */
  list(input?: ChangesInput, ctx?: CallContext): Promise<ChangesJson>;
}

/** A calendar over a storage adapter. */
export function createCalendar(options: CalendarOptions): Calendar {
  const config = resolveConfig(options);
  // Every operation first does what is due: scheduled posts, the recurrence horizon, the change log's retention (startCall).
  const call = (ctx?: CallContext) => startCall(config, ctx);
  const planEventList = eventListPlanner(config);
  const keptEventReads = keptReads<EventJson>(config);
  return {
    config,
    events: {
      list: async (input = {}, ctx) => (await planEventList(await call(ctx), input)).run(),
      planList: async (input = {}, ctx) => planEventList(await call(ctx), input),
      getJson: async (input, ctx) => {
        const c = await call(ctx);
        return keptEventReads.json(c, input, () => getEvent(c, input));
      },
      get: async (input, ctx) => {
        const c = await call(ctx);
        return keptEventReads.get(c, input, () => getEvent(c, input));
      },
      getBySlug: async (input, ctx) => getEventBySlug(await call(ctx), input),
      create: async (input, ctx) => createEvent(await call(ctx), input),
      update: async (input, ctx) => updateEvent(await call(ctx), input, 'replace', 'id'),
      updateBySlug: async (input, ctx) => updateEvent(await call(ctx), input, 'replace', 'slug'),
      patch: async (input, ctx) => updateEvent(await call(ctx), input, 'patch', 'id'),
      patchBySlug: async (input, ctx) => updateEvent(await call(ctx), input, 'patch', 'slug'),
      delete: async (input, ctx) => deleteEvent(await call(ctx), input, 'id'),
      deleteBySlug: async (input, ctx) => deleteEvent(await call(ctx), input, 'slug'),
      feed: async (input = {}, ctx, feedOptions) => eventFeed(await call(ctx), input, feedOptions),
      feedOne: async (input, ctx, feedOptions) => singleEventFeed(await call(ctx), input, feedOptions?.by ?? 'id', feedOptions),
    },
    venues: linkedPostOperations('venue', config),
    organizers: linkedPostOperations('organizer', config),
    categories: termOperations('category', config),
    tags: termOperations('tag', config),
    importDataset: (dataset, importOptions) => importDataset(config, dataset, importOptions),
    exportDataset: () => exportDataset(config.storage),
    extendRecurrences: () => config.horizon.roll(beginCall(config)),
    changes: { list: async (input = {}, ctx) => readChanges(await call(ctx), input) },
    webhooks: webhookOperations(config),
    on: (_event, listener) => config.changeEvents.on(listener),
    off: (_event, listener) => config.changeEvents.off(listener),
    listUnchanged: (stable) => listUnchanged(config, stable),
    listUnchangedNow: (stable) => listUnchangedNow(config, stable),
    idempotent: createIdempotentRunner(config),
  };
}
