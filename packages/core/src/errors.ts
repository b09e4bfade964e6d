// One error type for everything a caller can get wrong or be refused. The codes form a
// closed set; @evcal/http maps each to the wire code, message and status of the reference
// (behaviour.md §6), so core never deals in HTTP statuses.

/** Every refusal core can produce. */
export type CalendarErrorCode =
  /** Required arguments absent. details: { params: string[] } */
  | 'missing_params'
  /** Arguments failed validation. details: { params: Record<name, message>, details: Record<name, {code, message}> } */
  | 'invalid_params'
  /** The request body is not valid JSON. details: { jsonErrorMessage } */
  | 'invalid_json'
  /** The request body is larger than the limit. details: { limit } */
  | 'payload_too_large'
  /** Anonymous caller refused (401 on the wire). */
  | 'unauthenticated'
  /** Authenticated caller refused (403 on the wire). */
  | 'forbidden'
  /** Credentials were sent but do not authenticate. */
  | 'invalid_credentials'
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
  /** The storage cannot be reached or is busy; retrying later may succeed. */
  | 'unavailable'
  /** A dataset could not be imported. details: { path, message } */
  | 'invalid_dataset';

export interface CalendarErrorOptions {
  readonly details?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/** A refusal a client can act on. Anything else thrown by core is a bug or an outage. */
export class CalendarError extends Error {
  override readonly name = 'CalendarError';
  readonly code: CalendarErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: CalendarErrorCode, message: string, options: CalendarErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isCalendarError(e: unknown): e is CalendarError {
  return e instanceof CalendarError;
}

/** A validation failure of one argument, as collected before the error is thrown. */
export interface ParamFailure {
  readonly param: string;
  readonly message: string;
  /** The underlying error code, e.g. `rest_invalid_type`, `event-tickets-not-active`. */
  readonly code?: string;
}

/** The `invalid_params` error for a list of failures, in argument-declaration order. */
export function invalidParams(failures: readonly ParamFailure[]): CalendarError {
  const params: Record<string, string> = {};
  const details: Record<string, { code: string; message: string; data: null }> = {};
  for (const f of failures) {
    if (f.param in params) continue;
    params[f.param] = f.message;
    if (f.code) details[f.param] = { code: f.code, message: f.message, data: null };
  }
  const names = Object.keys(params);
  return new CalendarError('invalid_params', `Invalid parameter(s): ${names.join(', ')}`, {
    details: { params, details },
  });
}

/** Shorthand for one invalid parameter with the reference's plain message. */
export function invalidParam(param: string, message = 'Invalid parameter.', code?: string): CalendarError {
  return invalidParams([{ param, message, ...(code ? { code } : {}) }]);
}
