// Sending webhooks as Standard Webhooks specifies (https://www.standardwebhooks.com): a POST
// of the JSON payload with `webhook-id`, `webhook-timestamp` and `webhook-signature`
// (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's key).
// Receivers are untrusted addresses: private, loopback and link-local ones are refused (core's
// webhook-addresses.ts decides; the host name is resolved at every attempt and its every
// address checked, and the connection goes to a checked one), redirects are not followed, and
// an attempt gives up after the time-out. A refusal says how to allow private addresses.
import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { refusedAddressKind, type LookupAddresses, type WebhookAnswer, type WebhookMessage, type WebhookSend } from '@evcal/core';

export { isPrivateAddress } from '@evcal/core';

/** Told after every refusal: how to allow private addresses. */
const HOW_TO_ALLOW = 'deliveries to private addresses need evcal serve --webhook-allow-private, or createWebhookSender({ allowPrivateAddresses: true })';

export interface WebhookSenderOptions {
  /** An attempt without an answer after this long fails (and is retried). @default 10000 */
  readonly timeoutMs?: number;
  /**
   * Deliver to private, loopback and link-local addresses too (a receiver on the same machine
   * or network: tests, intranets). Off, such addresses are refused (SSRF).
   * @default false
   */
  readonly allowPrivateAddresses?: boolean;
  /** @default 'evcal-webhooks/1' */
  readonly userAgent?: string;
}

/** A `send` for createWebhookDispatcher, over node:http and node:https. */
export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSend {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const allowPrivate = options.allowPrivateAddresses ?? false;
  const userAgent = options.userAgent ?? 'evcal-webhooks/1';
  return (message: WebhookMessage) => new Promise<WebhookAnswer>((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(message.url);
    } catch {
      reject(new Error('not a URL'));
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const kind = !allowPrivate && isIP(host) ? refusedAddressKind(host) : undefined;
    if (kind) {
      reject(new Error(`refused: ${host} is ${kind} (${HOW_TO_ALLOW})`));
      return;
    }
    const body = Buffer.from(message.body, 'utf8');
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, {
      method: 'POST',
      agent: false,
      ...(allowPrivate ? {} : { lookup: publicLookup }),
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': userAgent,
        'webhook-id': message.id,
        'webhook-timestamp': String(message.timestamp),
        'webhook-signature': signWebhook(message.secret, message.id, message.timestamp, message.body),
      },
    }, (res) => {
      clearTimeout(deadline);
      // The status is the answer; the body is not read.
      resolve({ status: res.statusCode ?? 0, retryAfter: headerValue(res.headers, 'retry-after') });
      res.destroy();
    });
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    req.end(body);
  });
}

/** `v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>`, keyed by the base64 after `whsec_`. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails when any address of the name is private: the connection then goes only to checked addresses. */
function publicLookup(hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true, ...(options.family ? { family: Number(options.family) || undefined } : {}) }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => refusedAddressKind(a.address) !== undefined);
    if (refused) {
      const e: NodeJS.ErrnoException = new Error(`refused: ${hostname} resolves to ${refused.address}, ${refusedAddressKind(refused.address)} (${HOW_TO_ALLOW})`);
      e.code = 'EREFUSED_PRIVATE';
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}

/** Every address of a host name (node:dns), for the calendar's check of endpoints when they are registered (CalendarOptions.webhooks.lookup). */
export const lookupAddresses: LookupAddresses = (hostname) => new Promise((resolve, reject) => {
  dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses.map((a) => a.address))));
});

function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  return Array.isArray(value) ? value[0] ?? null : value ?? null;
}
