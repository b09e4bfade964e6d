// One error type for everything a caller can get wrong or be refused. The codes form a
// closed set; @evcal/http maps each to the wire code, message and status of the reference
// (behaviour reference: "Errors"), so core never deals in HTTP statuses. Messages are `Message`s, so that
// the HTTP layer can answer in the language of the route (messages.ts).
import { english, msg, type Message } from './messages';

/** Every refusal core can produce. */
export type CalendarErrorCode =
  /** Required arguments absent. details: { params: string[] } */
  | 'missing_params'
  /** Arguments failed validation. details: { params: Record<name, message>, details: Record<name, {code, message}> } */
  | 'invalid_params'
  /** Anonymous caller refused (401 on the wire). */
  | 'unauthenticated'
  /** Authenticated caller refused (403 on the wire). */
  | 'forbidden'
  /** Credentials were sent but do not authenticate. */
  | 'invalid_credentials'
  /** HTTP Basic credentials name no user (the reference: `invalid_username`). */
  | 'unknown_user'
  /** HTTP Basic credentials name no user, by an email address (the reference: `invalid_email`). */
  | 'unknown_email'
  /** HTTP Basic credentials name a user, with none of their application passwords (the reference: `incorrect_password`). */
  | 'incorrect_password'
  /** details: { id } */
  | 'event_not_found'
  | 'not_an_event'
  | 'event_trashed'
  | 'event_not_accessible'
  | 'event_password_protected'
  | 'event_in_trash'
  | 'venue_not_accessible'
  | 'organizer_not_accessible'
  | 'venue_in_trash'
  | 'organizer_in_trash'
  | 'event_page_not_found'
  | 'venue_page_not_found'
  | 'organizer_page_not_found'
  | 'could_not_create_venue'
  | 'could_not_create_organizer'
  /** A term with that name exists at that level. details: { termId, hierarchical } */
  | 'term_exists'
  /** details: { slug } */
  | 'duplicate_term_slug'
  | 'taxonomy_not_hierarchical'
  /** The storage refused a write that conflicts with a concurrent one; retrying may succeed. */
  | 'conflict'
  /** A write's precondition (If-Match / If-None-Match) does not hold for the record's current state. */
  | 'precondition_failed'
  /** A write without a precondition where the server requires one (HTTP: 428). */
  | 'precondition_required'
  /** The storage cannot be reached or is busy; retrying later may succeed. */
  | 'unavailable'
  /** The storage has no room for the write (a full disk); reads still work (HTTP: 507). */
  | 'storage_full'
  /** The storage takes no writes (read-only file, a standby); reads still work (HTTP: 503). */
  | 'read_only'
  /** The write may or may not have been committed: its connection failed during the commit (HTTP: 503). */
  | 'outcome_unknown'
  /** A dataset could not be imported. details: { path, message } */
  | 'invalid_dataset'
  /** An iCalendar file could not be imported. details: { line, message } */
  | 'invalid_ical'
  /** A sync token older than the change log's retention: list everything again. */
  | 'sync_token_expired'
  /** A sync token this calendar did not issue (another calendar's, a replaced storage's, or not a token). */
  | 'sync_token_invalid'
  /** No webhook endpoint has this id. details: { id } */
  | 'webhook_not_found'
  /** An idempotency key that breaks its rule (1 to 255 visible ASCII characters; HTTP: a Structured Field string). */
  | 'invalid_idempotency_key'
  /** An idempotency key already used by this caller for another request (another method, address or body). */
  | 'idempotency_key_reused'
  /** A write with this idempotency key is still running; its answer is kept once it ends. details: { retryAfter } (seconds) */
  | 'idempotency_key_in_use';

export interface CalendarErrorOptions {
  readonly details?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/** A refusal a client can act on. Anything else thrown by core is a bug or an outage. */
export class CalendarError extends Error {
  override readonly name = 'CalendarError';
  readonly code: CalendarErrorCode;
  /** The message as a template and values; `message` is its English text. */
  readonly text: Message;
  readonly details: Readonly<Record<string, unknown>>;
  /** For `invalid_params`: each parameter's message, in declaration order. */
  readonly failures: readonly ParamFailure[];

  constructor(code: CalendarErrorCode, text: Message, options: CalendarErrorOptions & { failures?: readonly ParamFailure[] } = {}) {
    super(english(text), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.text = text;
    this.details = options.details ?? {};
    this.failures = options.failures ?? [];
  }
}

export function isCalendarError(e: unknown): e is CalendarError {
  return e instanceof CalendarError;
}

/** A validation failure of one argument, as collected before the error is thrown. */
export interface ParamFailure {
  readonly param: string;
  readonly message: Message;
  /** The underlying error code, e.g. `rest_invalid_type`, `event-tickets-not-active`. */
  readonly code?: string;
}

/** The `invalid_params` error for a list of failures, in argument-declaration order. */
export function invalidParams(failures: readonly ParamFailure[]): CalendarError {
  const first = new Map<string, ParamFailure>();
  for (const f of failures) if (!first.has(f.param)) first.set(f.param, f);
  const unique = [...first.values()];
  const params: Record<string, string> = {};
  const details: Record<string, { code: string; message: string; data: null }> = {};
  for (const f of unique) {
    params[f.param] = english(f.message);
    if (f.code) details[f.param] = { code: f.code, message: english(f.message), data: null };
  }
  return new CalendarError('invalid_params', msg('Invalid parameter(s): {params}', { params: [...first.keys()].join(', ') }), {
    details: { params, details },
    failures: unique,
  });
}

/** The reference's message for most invalid parameters. */
export const INVALID_PARAMETER: Message = msg('Invalid parameter.');

/** Shorthand for one invalid parameter, by default with the reference's plain message. */
export function invalidParam(param: string, message: Message = INVALID_PARAMETER, code?: string): CalendarError {
  return invalidParams([{ param, message, ...(code ? { code } : {}) }]);
}
