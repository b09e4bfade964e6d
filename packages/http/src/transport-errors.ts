// Refusals of a request's transport, before any calendar operation runs: a body that is not
// JSON, or one larger than the handler accepts. They belong to HTTP, not to the calendar, so
// they are not CalendarErrors; the handler answers them as it answers those (wire-errors.ts).
import { english, type Message } from '@evcal/core';

export type TransportErrorCode =
  /** The request body is not valid JSON. details: { jsonErrorCode, jsonErrorMessage } */
  | 'invalid_json'
  /** The request body is JSON, but not an object of parameters. */
  | 'body_not_object'
  /** The request body is larger than the limit. details: { limit } */
  | 'payload_too_large';

export class TransportError extends Error {
  override readonly name = 'TransportError';
  /** The message as a template and values; `message` is its English text. */
  readonly text: Message;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(readonly code: TransportErrorCode, text: Message, details: Readonly<Record<string, unknown>> = {}) {
    super(english(text));
    this.text = text;
    this.details = details;
  }
}

export function isTransportError(error: unknown): error is TransportError {
  return error instanceof TransportError;
}
