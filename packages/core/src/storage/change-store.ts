// The storage contract's change log and webhook outbox. Core writes both inside the write
// transaction that makes the change (changes/change-recorder.ts), so a change and its log
// entry and deliveries commit together or not at all; adapters persist them as given.
import type { PostStatus } from '../model/records';

/** The kinds of record the change log follows. */
export type ChangeKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
export const CHANGE_KINDS: readonly ChangeKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];

/**
 * What happened to a record: `trashed` is a post moved to the trash (a status change, still
 * restorable), `deleted` a record removed for good (terms; posts only through the storage).
 */
export type ChangeAction = 'created' | 'updated' | 'trashed' | 'deleted';

/** A post's status and author at one point: what decides who may see it. */
export interface PostState {
  readonly status: PostStatus;
  readonly authorId: number;
}

/** Where a reader of the log stands: the entry at (change, seq) is the next one it reads. */
export interface ChangePosition {
  readonly change: number;
  readonly seq: number;
}

/** One record changed by one write transaction. */
export interface ChangeEntry extends ChangePosition {
  /** The entry's place among those of its transaction (0, 1, …). `change` is the transaction's number. */
  readonly seq: number;
  readonly kind: ChangeKind;
  readonly id: number;
  readonly action: ChangeAction;
  /** The record's revision after the change (before it, for a deletion). */
  readonly revision: number;
  /** When the change was made, epoch ms (the calendar's clock). */
  readonly at: number;
  /** A post's status and author before the change (null: created, or a term). */
  readonly before: PostState | null;
  /** A post's status and author after the change (null: deleted, or a term). */
  readonly after: PostState | null;
  /**
   * The entry of a series (an event that is one, or was one before the change): what the
   * change did to its occurrences, which have no entries of their own in that change.
   */
  readonly occurrences?: OccurrenceActions;
  /** The entry of one occurrence changed on its own (an exception): its series. */
  readonly series?: number;
}

/** What one change did to the occurrences of a series, by action (occurrence ids, ascending). */
export interface OccurrenceActions {
  readonly created: readonly number[];
  readonly updated: readonly number[];
  readonly trashed: readonly number[];
  readonly deleted: readonly number[];
}

/** The identity of a storage's change log, and how much of it was pruned. */
export interface ChangeLogState {
  /** Random, made when the storage was created: tokens of another storage name another log. */
  readonly id: string;
  /** Entries of changes up to this number were pruned (0: none). */
  readonly prunedThrough: number;
}

export interface ChangeLog {
  /** Adds entries (inside a write transaction, with its change number). */
  append(entries: readonly ChangeEntry[]): Promise<void>;
  /** Committed entries at or after `from`, in (change, seq) order, at most `limit`. */
  read(from: ChangePosition, limit: number): Promise<readonly ChangeEntry[]>;
  state(): Promise<ChangeLogState>;
  /**
   * Removes the entries of every change up to the last change logged before `cutoff` (epoch
   * ms), and remembers that change as `prunedThrough`: a write when there is something to
   * prune, and none (no change number taken) otherwise.
   */
  prune(cutoff: number): Promise<void>;
}

/** Everything a storage keeps of its change log and webhooks, as a storage written to one document holds it. */
export interface StoredChanges {
  readonly log: ChangeLogState;
  /** In (change, seq) order. */
  readonly entries: readonly ChangeEntry[];
  readonly endpoints: readonly WebhookEndpointRecord[];
  /** The attempts of each endpoint that had any (absent in documents written before they were kept). */
  readonly endpointAttempts?: readonly WebhookEndpointAttempts[];
  /** In (change, seq) order. */
  readonly deliveries: readonly WebhookDelivery[];
}

/** A registered webhook endpoint. */
export interface WebhookEndpointRecord {
  /** `ep_` and 24 letters and digits. */
  readonly id: string;
  readonly url: string;
  /** `whsec_` and the base64 of the signing key. */
  readonly secret: string;
  /** Event types delivered (`event.created`, …); empty: every type. */
  readonly types: readonly string[];
  readonly description: string;
  readonly enabled: boolean;
  /** Why a disabled endpoint is disabled: `gone` (it answered 410) or `manual`; null while enabled. */
  readonly disabledReason: string | null;
  /** Epoch ms. */
  readonly created: number;
  readonly updated: number;
}

/** Which delivery: one change log entry to one endpoint. */
export interface DeliveryKey extends ChangePosition {
  readonly endpointId: string;
}

