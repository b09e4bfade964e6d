// Core's error codes and the transport's (transport-errors.ts) -> the reference's wire codes and
// statuses (behaviour reference: "Table of every error"); messages in the handler's language.
import { msg, type CalendarError, type CalendarErrorCode, type Message } from '@evcal/core';
import { translator, type Translator } from './i18n/translator';
import type { TransportError, TransportErrorCode } from './transport-errors';

interface WireError {
  readonly code: string;
  readonly status: number;
}

const WIRE: Record<CalendarErrorCode | TransportErrorCode, WireError> = {
  missing_params: { code: 'rest_missing_callback_param', status: 400 },
  invalid_params: { code: 'rest_invalid_param', status: 400 },
  invalid_json: { code: 'rest_invalid_json', status: 400 },
  body_not_object: { code: 'rest_invalid_json', status: 400 },
  payload_too_large: { code: 'rest_payload_too_large', status: 413 },
  unauthenticated: { code: 'rest_forbidden', status: 401 },
  forbidden: { code: 'rest_forbidden', status: 403 },
  invalid_credentials: { code: 'rest_invalid_token', status: 401 },
  // Application passwords over HTTP Basic: WordPress's codes (wp_authenticate_application_password).
  unknown_user: { code: 'invalid_username', status: 401 },
  unknown_email: { code: 'invalid_email', status: 401 },
  incorrect_password: { code: 'incorrect_password', status: 401 },
  event_not_found: { code: 'rest-event-not-found', status: 404 },
  not_an_event: { code: 'rest-invalid-event-id', status: 400 },
  event_trashed: { code: 'event-no-longer-available', status: 403 },
  event_not_accessible: { code: 'event-not-accessible', status: 403 },
  event_password_protected: { code: 'event-password-protected', status: 403 },
  event_in_trash: { code: 'event-is-in-trash', status: 410 },
  venue_not_accessible: { code: 'venue-not-accessible', status: 403 },
  organizer_not_accessible: { code: 'organizer-not-accessible', status: 403 },
  venue_in_trash: { code: 'venue-is-in-trash', status: 410 },
  organizer_in_trash: { code: 'organizer-is-in-trash', status: 410 },
  event_page_not_found: { code: 'event-archive-page-not-found', status: 404 },
  venue_page_not_found: { code: 'venue-archive-page-not-found', status: 404 },
  organizer_page_not_found: { code: 'organizer-archive-page-not-found', status: 404 },
  could_not_create_venue: { code: 'could-not-create-venue', status: 400 },
  could_not_create_organizer: { code: 'could-not-create-organizer', status: 400 },
  term_exists: { code: 'term_exists', status: 400 },
  // The reference answers 500 (the error carries no status); a taken slug is the client's mistake.
  duplicate_term_slug: { code: 'duplicate_term_slug', status: 400 },
  taxonomy_not_hierarchical: { code: 'rest_taxonomy_not_hierarchical', status: 400 },
  conflict: { code: 'rest_conflict', status: 409 },
  precondition_failed: { code: 'rest_precondition_failed', status: 412 },
  precondition_required: { code: 'rest_precondition_required', status: 428 },
  unavailable: { code: 'rest_service_unavailable', status: 503 },
  // RFC 4918's status for a server out of room; reads go on working meanwhile.
  storage_full: { code: 'rest_insufficient_storage', status: 507 },
  read_only: { code: 'rest_read_only', status: 503 },
  outcome_unknown: { code: 'rest_write_outcome_unknown', status: 503 },
  invalid_dataset: { code: 'invalid-dataset', status: 400 },
  invalid_ical: { code: 'invalid-ical', status: 400 },
  sync_token_expired: { code: 'changes-token-expired', status: 410 },
  sync_token_invalid: { code: 'changes-token-invalid', status: 410 },
  webhook_not_found: { code: 'webhook-not-found', status: 404 },
  // Idempotency-Key (the IETF httpapi draft): a malformed key, a key reused for another request, a repeat while the first runs.
  invalid_idempotency_key: { code: 'rest_invalid_idempotency_key', status: 400 },
  idempotency_key_reused: { code: 'rest_idempotency_key_reused', status: 422 },
  idempotency_key_in_use: { code: 'rest_idempotency_key_in_use', status: 409 },
};

export interface WireErrorBody {
  code: string;
  message: string;
  data: Record<string, unknown> & { status: number };
}

const ENGLISH = translator('en');

/** The wire body and status of a core error, its texts in the translator's language. */
export function wireError(error: CalendarError | TransportError, t: Translator = ENGLISH): WireErrorBody {
  const wire = WIRE[error.code];
  const data: WireErrorBody['data'] = { status: wire.status };
  if (error.code === 'missing_params') data.params = error.details.params;
  if (error.code === 'invalid_params') {
    const params: Record<string, string> = {};
    const details: Record<string, { code: string; message: string; data: null }> = {};
    for (const f of error.failures) {
      params[f.param] = t.message(f.message);
      if (f.code) details[f.param] = { code: f.code, message: params[f.param]!, data: null };
    }
    data.params = params;
    // An empty PHP array is [] on the wire, never {}.
    data.details = Object.keys(details).length > 0 ? details : [];
  }
  if (error.code === 'term_exists') data.term_id = error.details.termId;
  if (error.code === 'invalid_json') {
    data.json_error_code = error.details.jsonErrorCode;
    data.json_error_message = t.message(error.details.jsonErrorMessage as Message);
  }
  return { code: wire.code, message: t.message(error.text), data };
}

/**
 * Seconds a client should wait before trying again (the `Retry-After` header): after a fault of
 * the storage, or a repeat of a write still running; undefined for errors a retry would not cure.
 */
export function retryAfterOf(error: CalendarError | TransportError): number | undefined {
  const fixed = RETRY_AFTER[error.code as keyof typeof RETRY_AFTER];
  if (fixed !== undefined) return fixed;
  // An error that knows when to ask again (a repeat of a write still running).
  const own = 'details' in error ? error.details.retryAfter : undefined;
  return typeof own === 'number' ? own : undefined;
}

const RETRY_AFTER = { unavailable: 5, read_only: 30, outcome_unknown: 5, storage_full: 60 } as const satisfies Partial<Record<CalendarErrorCode, number>>;

/** The body of a route or method that does not exist. */
export function noRoute(t: Translator = ENGLISH): WireErrorBody {
  return { code: 'rest_no_route', message: t.message(msg('No route was found matching the URL and request method.')), data: { status: 404 } };
}

/** The body of a request refused by the rate limit. */
export function tooManyRequests(t: Translator = ENGLISH): WireErrorBody {
  return { code: 'rest_too_many_requests', message: t.message(msg('Too many requests; try again later.')), data: { status: 429 } };
}

/** The body of an unexpected failure: nothing about its cause reaches the client. */
export function internalError(t: Translator = ENGLISH): WireErrorBody {
  return { code: 'rest_internal_error', message: t.message(msg('The server could not complete the request.')), data: { status: 500 } };
}
