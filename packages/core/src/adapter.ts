// @evcal/core/adapter: what storage adapter authors use: the storage interface, the
// normalised queries adapters receive, the reference semantics every adapter must agree with
// (memory and file storage run them; SQL is compared against them), the storage errors, and
// the records and helpers adapters persist and fold. Prove an adapter with
// @evcal/storage-test-suite.

export type {
  Storage, StorageTransaction, StorageCapabilities, IdSequences, EventCollection, LinkedPostCollection, TermCollection,
} from './storage/storage';
export { storageError, isStorageConflict } from './storage/storage-errors';
export type { StorageErrorCode } from './storage/storage-errors';
export { CalendarError, isCalendarError } from './errors';
export type { CalendarErrorCode } from './errors';
export { msg } from './messages';
export type { Message } from './messages';

export { MAX_ID, POST_STATUSES, WRITABLE_STATUSES } from './model/records';
export type {
  EventRecord, VenueRecord, OrganizerRecord, TermRecord, PostRecord, PostStatus, PostKind, Taxonomy,
  ImageRecord, ImageSizeRecord, LinkedPostRecord,
} from './model/records';

export type {
  EventQuery, EventSortKey, GeoFilter, InstantRange, LinkedPostQuery, LinkedPostSortKey, LinkedEventCondition,
  TermQuery, TermSortKey, TermSortField, Page, CountedTerm, Paging, SortDirection, OwnedBy,
} from './query/query-types';

// The reference query semantics.
export {
  matchesEventQuery, compareEvents, runEventQuery, eventDistanceKm, haversineKm, paginate, searchableTexts, statusMatches, inRange,
  EVENT_QUERY_FILTERS,
} from './query/event-engine';
export type { EventQueryContext } from './query/event-engine';
export { matchesLinkedPostQuery, compareLinkedPosts, runLinkedPostQuery, indexEventsByLink, linkedPostSearchTexts } from './query/linked-post-engine';
export type { LinkedPostKind, LinkedEventsOf } from './query/linked-post-engine';
export { runTermQuery, compareTerms, countEventsByTerm, withDescendants } from './query/term-engine';
export { foldText, eventSearchWords, fragmentWords } from './query/text-match';

// What file-backed adapters write and read, and the instants they store.
export { encodeDataset, decodeDataset, datasetJsonBytes } from './dataset/codec';
export type { EncodedDataset, RecordSet } from './dataset/codec';
export { formatUtc } from './time/wall-clock';
