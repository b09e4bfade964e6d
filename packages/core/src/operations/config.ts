// Calendar options, and their resolved form that every operation reads.
import { createScheduler, type PublishDue } from './scheduler';
import { DEFAULT_ROLES, type Authorize, type Principal, type RoleTable } from '../auth/capabilities';
import { DEFAULT_CURRENCY, type CurrencyDefaults } from '../domain/cost';
import { MAX_ID, type EventRecord, type ImageRecord } from '../model/records';
import type { Storage } from '../storage/storage';
import { resolveZone, type Zone } from '../time/zone';
import { isAllowedUrl } from '../input/wire-schemas';
import { createRenderCache, type RenderCache } from './render-cache';
import { createListBudget, type ListBudget } from './plan-cache';
import { createPruner } from '../changes/change-retention';
import type { UidForm } from '../ical/feed-writer';
import type { RecurrenceSettings } from '../recurrence/occurrences';
import { createHorizonKeeper, type HorizonKeeper } from '../recurrence/horizon';
import { recordingStorage } from '../changes/change-recorder';
import { createChangeEvents, type ChangeEvents } from '../changes/change-events';
import type { LookupAddresses } from '../changes/webhook-addresses';

/** Resolves the `image` a client sends (an attachment id or a URL) to an image. */
export interface ImageProvider {
  /**
   * The image for an id or URL; undefined when it names no image (the write is refused with
   * 400). May fetch, look up a media library, or accept URLs as given.
   */
  resolve(ref: number | string, principal: Principal | undefined): Promise<ImageRecord | undefined> | ImageRecord | undefined;
}

/** Which user ids exist (the `author` field must name one). */
export interface UserDirectory {
  /**
   * `storage` is the storage the operation reads: inside a write, its transaction. A directory
   * kept in the storage (`storage.users`) must read it there: SQLite has one connection, which
   * the transaction holds until it ends.
   */
  exists(id: number, storage: Storage): Promise<boolean> | boolean;
}

