// The storage contract. Core does ids, slugs, timestamps, normalisation and reference checks;
// an adapter persists records as given and evaluates queries (see query-types.ts), with the
// semantics of the reference engine in ../query (memory and file adapters call it directly;
// SQL adapters compile the same queries). @evcal/storage-test-suite checks both.
import type {
  EventRecord, OrganizerRecord, PostStatus, Taxonomy, TermRecord, VenueRecord,
} from '../model/records';
import type {
  CountedTerm, EventQuery, LinkedPostQuery, Page, TermQuery,
} from '../query/query-types';

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
  /** Makes sure later `next` calls return ids larger than `id` (imports keep their ids). */
  bump(kind: 'post' | 'term', id: number): Promise<void>;
  /** The largest id handed out or bumped so far (0 at first), without taking a new one. */
  peek(kind: 'post' | 'term'): Promise<number>;
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

export interface EventCollection extends RecordCollection<EventRecord> {
  list(query: EventQuery): Promise<Page<EventRecord>>;
  /** Removes a venue, organizer or term from every event that links it. */
  unlink(kind: 'venue' | 'organizer' | Taxonomy, id: number): Promise<void>;
  /** For each term id, how many events with one of `statuses` use it (absent ids: 0). */
  countByTerm(taxonomy: Taxonomy, termIds: readonly number[], statuses: readonly PostStatus[]): Promise<ReadonlyMap<number, number>>;
}

export interface LinkedPostCollection<R> extends RecordCollection<R> {
  list(query: LinkedPostQuery): Promise<Page<R>>;
}

export interface TermCollection extends Omit<RecordCollection<TermRecord>, 'getBySlug'> {
  getBySlug(slug: string): Promise<TermRecord | undefined>;
  /** Terms whose name equals `name` compared folded (case and accents ignored, see foldText), by id. */
  findByName(name: string): Promise<readonly TermRecord[]>;
  list(query: TermQuery): Promise<Page<CountedTerm<TermRecord>>>;
}

/** Everything a calendar keeps. */
export interface Storage {
  readonly capabilities: StorageCapabilities;
  readonly events: EventCollection;
  readonly venues: LinkedPostCollection<VenueRecord>;
  readonly organizers: LinkedPostCollection<OrganizerRecord>;
  readonly categories: TermCollection;
  readonly tags: TermCollection;
  readonly sequences: IdSequences;
  /**
   * Runs `fn` against a storage whose writes land together or not at all (when
   * `capabilities.transactions`), and are serialised with other transactions.
   */
  transaction<T>(fn: (tx: Storage) => Promise<T>): Promise<T>;
  /** Releases connections, files and locks. */
  close(): Promise<void>;
}
