// The options of createCalendar, as a caller gives them (types only; calendar/config.ts checks
// them and fills in the defaults).
import type { Authorize, Principal, RoleTable } from '../auth/capabilities';
import type { CurrencyDefaults } from '../domain/cost';
import type { EventRecord, ImageRecord } from '../model/records';
import type { Storage } from '../storage/storage';

/** How iCalendar UIDs are formed: `stable` `<id>@<host>`, or `reference` `<id>-<start>-<end>@<host>` (epoch seconds). */
export type UidForm = 'stable' | 'reference';

/** Resolves a host name to its IP addresses (every one: each is checked). */
export type LookupAddresses = (hostname: string) => Promise<readonly string[]>;

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