export interface CalendarOptions {
  /** Where the calendar keeps its records. */
  readonly storage: Storage;
  /**
   * The site time zone: an IANA name or `UTC±N`. New events without a zone get it; date
   * filters without an offset are read in it.
   * @default 'UTC'
   */
  readonly timezone?: string;
  /** The clock, injected for reproducible runs and tests. @default () => Date.now() */
  readonly now?: () => number | Date;
  /** Page sizes of every list. */
  readonly limits?: {
    /** `per_page` when a request gives none. @default 10 */
    readonly defaultPerPage?: number;
    /** The largest `per_page`; larger values are clamped silently. @default 50 */
    readonly maxPerPage?: number;
  };
  /** Role name -> capabilities. @default WordPress's roles with The Events Calendar's capabilities */
  readonly roles?: RoleTable;
  /**
   * Overrides any permission decision (a general capability, or reading, editing or deleting
   * one record); receives the role table's answer as `allowed`. Record decisions apply to
   * single reads, writes and embedded records; lists select by status and authorship in the
   * storage, so hiding a published record from lists takes a status, not a read decision.
   * @default the role table decides
   */
  readonly authorize?: Authorize;
  /** Which user ids exist. @default every positive id exists */
  readonly users?: UserDirectory;
  /** Resolves `image` values. @default absolute http(s) URLs are taken as given; ids name nothing */
  readonly images?: ImageProvider;
  /**
   * Where an event's ticketing state comes from, for the `ticketed` list filter and field: a
   * function evaluated on every event write (its answer is stored, so lists filter in the
   * database), or `'stored'` when the app maintains the `ticketed` field itself (datasets,
   * storage). Without it `ticketed=true` is refused as the reference does without Event Tickets.
   * @default undefined
   */
  readonly tickets?: ((event: EventRecord) => boolean) | 'stored';
  /** Radius of the `geoloc_lat`/`geoloc_lng` filter, in km. @default 50 */
  readonly geoRadiusKm?: number;
  /** The site's home URL for permalinks and global ids when a call gives no links. @default 'http://localhost' */
  readonly siteUrl?: string;
  /**
   * The API root for the addresses in answers (`rest_url`, `urls`) when a call gives no links
   * (calls made directly, without HTTP; the HTTP binding gives each call the address it was
   * reached under, namespace included).
   * @default the site URL
   */
  readonly apiRoot?: string;
  /** Currency shown with costs that store none. @default { symbol: '$', position: 'prefix', code: 'USD' } */
  readonly currency?: Partial<CurrencyDefaults>;
  /**
   * How many rendered events (their JSON text, per state and view) lists keep for reuse; a
   * change to an event or to what it embeds makes a new one. 0 renders every time, and parses
   * every list's arguments every time too (no cache at all).
   * @default 5000
   */
  readonly renderCache?: number;
  /**
   * Bytes of list pages and single event reads kept as they were sent, for those asked again
   * before anything changes (any write empties it in effect: a kept answer is only found under
   * the change number it was read at). 0 reads and renders every list and read every time; so
   * does `renderCache: 0`.
   * @default 16777216 (16 MiB)
   */
  readonly listCacheBytes?: number;
  /** iCalendar feeds (`/events.ics`). */
  readonly ical?: IcalOptions;
  /** The change log (`/changes`, docs/sync.md). */
  readonly changes?: ChangeLogOptions;
  /**
   * Told of errors no caller can be answered with: a change listener that throws, a failed
   * pruning of the change log.
   * @default console.error
   */
  readonly onError?: (error: unknown) => void;
  /** Recurring events (docs/recurrence.md). */
  readonly recurrence?: RecurrenceOptions;
  /** Writes sent with an idempotency key (`calendar.idempotent`, HTTP `Idempotency-Key`: docs/http.md). */
  readonly idempotency?: IdempotencyOptions;
  /** Webhook endpoints (docs/webhooks.md). */
  readonly webhooks?: WebhookOptions;
}

/** How long the answers of writes sent with an idempotency key are kept. */
export interface IdempotencyOptions {
  /**
   * Seconds a write's answer is kept with its key: a repeat within that time gets the answer
   * again, a later one runs as a new write. Expired records are removed by later keyed writes.
   * @default 86400 (24 hours)
   */
  readonly ttlSeconds?: number;
}

/**
 * Which endpoints may be registered. Give the same `allowPrivateAddresses` as the sender that
 * delivers (@evcal/http createWebhookSender), so that an endpoint it would refuse is refused
 * when it is registered.
 */
export interface WebhookOptions {
  /**
   * Accept endpoints on loopback, private and link-local addresses (a receiver on the same
   * machine or network). Off, their registration is refused (400, naming how to allow them).
   * @default false
   */
  readonly allowPrivateAddresses?: boolean;
  /**
   * Resolves an endpoint's host name when it is registered, so that a name of a private
   * address is refused then too (@evcal/http lookupAddresses, over node:dns). Without it only
   * addresses and `localhost` names are checked at registration; the sender checks every
   * delivery whatever this is.
   * @default undefined
   */
  readonly lookup?: LookupAddresses;
}

/** How series are materialised (docs/recurrence.md). */
export interface RecurrenceOptions {
  /**
   * Series without COUNT or UNTIL have their occurrences stored this many months ahead of now,
   * a horizon that moves forward as time passes. 0: such rules are refused.
   * @default 24
   */
  readonly horizonMonths?: number;
  /** A list reaching past the horizon extends it to its end, at most this many months ahead of now. @default 120 */
  readonly maxHorizonMonths?: number;
  /** The most occurrences one series may have. @default 1000 */
  readonly maxOccurrences?: number;
}

/** How long the change log keeps what it recorded. */
export interface ChangeLogOptions {
  /**
   * Days entries (tombstones included) and failed webhook deliveries are kept. A sync token
   * older than that answers 410 and its client lists everything again.
   * @default 30
   */
  readonly retentionDays?: number;
}

