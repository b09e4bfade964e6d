// @evcal/core: what apps use: the calendar and its typed operations, options, errors,
// messages, roles, the representations, datasets, iCalendar, time helpers.
// Storage adapter authors: @evcal/core/adapter. Transport bindings (@evcal/http):
// @evcal/core/binding.

export { createCalendar } from './calendar/calendar';
export type { Calendar, EventOperations, ChangeOperations } from './calendar/calendar';
export type { LinkedPostOperations } from './linked-posts/linked-posts';
export type { TermOperations } from './terms/terms';
export type {
  CalendarOptions, ChangeLogOptions, IcalOptions, IdempotencyOptions, RecurrenceOptions, WebhookOptions, ImageProvider, UserDirectory,
} from './kernel/options';
export type { CalendarConfig } from './kernel/context';
export { urlImages } from './calendar/config';
export type { CallContext } from './kernel/call';
// Writes sent with an idempotency key (`calendar.idempotent`).
export { IDEMPOTENCY_KEY_RULE } from './kernel/idempotency';
export type { IdempotentRequest, IdempotentOutcome, IdempotentRunner } from './kernel/idempotency';
export type { ListResult, ListPlan, ListStability } from './kernel/list-urls';
export type { KeptRead } from './kernel/kept-reads';
export type * from './events/event-inputs';
export type * from './linked-posts/linked-post-inputs';
export type * from './terms/term-inputs';
export type { ChangesInput } from './changes/change-args';

export { CalendarError, isCalendarError } from './domain/errors';
export { isStorageFault } from './storage/storage-errors';
export type { CalendarErrorCode, ParamFailure } from './domain/errors';
export { english, formatMessage, msg, verbatim } from './domain/messages';
export type { Message, MessageValues } from './domain/messages';

export { DEFAULT_ROLES, permissionsFor } from './auth/capabilities';
export type { Capability, Principal, Permissions, RoleTable, Authorize, AuthorizationCheck } from './auth/capabilities';

// Records: what `tickets`, `images` and `authorize` receive, and what storage keeps.
export { MAX_ID, POST_STATUSES, WRITABLE_STATUSES, OVERRIDABLE_FIELDS } from './model/records';
export type {
  RecurrenceRecord, OccurrenceRecord, EventOverrides,
  EventRecord, VenueRecord, OrganizerRecord, TermRecord, PostRecord, PostStatus, PostKind, Taxonomy,
  ImageRecord, ImageSizeRecord, LinkedPostRecord,
} from './model/records';
/** The storage a calendar runs on (adapters implement it: @evcal/core/adapter), and its readiness check. */
export type { Storage, StorageReadiness } from './storage/storage';

// Accounts: users and API tokens kept in the storage (tokens as hashes).
export { createAccounts } from './accounts/accounts';
export type { Accounts, AccountsOptions, CreatedToken, NewToken, NewUser, PasswordCheck, UserRef } from './accounts/accounts';
export { AccountError, isAccountError } from './accounts/account-error';
export type { AccountErrorCode } from './accounts/account-error';
export { TOKEN_KINDS, userNameKey } from './model/accounts';
export type { TokenKind, TokenRecord, UserRecord } from './model/accounts';

// A single record's result: its value, its validator (ETags) and its JSON text when made; preconditions (If-Match).
export type { Representation } from './kernel/representation';
export { listTagChange } from './kernel/validators';
export { decodeSyncToken } from './changes/sync-token';
export type { SyncToken } from './changes/sync-token';
export type { Preconditions } from './kernel/validators';

// iCalendar: feeds (`calendar.events.feed`) and import.
export type { EventFeed, OpenedFeed, FeedOptions } from './ical/event-feed';
export type { UidForm } from './kernel/options';
export { importIcs } from './ical/ics-import';
export type { ImportIcsOptions, ImportIcsSummary } from './ical/ics-import';
export type { IcsSkipped } from './ical/ics-reader';

// Recurrence: occurrence ids (docs/recurrence.md).
export { occurrenceId, isOccurrenceId, decodeOccurrenceId } from './model/occurrence-id';
export type { RecurrenceSettings } from './events/series-occurrences';

