// Why an account operation was refused, for the operator who asked (the CLI prints it): a
// code to branch on and a message to act on. Clients of the API never see these.

export type AccountErrorCode =
  /** An argument is not acceptable (a name, a role, an id, an expiry). */
  | 'invalid'
  /** No user or token by that id or name. */
  | 'not_found'
  /** A user with that id or name exists already. */
  | 'exists';

export class AccountError extends Error {
  override readonly name = 'AccountError';
  constructor(readonly code: AccountErrorCode, message: string) {
    super(message);
  }
}

export function isAccountError(error: unknown): error is AccountError {
  return error instanceof AccountError;
}