/** One message to one endpoint, in the outbox until it is delivered. */
export interface WebhookDelivery extends DeliveryKey {
  /** `webhook-id`: the same on every attempt. */
  readonly messageId: string;
  /** `<kind>:<id>`: deliveries of one record to one endpoint go out in (change, seq) order. */
  readonly recordKey: string;
  readonly type: string;
  /** The JSON body. */
  readonly payload: string;
  /** `pending` until delivered (then removed) or until its attempts ran out (`failed`). */
  readonly state: 'pending' | 'failed';
  readonly attempts: number;
  /** Epoch ms: not sent before. */
  readonly nextAttemptAt: number;
  /** Epoch ms: claimed by a sender until then (null: not claimed). */
  readonly leasedUntil: number | null;
  /** Epoch ms of the last attempt (null: none yet). */
  readonly lastAttemptAt: number | null;
  /** The HTTP status of the last attempt; null when none was received. */
  readonly lastStatus: number | null;
  readonly lastError: string | null;
}

/** An attempt to deliver to an endpoint, as `settle` records it in the endpoint's status. */
export interface WebhookAttempt {
  /** Epoch ms. */
  readonly at: number;
  /** The HTTP status received; null when none was (refused address, network error, time-out). */
  readonly status: number | null;
  /** Why it failed; null when it succeeded (a 2xx answer). */
  readonly error: string | null;
}

/** What an endpoint's attempts were, kept apart from the endpoint (changing one does not touch them). */
export interface WebhookEndpointAttempts {
  readonly endpointId: string;
  /** Epoch ms of the last attempt. */
  readonly lastAttemptAt: number;
  readonly lastStatus: number | null;
  /** The last attempt's error; null when it succeeded. */
  readonly lastError: string | null;
  /** Failed attempts since the last one that succeeded. */
  readonly consecutiveFailures: number;
}

/** An endpoint's status: its attempts (null fields before the first) and its outbox. */
export interface WebhookEndpointStatus {
  readonly endpointId: string;
  readonly lastAttemptAt: number | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly consecutiveFailures: number;
  /** Pending deliveries. */
  readonly waiting: number;
  /** Deliveries whose attempts ran out (kept for the retention period). */
  readonly failed: number;
  /** Epoch ms: the earliest next attempt of a pending delivery; null when none is pending. */
  readonly nextAttemptAt: number | null;
}

/** The outcome of an attempt, as `settle` records it. */
export type DeliveryOutcome =
  | { readonly state: 'delivered' }
  | {
    readonly state: 'pending' | 'failed';
    readonly attempts: number;
    readonly nextAttemptAt: number;
    readonly lastAttemptAt: number | null;
    readonly lastStatus: number | null;
    readonly lastError: string | null;
  };

export interface WebhookStore {
  listEndpoints(): Promise<readonly WebhookEndpointRecord[]>;
  getEndpoint(id: string): Promise<WebhookEndpointRecord | undefined>;
  /** Fails (`conflict`) when the id exists. */
  insertEndpoint(endpoint: WebhookEndpointRecord): Promise<void>;
  /** Fails (`conflict`) when the id does not exist. */
  replaceEndpoint(endpoint: WebhookEndpointRecord): Promise<void>;
  /** Removes the endpoint and its deliveries. */
  deleteEndpoint(id: string): Promise<void>;
  /** Adds deliveries (inside the write transaction whose change they report). */
  enqueue(deliveries: readonly WebhookDelivery[]): Promise<void>;
  /**
   * Leases up to `limit` due deliveries until `leasedUntil` and returns them: pending ones of
   * enabled endpoints whose `nextAttemptAt` has come and whose lease (if any) ran out, and
   * only the first pending one of each endpoint and record. Concurrent claims, from any
   * process, get disjoint sets. Not a write transaction: it does not advance the change
   * counter, and a database adapter must not make it wait for a write transaction.
   */
  claim(options: { readonly now: number; readonly leasedUntil: number; readonly limit: number }): Promise<readonly WebhookDelivery[]>;
  /**
   * Records an attempt: `delivered` removes the delivery; otherwise it is updated and its lease
   * dropped. With `attempt`, the endpoint's status records it too: its last attempt, status and
   * error, and its consecutive failures (one more for a failure, none after a success; counted
   * by the storage, as several senders may settle at once). Not a write transaction either.
   */
  settle(key: DeliveryKey, outcome: DeliveryOutcome, attempt?: WebhookAttempt): Promise<void>;
  /** The status of every endpoint, in no particular order. Counting its outbox may read all of it. */
  statuses(): Promise<readonly WebhookEndpointStatus[]>;
  /**
   * Makes every pending delivery whose next attempt is after `now` due at `now` (leases stay):
   * a sender that starts tries at once what waited. Housekeeping, as `settle`.
   */
  wake(now: number): Promise<void>;
  /** Pending and failed deliveries of an endpoint, in (change, seq) order, at most `limit`. */
  deliveries(endpointId: string, limit: number): Promise<readonly WebhookDelivery[]>;
  /** Removes failed deliveries whose last attempt was before `cutoff`; housekeeping, as `settle`. */
  prune(cutoff: number): Promise<void>;
}
