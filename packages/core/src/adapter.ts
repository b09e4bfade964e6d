// @evcal/core/adapter: what storage adapter authors use: the storage interface, the
// normalised queries adapters receive, the reference semantics every adapter must agree with
// (memory and file storage run them; SQL is compared against them), the storage errors, and
// the records and helpers adapters persist and fold. Prove an adapter with
// @evcal/storage-test-suite.

export type {
  Storage, StorageTransaction, StorageCapabilities, StorageReadiness, IdSequences, EventCollection, LinkedPostCollection,
  TermCollection, UserCollection, TokenCollection,
} from './storage/storage';
// The change log, webhook endpoints and their outbox, kept in the write transaction.
export { CHANGE_KINDS } from './storage/change-store';
export type {
  ChangeKind, ChangeAction, ChangeEntry, ChangeLog, ChangeLogState, ChangePosition, OccurrenceActions, PostState, StoredChanges,
  WebhookStore, WebhookEndpointRecord, WebhookDelivery, DeliveryKey, DeliveryOutcome, WebhookAttempt, WebhookEndpointAttempts, WebhookEndpointStatus,
} from './storage/change-store';
// The answers of writes sent with an idempotency key, kept in the write transaction.
export type { IdempotencyRecord, IdempotencyStore } from './storage/idempotency-store';
export { storageError, isStorageConflict, isStorageFault } from './storage/storage-errors';
export type { StorageErrorCode } from './storage/storage-errors';
export { writeFaults, FREED } from './storage/write-faults';
export type { WriteFaults, WriteFaultsOptions } from './storage/write-faults';
export { CalendarError, isCalendarError } from './domain/errors';
export type { CalendarErrorCode } from './domain/errors';
export { msg } from './domain/messages';
export type { Message } from './domain/messages';

export { MAX_ID, POST_STATUSES, WRITABLE_STATUSES, OVERRIDABLE_FIELDS } from './model/records';
export type {
  RecurrenceRecord, OccurrenceRecord, EventOverrides,
  EventRecord, VenueRecord, OrganizerRecord, TermRecord, PostRecord, PostStatus, PostKind, Taxonomy,
  ImageRecord, ImageSizeRecord, LinkedPostRecord,
} from './model/records';
export { TOKEN_KINDS, userNameKey } from './model/accounts';
export type { TokenKind, TokenRecord, UserRecord } from './model/accounts';
// Occurrence ids: a series' occurrences are events whose ids derive from it (docs/recurrence.md).
export { occurrenceId, isOccurrenceId, decodeOccurrenceId } from './model/occurrence-id';

export type {
  EventQuery, EventRecords, EventSortKey, GeoFilter, InstantRange, LinkedPostQuery, LinkedPostSortKey, LinkedEventCondition,
  TermQuery, TermSortKey, TermSortField, Page, CountedTerm, Paging, SortDirection, OwnedBy,
} from './query/query-types';

// The reference query semantics.
export {
  matchesEventQuery, recordsMatch, compareEvents, eventComparator, runEventQuery, eventDistanceKm, haversineKm, paginate, searchableTexts, statusMatches,
  inRange, modifiedIn, modifiedBounds, eventSearchText, searchTextMatches, SEARCH_TEXT_SEPARATOR,
} from './query/event-engine';
export type { EventQueryContext } from './query/event-engine';
// Every key of an event query and what it does; what a shortcut may answer of a query.
export { EVENT_QUERY_KEYS, EVENT_QUERY_FILTERS, splitEventQuery } from './query/event-query-keys';
export type { EventQueryCoverage, EventQueryKeyRole, EventQuerySplit } from './query/event-query-keys';
export { matchesLinkedPostQuery, compareLinkedPosts, runLinkedPostQuery, indexEventsByLink, linkedPostSearchTexts } from './query/linked-post-engine';
export type { LinkedPostKind, LinkedEventsOf } from './query/linked-post-engine';
export { runTermQuery, compareTerms, countEventsByTerm, withDescendants } from './query/term-engine';
export { foldText, eventSearchWords, fragmentWords } from './query/text-match';

// What file-backed adapters write and read, and the instants they store.
export { encodeDataset, decodeDataset, datasetJsonBytes } from './dataset/codec';
export type { EncodedDataset, RecordSet } from './dataset/codec';
export { formatUtc } from './time/wall-clock';