export { importDataset, exportDataset } from './dataset/dataset';
export type { Dataset, ImportOptions, ImportSummary } from './dataset/dataset';
export type { ImportChunks } from './dataset/import-chunks';
export { encodeDataset, decodeDataset, datasetJsonBytes } from './dataset/codec';
export type { EncodedDataset, RecordSet } from './dataset/codec';
// Records built one at a time, for importers that store them their own way (@evcal/migrate).
export { createRecordBuilder } from './dataset/record-builder';
export type { RecordBuilder, ClaimId } from './dataset/record-builder';
export { orderParentsFirst } from './dataset/dataset';

// Time helpers (wall clocks, zones, PHP-compatible parsing).
export { parsePhpTime } from './time/php-time';
export type { ParsedTime, ParseTimeOptions, TimeFrame } from './time/php-time';
export { resolveZone, isValidZoneName, wallToInstant, instantToWall, zoneAbbreviation } from './time/zone';
export type { Zone } from './time/zone';
export { formatWall, parseWall, formatUtc } from './time/wall-clock';
export type { WallClock } from './time/wall-clock';

// Costs as the reference shows them (an event's `cost` and `cost_details`).
export { costValues, displayCost } from './domain/cost';
export type { CostDetails, CurrencyDefaults, CurrencyPosition } from './domain/cost';
/** The date the reference shows for one never set. */
export { ZERO_DATE } from './represent/post-dates';

export type { LinkBase } from './represent/links';
/** The public archive URL of a category or tag (its `url`), for pages that link terms they embed. */
export { termArchiveUrl } from './represent/links';
// The JSON-LD of an event's public page (evcal serve's pages).
export { eventPageJsonLd } from './represent/json-ld';

// The representations, declared once: their types, and the schemas /doc is generated from.
export {
  REPRESENTATIONS, eventSchema, venueSchema, organizerSchema, termSchema, embeddedTermSchema, imageSchema,
  eventListSchema, venueListSchema, organizerListSchema, categoryListSchema, tagListSchema, errorSchema,
} from './represent/schemas';
export type {
  EventJson, VenueJson, OrganizerJson, TermJson, EmbeddedTermJson, ImageJson, EventListJson, VenueListJson,
  OrganizerListJson, CategoryListJson, TagListJson, ErrorJson,
} from './represent/schemas';

// Keeping a copy in sync: the change feed, in-process change events and webhooks.
export { MAX_CHANGES_PER_PAGE } from './changes/change-feed';
export { EVENT_TYPES, changeEnvelope } from './changes/change-envelope';
export type { ChangeListener } from './kernel/context';
export type { WebhookOperations, WebhookCreateInput, WebhookIdInput, WebhookUpdateInput } from './changes/webhook-endpoints';
export { createWebhookDispatcher, DEFAULT_RETRY_SCHEDULE, retryAfterMs, describeNextAttempt } from './changes/webhook-dispatcher';
export type { WebhookDispatcher, WebhookDispatcherOptions, WebhookMessage, WebhookAnswer, WebhookSend, WebhookFailure } from './changes/webhook-dispatcher';
export { CHANGE_KINDS } from './storage/change-store';
export type { ChangeKind, ChangeAction, ChangeEntry, OccurrenceActions, WebhookEndpointRecord, WebhookDelivery, WebhookEndpointStatus } from './storage/change-store';
export { isPrivateAddress, loggableUrl, refusedAddressKind, webhookUrlRefusal } from './changes/webhook-addresses';
export type { LookupAddresses } from './kernel/options';
export {
  SYNC_REPRESENTATIONS, changeEnvelopeSchema, changesSchema, changedRecordSchema, tombstoneSchema, webhookEndpointSchema, webhookEndpointListSchema,
  occurrenceActionsSchema, changedOccurrencesSchema,
} from './represent/change-schemas';
export type {
  ChangeEnvelope, ChangesJson, ChangedRecordJson, ChangedOccurrencesJson, TombstoneJson, WebhookEndpointJson, WebhookEndpointListJson,
} from './represent/change-schemas';
