// The storage contract. Core does ids, slugs, timestamps, normalisation and reference checks;
// an adapter persists records as given and evaluates queries (see query-types.ts), with the
// semantics of the reference engine in ../query (memory and file adapters call it directly;
// SQL adapters compile the same queries). @evcal/storage-test-suite checks both.
import type { TokenRecord, UserRecord } from '../model/accounts';
import type {
  EventRecord, OrganizerRecord, PostStatus, Taxonomy, TermRecord, VenueRecord,
} from '../model/records';
import type {
  CountedTerm, EventQuery, LinkedPostQuery, Page, TermQuery,
} from '../query/query-types';
import type { ChangeLog, WebhookStore } from './change-store';
import type { IdempotencyStore } from './idempotency-store';

/** What an adapter can do, declared rather than sniffed. */
export interface StorageCapabilities {
  /** `transaction` is atomic and isolated: a failure inside leaves nothing written. */
  readonly transactions: boolean;
  /** Data survives the process (a reopened storage sees it). */
  readonly durable: boolean;
}

/** Id sequences: posts (events, venues, organizers) share one, terms another. */
export interface IdSequences {
  /** A fresh id, larger than every id handed out or bumped so far. */
  next(kind: 'post' | 'term'): Promise<number>;
  /**
   * Makes sure later `next` calls return ids larger than `id` (imports keep their ids); with
   * `'change'`, that the storage's last change is at least `id` once this write commits
   * (imports keep the revisions of their records, so later writes must number above them);
   * with `'horizon'`, that the recurrence horizon (the instant, epoch ms, up to which series
   * without an end are materialised) is at least `id`.
   */
  bump(kind: 'post' | 'term' | 'change' | 'horizon', id: number): Promise<void>;
  /** The largest id handed out or bumped so far (0 at first), without taking a new one; the horizon for `'horizon'`. */
  peek(kind: 'post' | 'term' | 'horizon'): Promise<number>;
}

interface RecordCollection<R> {
  get(id: number): Promise<R | undefined>;
  /** The records with these ids that exist, in no particular order. */
  getMany(ids: readonly number[]): Promise<readonly R[]>;
  getBySlug(slug: string): Promise<R | undefined>;
  /** Fails when the id exists. */
  insert(record: R): Promise<void>;
  /** Replaces the record with the same id; fails when it does not exist. */
  replace(record: R): Promise<void>;
  /** Removes the record for good (posts go to the trash through `replace`). */
  delete(id: number): Promise<void>;
}

/** Events, venues and organizers: posts, which have a status. */
interface PostCollection<R> extends RecordCollection<R> {
  /**
   * Moves the posts among `ids` whose status is `from` to `to`, setting their `revision` to
   * `revision`, in one write however many they are (scheduled posts published together).
   * Returns the ids of those posts.
   */
  setStatus(ids: readonly number[], from: PostStatus, to: PostStatus, revision: number): Promise<readonly number[]>;
}

/**
 * Events, series and their occurrences (docs/recurrence.md). Occurrences are events core
 * writes for each series (`occurrence` set, ids above MAX_ID, `parentId` the series) and
 * stores like any other; `list` reads the records its query's `records` names.
 */
export interface EventCollection extends PostCollection<EventRecord> {
  list(query: EventQuery): Promise<Page<EventRecord>>;
  /**
   * Removes a venue, organizer or term from every event that links it, setting those events'
   * `revision` to `revision` (their representation changes). Returns the ids of those events.
   */
  unlink(kind: 'venue' | 'organizer' | Taxonomy, id: number, revision: number): Promise<readonly number[]>;
  /** For each term id, how many events with one of `statuses` use it (absent ids: 0). */
  countByTerm(taxonomy: Taxonomy, termIds: readonly number[], statuses: readonly PostStatus[]): Promise<ReadonlyMap<number, number>>;
}

export interface LinkedPostCollection<R> extends PostCollection<R> {
  list(query: LinkedPostQuery): Promise<Page<R>>;
}

export interface TermCollection extends Omit<RecordCollection<TermRecord>, 'getBySlug'> {
  getBySlug(slug: string): Promise<TermRecord | undefined>;
  /** Terms whose name equals `name` compared folded (case and accents ignored, see foldText), by id. */
  findByName(name: string): Promise<readonly TermRecord[]>;
  list(query: TermQuery): Promise<Page<CountedTerm<TermRecord>>>;
}

/** The users of the server (accounts/accounts.ts checks names, roles and references). */
export interface UserCollection {
  get(id: number): Promise<UserRecord | undefined>;
  /** The user whose name equals `name` compared case-insensitively (`userNameKey`). */
  getByName(name: string): Promise<UserRecord | undefined>;
  /** Every user, by id. */
  list(): Promise<readonly UserRecord[]>;
  /** Fails when the id exists. */
  insert(user: UserRecord): Promise<void>;
  /** Replaces the user with the same id; fails when it does not exist. */
  replace(user: UserRecord): Promise<void>;
  delete(id: number): Promise<void>;
}

