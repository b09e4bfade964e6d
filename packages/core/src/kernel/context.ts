// The kernel's types: the configuration every operation reads (a calendar's options resolved,
// config.ts) and the call one operation works with (call.ts starts it). They refer to each other
// (a call carries the configuration; the horizon keeper in the configuration takes a call), so
// they are declared together here, and import only types from below: records, storage, the
// clock and zones, permissions, representations' links and change envelopes.
import type { Authorize, Permissions, Principal, RoleTable } from '../auth/capabilities';
import type { CurrencyDefaults } from '../domain/cost';
import type { EventRecord } from '../model/records';
import type { Storage, StorageTransaction } from '../storage/storage';
import type { Zone } from '../time/zone';
import type { Validity } from '../time/validity';
import type { ArgMemo } from './arg-memo';
import type { LinkBase } from '../represent/links';
import type { ChangeEnvelope } from '../represent/change-schemas';
import type { ChangeEntry } from '../storage/change-store';
import type { ImageProvider, LookupAddresses, UidForm, UserDirectory } from './options';
import type { ListBudget } from './list-budget';
import type { RenderCache } from './render-cache';
import type { PublishDue } from './scheduler';
import type { Preconditions } from './validators';

/** Hears a committed change (`calendar.on('change', …)`), as webhooks carry it. */
export type ChangeListener = (change: ChangeEnvelope) => void;

/** The listeners of a calendar's committed changes (changes/change-events.ts makes them). */
export interface ChangeEvents {
  on(listener: ChangeListener): () => void;
  off(listener: ChangeListener): void;
  /**
   * Hears that a committed transaction queued webhook deliveries (the sender's cue to look at
   * the outbox: a write that queued none gives it nothing to send).
   */
  onQueued(listener: () => void): () => void;
  /** Tells every listener of each entry, in order, and the `onQueued` listeners when `deliveries` were queued. */
  emit(entries: readonly ChangeEntry[], deliveries: number): void;
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
  /** Keeps the recurrence horizon (events/series-horizon.ts). */
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

/** The recurrence limits of a calendar (CalendarOptions.recurrence). */
export interface RecurrenceSettings {
  /** Unbounded series are materialised this many months ahead of now (0: unbounded rules are refused). */
  readonly horizonMonths: number;
  /** Reads past the horizon extend it, up to this many months ahead of now. */
  readonly maxHorizonMonths: number;
  /** The most occurrences one series may have (as materialised). */
  readonly maxOccurrences: number;
}

export interface HorizonKeeper {
  /**
   * False when the horizon surely does not lag at `now` (no storage read, no date arithmetic on
   * most calls); true when `roll` has something to check.
   */
  lags(now: number): boolean;
  /** Moves the horizon to `horizonMonths` (and a month) ahead of now when it lags; at most one storage read per day otherwise. */
  roll(call: Call): Promise<void>;
  /** Makes sure series are materialised up to `until` (capped at `maxHorizonMonths` ahead of now); true when it extended them. */
  reach(call: Call, until: number): Promise<boolean>;
  /**
   * The horizon a series write materialises to: the stored one, `horizonMonths` ahead of now,
   * or as far as a list has reached, whichever is latest (a list that reached past the horizon
   * while no series was open stored nothing, but it is known as reached).
   */
  forWrite(call: Call): Promise<number>;
}

/**
 * What a list's validator was made at: the storage's change counter, and the instants
 * [from, until) over which its dates (the default window, relative dates) read the same.
 */
export interface ListStability extends Validity {
  readonly change: number;
}

/** Who calls, and from where. */
export interface CallContext {
  /** The caller; omitted for anonymous calls. */
  readonly principal?: Principal;
  /** Where the site and the API are reached, for the URLs in representations. */
  readonly links?: LinkBase;
  /**
   * Conditions on the state of the record a write addresses (HTTP `If-Match`,
   * `If-None-Match`), checked inside the write's transaction: a write whose condition fails
   * changes nothing and throws `precondition_failed`.
   */
  readonly preconditions?: Preconditions;
}

export interface Call {
  readonly config: CalendarConfig;
  readonly storage: Storage;
  readonly permissions: Permissions;
  readonly principal: Principal | undefined;
  /** Epoch ms, read once per call. */
  readonly now: number;
  readonly links: LinkBase;
  readonly args: ArgContext;
  readonly preconditions: Preconditions | undefined;
}

/** A call inside a write transaction: what it writes is stamped with the transaction's change. */
export interface WriteCall extends Call {
  readonly storage: StorageTransaction;
}

/** What validation may consult beyond the value itself. */
export interface ArgContext {
  readonly storage: Storage;
  readonly config: CalendarConfig;
  readonly permissions: Permissions;
  /** Epoch ms of this call. */
  readonly now: number;
  /** Values resolved during validation and reused by the operation (e.g. images). */
  readonly memo: ArgMemo;
}
