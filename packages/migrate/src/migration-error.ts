// Why a migration stopped before it could finish, as a code a program can branch on and a
// message a person can act on.

export type MigrationErrorCode =
  /** --from is not an http(s) URL. */
  | 'bad_url'
  /** Nothing answers at that address (DNS, refused connection, TLS). */
  | 'unreachable'
  /** A server answers, but there is no API root at that path (404). */
  | 'not_found'
  /** A server answers, but not as The Events Calendar's REST API does. */
  | 'not_reference'
  /** The credentials were refused (401). */
  | 'bad_credentials'
  /** The credentials work but may not read what a migration needs (unpublished records). */
  | 'forbidden'
  /** The source kept failing (5xx, 429 past the retries) or answered something unexpected. */
  | 'http_error';

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  constructor(readonly code: MigrationErrorCode, message: string) {
    super(message);
  }
}

export function isMigrationError(error: unknown): error is MigrationError {
  return error instanceof MigrationError;
}
