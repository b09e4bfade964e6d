// The stored shape of accounts: the users a server knows and the API tokens that act as them.
// Tokens are kept only as SHA-256 hashes; the token itself is shown once, when it is created.

/** A user: who a token acts as, with the role that decides what it may do. */
export interface UserRecord {
  readonly id: number;
  /**
   * The login name, unique compared case-insensitively (as WordPress compares logins): the
   * user name of HTTP Basic credentials with an application password.
   */
  readonly name: string;
  /** A role of the role table (`administrator`, `editor`, `author`, `contributor`, `subscriber`). */
  readonly role: string;
  /** When the user was added, epoch milliseconds. */
  readonly created: number;
}

/**
 * How a token is presented: `bearer` as `Authorization: Bearer <token>`; `application-password`
 * as the password of HTTP Basic credentials with the user's name, as WordPress application
 * passwords are sent.
 */
export type TokenKind = 'bearer' | 'application-password';

export const TOKEN_KINDS: readonly TokenKind[] = ['bearer', 'application-password'];

export interface TokenRecord {
  /** A short public id (lowercase hex), for listing and revoking; a bearer token starts with it. */
  readonly id: string;
  readonly userId: number;
  readonly kind: TokenKind;
  /** What the token is for, as its creator named it ("" when unnamed). */
  readonly label: string;
  /** SHA-256 of the token (of an application password without its spaces), lowercase hex. */
  readonly hash: string;
  /** Epoch milliseconds. */
  readonly created: number;
  /** When it stops working, epoch milliseconds; null for never. */
  readonly expires: number | null;
}

/** The login name's key: names are compared case-insensitively. */
export function userNameKey(name: string): string {
  return name.toLowerCase();
}
