// The representations of keeping a copy in sync, declared once as the other representations
// are (schemas.ts): the change envelope of in-process events and webhook payloads, the
// `/changes` page, and webhook endpoints. /doc is generated from these.
import * as v from 'valibot';
import { eventSchema, organizerSchema, termSchema, venueSchema } from './schemas';

const str = (description: string) => v.pipe(v.string(), v.description(description));
const int = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));
const kind = v.pipe(v.picklist(['event', 'venue', 'organizer', 'category', 'tag']), v.description('The kind of record'));

const ids = (description: string) => v.pipe(v.array(v.pipe(v.number(), v.integer())), v.description(description));

/** What a change of a series did to its occurrences. */
export const occurrenceActionsSchema = v.pipe(v.object({
  created: ids('Occurrences stored by the change'),
  updated: ids('Occurrences changed by it (exceptions keep their own changes)'),
  trashed: ids('Occurrences moved to the trash by it (the series was)'),
  deleted: ids('Occurrences removed for good: no longer in the rule, or the series is one event again'),
}), v.description('Sent with every change of a series: what it did to its occurrences, which get no change of their own'));

/** What changed: in-process change events and webhook payloads carry this. */
export const changeEnvelopeSchema = v.object({
  type: str('The event type, <kind>.<action>: event.created, venue.updated, category.deleted…'),
  id: int('The record ID'),
  revision: int('The record\'s revision after the change (its last one, for a deletion)'),
  timestamp: str('When the change was made, ISO 8601 in UTC'),
  series: v.optional(int('Sent when the record is one occurrence of a series changed on its own (an exception): the series ID')),
  occurrences: v.optional(occurrenceActionsSchema),
});

/** The occurrences a change of a series affected, for a copy: as they are now, or to remove. */
export const changedOccurrencesSchema = v.pipe(v.object({
  records: v.pipe(v.array(eventSchema), v.description('Occurrences as their list shows them to you now: put each into your copy, replacing what you hold')),
  deleted: ids('Occurrences to remove from your copy: removed, trashed, or no longer visible to you'),
}), v.description('Sent with a series: the occurrences its changes since the token affected (they appear nowhere else in the answer for those changes)'));

/** A record a reader may no longer see: deleted, trashed, or no longer visible to it. */
export const tombstoneSchema = v.object({
  type: kind,
  id: int('The record ID'),
  deleted: v.pipe(v.literal(true), v.description('Remove the record from your copy')),
  occurrences: v.optional(changedOccurrencesSchema),
});

/** A record as it is now, in the representation its list gives. */
export const changedRecordSchema = v.object({
  type: kind,
  id: int('The record ID'),
  deleted: v.pipe(v.literal(false), v.description('Put the record into your copy, replacing what you hold')),
  revision: int('The record\'s revision'),
  record: v.pipe(v.union([eventSchema, venueSchema, organizerSchema, termSchema]), v.description('The record as its list shows it to you (a series, which carries recurrence, is never listed: its occurrences are)')),
  occurrences: v.optional(changedOccurrencesSchema),
});

export const changesSchema = v.object({
  changes: v.pipe(v.array(v.union([changedRecordSchema, tombstoneSchema])), v.description('The records changed after the token, in the order of their last change; a page may be empty while has_more is true')),
  next_token: str('Where to continue: send it as `since` next time'),
  has_more: v.pipe(v.boolean(), v.description('More changes are waiting: ask again at once with next_token')),
  next_rest_url: str('This route with next_token'),
  full_sync_required: v.optional(v.pipe(v.literal(true), v.description('Sent when no token was: list every collection first, then follow the changes from next_token'))),
});

/** How deliveries to an endpoint are going: what answers the question "why has it not arrived?". */
export const webhookDeliveryStatusSchema = v.pipe(v.object({
  last_attempt: v.pipe(v.nullable(v.string()), v.description('When the last attempt was made, ISO 8601 in UTC; null before the first')),
  last_status: v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description('The HTTP status of the last attempt; null when none was received (refused address, network error, time-out) or before the first')),
  last_error: v.pipe(v.nullable(v.string()), v.description('Why the last attempt failed (such as "HTTP 503", "connect ECONNREFUSED 203.0.113.7:443", "refused: 10.0.0.5 is a private address …"); null when it succeeded')),
  consecutive_failures: int('Failed attempts since the last one that succeeded'),
  waiting: int('Deliveries waiting to be sent (or sent again)'),
  failed: int('Deliveries whose attempts ran out, kept for the change log\'s retention period'),
  next_attempt: v.pipe(v.nullable(v.string()), v.description('When the next waiting delivery is due, ISO 8601 in UTC (now when one is due already); null when none is waiting')),
}), v.description('The endpoint\'s deliveries: its last attempt and the outbox'));

export const webhookEndpointSchema = v.object({
  id: str('The endpoint ID (ep_…)'),
  url: str('Where deliveries are POSTed'),
  description: str('What the endpoint is for'),
  types: v.pipe(v.array(v.string()), v.description('The event types delivered; empty: every type')),
  enabled: v.pipe(v.boolean(), v.description('Whether deliveries are made')),
  disabled_reason: v.pipe(v.nullable(v.string()), v.description('gone: the endpoint answered 410; manual: disabled through the API or the command line')),
  created: str('When it was registered, ISO 8601 in UTC'),
  updated: str('When it was last changed, ISO 8601 in UTC'),
  delivery: webhookDeliveryStatusSchema,
  secret: v.optional(str('The signing secret (whsec_…), on creation and single reads')),
});

export const webhookEndpointListSchema = v.object({ webhooks: v.array(webhookEndpointSchema) });

/** The schemas of these representations, by the names /doc gives them. */
export const SYNC_REPRESENTATIONS = {
  ChangeEnvelope: changeEnvelopeSchema,
  OccurrenceActions: occurrenceActionsSchema,
  ChangedOccurrences: changedOccurrencesSchema,
  ChangedRecord: changedRecordSchema,
  Tombstone: tombstoneSchema,
  Changes: changesSchema,
  WebhookEndpoint: webhookEndpointSchema,
  WebhookDeliveryStatus: webhookDeliveryStatusSchema,
  WebhookEndpointList: webhookEndpointListSchema,
} as const;

export type ChangeEnvelope = v.InferOutput<typeof changeEnvelopeSchema>;
export type ChangedOccurrencesJson = v.InferOutput<typeof changedOccurrencesSchema>;
export type TombstoneJson = v.InferOutput<typeof tombstoneSchema>;
export type ChangedRecordJson = v.InferOutput<typeof changedRecordSchema>;
export type ChangesJson = v.InferOutput<typeof changesSchema>;
export type WebhookEndpointJson = v.InferOutput<typeof webhookEndpointSchema>;
export type WebhookEndpointListJson = v.InferOutput<typeof webhookEndpointListSchema>;
