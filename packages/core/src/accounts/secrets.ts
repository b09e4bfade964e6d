// The secrets of accounts: tokens made from the platform's cryptographic random source, kept
// as SHA-256 hashes and compared in constant time. WebCrypto only, so core runs on any
// web-standard runtime. A token carries 256 bits (an application password about 143), so a
// single unsalted SHA-256 is enough: there is nothing to guess from a list of hashes.

/** `evcal_<id>_<secret>`: the id names the stored token, so checking one reads one record. */
const BEARER = /^evcal_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The length of an application password, as WordPress makes them (24 letters and digits). */
const APPLICATION_PASSWORD_LENGTH = 24;

/** A new token id: 12 lowercase hex digits. */
export function newTokenId(): string {
  return [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new bearer token for the token `id`: 32 random bytes after the id. */
export function newBearerToken(id: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (ch) => ({ '+': '-', '/': '_', '=': '' })[ch]!);
  return `evcal_${id}_${secret}`;
}

/** The token id a bearer token names, or undefined when it is not one of ours. */
export function bearerTokenId(token: string): string | undefined {
  return BEARER.exec(token)?.[1];
}

/**
 * A new application password: 24 letters and digits, as WordPress generates them, shown in
 * groups of four (`abcd EFGH 1234 …`); clients may send it with or without the spaces.
 */
export function newApplicationPassword(): string {
  const chars: string[] = [];
  // Rejection sampling: bytes of 248 and above would favour the first letters.
  const limit = 256 - (256 % ALPHANUMERIC.length);
  while (chars.length < APPLICATION_PASSWORD_LENGTH) {
    for (const b of crypto.getRandomValues(new Uint8Array(32))) {
      if (b < limit && chars.length < APPLICATION_PASSWORD_LENGTH) chars.push(ALPHANUMERIC[b % ALPHANUMERIC.length]!);
    }
  }
  return chars.join('').replace(/(.{4})(?=.)/g, '$1 ');
}

/** An application password as it is hashed: without anything but letters and digits (as WordPress reads them). */
export function normaliseApplicationPassword(password: string): string {
  return password.replace(/[^A-Za-z0-9]/g, '');
}

/** SHA-256 of the UTF-8 text, lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether two hashes are equal, in time that depends only on their length (hashes have one
 * length), so that a response time says nothing about how much of a hash was guessed.
 */
export function hashesEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