/** How iCalendar feeds are written (docs/icalendar.md). */
export interface IcalOptions {
  /** The most events one feed carries; a feed with more matching events is cut and says so. @default 10000 */
  readonly maxEvents?: number;
  /**
   * UIDs: `stable` is `<id>@<site host>`, unchanged when an event is rescheduled; `reference` is
   * The Events Calendar's `<id>-<start>-<end>@<site host>`, which changes with the times (and
   * leaves a duplicate in subscribed calendars after each reschedule).
   * @default 'stable'
   */
  readonly uid?: UidForm;
  /** The calendar's name in feeds ("Events of <name>", translated). @default the site's host name */
  readonly name?: string;
  /** How often subscribed apps should refresh, in minutes (REFRESH-INTERVAL, X-PUBLISHED-TTL). @default 60 */
  readonly refreshMinutes?: number;
}

export interface CalendarConfig {
  readonly storage: Storage;
  readonly timezone: string;
  readonly zone: Zone;
  now(): number;
  readonly defaultPerPage: number;
  readonly maxPerPage: number;
  readonly roles: RoleTable;
  readonly authorize: Authorize | undefined;
  readonly users: UserDirectory;
  readonly images: ImageProvider;
  readonly tickets: ((event: EventRecord) => boolean) | 'stored' | undefined;
  readonly geoRadiusKm: number;
  readonly siteUrl: string;
  readonly apiRoot: string;
  readonly currency: CurrencyDefaults;
  readonly renderCache: RenderCache;
  /**
   * How many parsed lists each list operation keeps for lists asked again, and the bytes of
   * the lists they read that all of them keep together (plan-cache.ts).
   */
  readonly listCache: { readonly plans: number; readonly budget: ListBudget };
  /** Publishes the scheduled posts that are due; every operation awaits it first (scheduler.ts). */
  readonly publishDue: PublishDue;
  /** Removes change log entries and failed deliveries past the retention; every operation awaits it first (change-retention.ts). */
  readonly pruneDue: () => Promise<void> | undefined;
  readonly ical: { readonly maxEvents: number; readonly uid: UidForm; readonly name: string | undefined; readonly refreshMinutes: number };
  readonly recurrence: RecurrenceSettings;
  /** Keeps the recurrence horizon (recurrence/horizon.ts). */
  readonly horizon: HorizonKeeper;
  /** How long the change log keeps entries, in ms. */
  readonly changeRetentionMs: number;
  /** How long the answer of a write sent with an idempotency key is kept, in ms. */
  readonly idempotencyTtlMs: number;
  /** The listeners of committed changes (`calendar.on('change', …)`). */
  readonly changeEvents: ChangeEvents;
  readonly onError: (error: unknown) => void;
  readonly webhooks: { readonly allowPrivateAddresses: boolean; readonly lookup: LookupAddresses | undefined };
}

/** Accepts absolute http(s) URLs as given; refuses ids (there is no media library). */
export const urlImages: ImageProvider = {
  resolve: (ref) => (typeof ref === 'string' && /^https?:/i.test(ref) && isAllowedUrl(ref) ? { url: ref } : undefined),
};

