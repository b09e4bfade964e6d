// Sending webhooks as Standard Webhooks specifies (https://www.standardwebhooks.com): a POST
// of the JSON payload with `webhook-id`, `webhook-timestamp` and `webhook-signature`
// (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's key).
// Receivers are untrusted addresses: private, loopback and link-local ones are refused (the
// host name's every address is checked, and the connection goes to a checked one), redirects
// are not followed, and an attempt gives up after the time-out.
import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { WebhookAnswer, WebhookMessage, WebhookSend } from '@evcal/core';

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
    if (!allowPrivate && isIP(host) && isPrivateAddress(host)) {
      reject(new Error(`refused: ${host} is a private, loopback or link-local address`));
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

/**
 * Loopback, private, link-local, shared, reserved, documentation, multicast and unspecified
 * addresses; one list per family (a BlockList matches IPv4 addresses against IPv6 rules too).
 */
const BLOCKED_V4 = new BlockList();
const BLOCKED_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED_V4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) BLOCKED_V6.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is one deliveries refuse unless private addresses are allowed. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1, or ::ffff:7f00:1 as URLs write it) is checked as what it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return BLOCKED_V4.check(mapped[1]!, 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return BLOCKED_V4.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return family === 4 ? BLOCKED_V4.check(ip, 'ipv4') : BLOCKED_V6.check(ip, 'ipv6');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails when any address of the name is private: the connection then goes only to checked addresses. */
function publicLookup(hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true, ...(options.family ? { family: Number(options.family) || undefined } : {}) }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) {
      const e: NodeJS.ErrnoException = new Error(`refused: ${hostname} resolves to ${refused.address}, a private, loopback or link-local address`);
      e.code = 'EREFUSED_PRIVATE';
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  return Array.isArray(value) ? value[0] ?? null : value ?? null;
}