/** API tokens, kept as hashes. */
export interface TokenCollection {
  get(id: string): Promise<TokenRecord | undefined>;
  /** The tokens of one user, or every token; by creation time, then id. */
  list(userId?: number): Promise<readonly TokenRecord[]>;
  /** Fails when the id exists. */
  insert(token: TokenRecord): Promise<void>;
  delete(id: string): Promise<void>;
}

/**
 * Whether a storage can serve requests now: `unreachable` when it cannot be read (a database
 * down, a file gone), `schema` when it is reachable but not at the schema this version
 * writes (migrations not applied). A storage that reads but refuses writes is ready with
 * `writable: false`: `full` (its last write found no room, and none has been made since) or
 * `read_only`. `detail` is for operators' logs.
 */
export type StorageReadiness =
  | { readonly ready: true; readonly writable?: true }
  | { readonly ready: true; readonly writable: false; readonly reason: 'full' | 'read_only'; readonly detail: string }
  | { readonly ready: false; readonly reason: 'unreachable' | 'schema'; readonly detail: string };

/**
 * Everything a calendar keeps.
 *
 * Failures are `CalendarError`s with the codes of `StorageErrorCode` (see storage-errors.ts):
 * `conflict` when a concurrent write got in the way (running the transaction again may
 * succeed), `unavailable` when the storage cannot be reached or is closed. Core decides what
 * a conflict answers; adapters never retry a transaction on their own.
 */
export interface Storage {
  readonly capabilities: StorageCapabilities;
  readonly events: EventCollection;
  readonly venues: LinkedPostCollection<VenueRecord>;
  readonly organizers: LinkedPostCollection<OrganizerRecord>;
  readonly categories: TermCollection;
  readonly tags: TermCollection;
  readonly sequences: IdSequences;
  /** Accounts: a write to them is a write transaction like any other (it advances the change counter). */
  readonly users: UserCollection;
  readonly tokens: TokenCollection;
  /** What every write transaction changed, for readers catching up (`/changes`). */
  readonly changes: ChangeLog;
  /** Webhook endpoints and the outbox of their deliveries. */
  readonly webhooks: WebhookStore;
  /** The answers of writes sent with an idempotency key, kept by the write's own transaction. */
  readonly idempotency: IdempotencyStore;
  /**
   * The change counter: advanced by every committed write transaction, to a value every later
   * commit exceeds (0 for a storage never written), as every process sharing the storage sees
   * it. Lists' validators are built on it, so it must be read from the storage, not from a copy
   * in this process.
   */
  lastChange(): Promise<number>;
  /**
   * Optional: the change number of the last committed write transaction, read without
   * waiting, when the storage can: memory holds it, SQLite reads it on its connection between
   * transactions. Undefined when it cannot tell now (a transaction is open on the connection,
   * or every read is a round trip); never a number `lastChange()` would not give. Lets an
   * unchanged list be answered within the turn its request arrived in
   * (`Calendar.listUnchangedNow`).
   */
  changeNow?(): number | undefined;
  /**
   * Runs `fn` as one write transaction: its writes land together or not at all, and what it
   * changes is isolated from every other write transaction of every process sharing the
   * storage: a record it reads by id or slug cannot be changed by another before it commits,
   * and one it reads in a batch (`getMany`) cannot be deleted (docs/storage.md, "Transactions
   * and the change counter"). Writes to different records may run in parallel (the SQL adapter
   * on PostgreSQL); adapters with one writer at a time serialise them whole. A transaction
   * inside a transaction joins it.
   */
  transaction<T>(fn: (tx: StorageTransaction) => Promise<T>): Promise<T>;
  /**
   * Checks, with one cheap read, that the storage is reachable and at the schema this version
   * writes; never throws (a failure is `{ ready: false }`). Health checks call it.
   */
  readiness(): Promise<StorageReadiness>;
  /** Releases connections, files and locks. */
  close(): Promise<void>;
}
// A write made outside `transaction` (e.g. `storage.events.insert`) is a transaction of its own.

/** The storage as one write transaction sees it. */
export interface StorageTransaction extends Storage {
  /**
   * This transaction's number, which core stamps on every record it writes (`revision`): no
   * other committed transaction has it, it is greater than the revision of every record the
   * transaction read to change, and for a write alone it is `lastChange()` + 1. The counter is
   * at least this number once the transaction commits having written something (one that
   * wrote nothing leaves the counter as it was). Read it when it is needed: until it is first
   * read, a storage may give the transaction a newer number (the SQL adapter on PostgreSQL, when
   * a record the transaction locks turns out newer than its number).
   */
  readonly change: number;
}