export function resolveConfig(options: CalendarOptions): CalendarConfig {
  const timezone = options.timezone ?? 'UTC';
  const zone = resolveZone(timezone);
  if (!zone) throw new TypeError(`evcal: unknown time zone "${timezone}"`);
  const clock = options.now ?? Date.now;
  const defaultPerPage = options.limits?.defaultPerPage ?? 10;
  const maxPerPage = options.limits?.maxPerPage ?? 50;
  for (const [name, n] of [['defaultPerPage', defaultPerPage], ['maxPerPage', maxPerPage]] as const) {
    if (!Number.isInteger(n) || n < 1) throw new TypeError(`evcal: limits.${name} must be a positive integer`);
  }
  const ical = {
    maxEvents: options.ical?.maxEvents ?? 10_000,
    uid: options.ical?.uid ?? 'stable',
    name: options.ical?.name,
    refreshMinutes: options.ical?.refreshMinutes ?? 60,
  };
  for (const [name, n] of [['maxEvents', ical.maxEvents], ['refreshMinutes', ical.refreshMinutes]] as const) {
    if (!Number.isInteger(n) || n < 1) throw new TypeError(`evcal: ical.${name} must be a positive integer`);
  }
  if (ical.uid !== 'stable' && ical.uid !== 'reference') throw new TypeError('evcal: ical.uid must be "stable" or "reference"');
  const siteUrl = (options.siteUrl ?? 'http://localhost').replace(/\/+$/, '');
  const recurrence = {
    horizonMonths: options.recurrence?.horizonMonths ?? 24,
    maxHorizonMonths: options.recurrence?.maxHorizonMonths ?? 120,
    maxOccurrences: options.recurrence?.maxOccurrences ?? 1000,
  };
  for (const [name, n] of Object.entries(recurrence)) {
    if (!Number.isInteger(n) || n < (name === 'horizonMonths' ? 0 : 1)) throw new TypeError(`evcal: recurrence.${name} must be a ${name === 'horizonMonths' ? 'non-negative' : 'positive'} integer`);
  }
  if (recurrence.maxHorizonMonths < recurrence.horizonMonths) throw new TypeError('evcal: recurrence.maxHorizonMonths must be at least recurrence.horizonMonths');
  const retentionDays = options.changes?.retentionDays ?? 30;
  if (!(retentionDays > 0) || !Number.isFinite(retentionDays)) throw new TypeError('evcal: changes.retentionDays must be a positive number');
  const ttlSeconds = options.idempotency?.ttlSeconds ?? 86_400;
  if (!(ttlSeconds > 0) || !Number.isFinite(ttlSeconds)) throw new TypeError('evcal: idempotency.ttlSeconds must be a positive number');
  const now = () => {
    const t = clock();
    return typeof t === 'number' ? t : t.getTime();
  };
  const onError = options.onError ?? ((error: unknown) => console.error('evcal:', error));
  const changeEvents = createChangeEvents(onError);
  // Every write is recorded in the change log (changes/change-recorder.ts).
  const storage = recordingStorage(options.storage, { now, committed: (entries) => changeEvents.emit(entries) });
  const changeRetentionMs = retentionDays * 86_400_000;
  const keepsLists = options.renderCache !== 0;
  return {
    storage,
    timezone,
    zone,
    now,
    defaultPerPage,
    maxPerPage,
    roles: options.roles ?? DEFAULT_ROLES,
    authorize: options.authorize,
    users: options.users ?? { exists: (id) => Number.isInteger(id) && id > 0 && id <= MAX_ID },
    images: options.images ?? urlImages,
    tickets: options.tickets,
    geoRadiusKm: options.geoRadiusKm ?? 50,
    siteUrl,
    apiRoot: (options.apiRoot ?? siteUrl).replace(/\/+$/, ''),
    currency: { ...DEFAULT_CURRENCY, ...options.currency },
    renderCache: createRenderCache(options.renderCache ?? 5000),
    listCache: { plans: keepsLists ? 512 : 0, budget: createListBudget(keepsLists ? options.listCacheBytes ?? 16 * 1024 * 1024 : 0) },
    publishDue: createScheduler({ storage, now }),
    pruneDue: createPruner({ storage, now, changeRetentionMs, onError }),
    ical,
    recurrence,
    horizon: createHorizonKeeper({ recurrence }),
    changeRetentionMs,
    idempotencyTtlMs: ttlSeconds * 1000,
    changeEvents,
    onError,
    webhooks: { allowPrivateAddresses: options.webhooks?.allowPrivateAddresses ?? false, lookup: options.webhooks?.lookup },
  };
}
