// Which addresses webhooks are delivered to. Receivers are untrusted: an administrator who
// could register `http://169.254.169.254/` or `http://10.0.0.5:6379/` would make the server
// probe its own network or a cloud metadata service (SSRF). So only public unicast addresses
// are delivered to unless private ones are allowed (a receiver on the same machine or network:
// tests, intranets). The same rule is applied twice: when an endpoint is registered (its
// address, or the addresses its name resolves to now, so that the mistake is told at once) and
// at every delivery (names resolve anew: @evcal/http createWebhookSender). The ranges come from
// ipaddr.js, which classifies every IPv4 and IPv6 form (IPv4-mapped IPv6 included) by its
// IANA special-purpose registries, rather than from parsing of our own.
import ipaddr from 'ipaddr.js';
import type { LookupAddresses } from '../kernel/options';


/** What makes an address one deliveries refuse, in words: "a loopback address"; undefined for a public unicast one. */
export function refusedAddressKind(ip: string): string | undefined {
  const text = ip.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return 'not an IP address';
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1) is what it maps to.
  const address = ipaddr.process(text);
  const range = address.range();
  switch (range) {
    // ipaddr.js calls IPv4-compatible IPv6 (::/96, deprecated: ::7f00:1 is URL's spelling of
    // [::127.0.0.1]) unicast (whitequark/ipaddr.js#203, open): refused here.
    case 'unicast': return address instanceof ipaddr.IPv6 && address.parts.slice(0, 6).every((part) => part === 0) ? 'an IPv4-compatible address' : undefined;
    case 'loopback': return 'a loopback address';
    case 'private': case 'uniqueLocal': return 'a private address';
    case 'linkLocal': return 'a link-local address';
    case 'unspecified': return 'the unspecified address';
    case 'carrierGradeNat': return 'a shared (carrier-grade NAT) address';
    case 'multicast': case 'broadcast': return `a ${range} address`;
    // Addresses that embed or translate an IPv4 one (NAT64, 6to4, Teredo) could reach a private one.
    case 'rfc6052': case 'rfc6145': case '6to4': case 'teredo': return 'an address translating to IPv4';
    default: return 'a reserved address';
  }
}

/** Whether deliveries refuse this IP address unless private addresses are allowed (anything that is not an IP address is refused). */
export function isPrivateAddress(ip: string): boolean {
  return refusedAddressKind(ip) !== undefined;
}

/**
 * Why deliveries to `url` are refused, or undefined when they are not: its host is an IP
 * address deliveries refuse, a `localhost` name (RFC 6761: always loopback), or a name
 * `lookup` resolves to such an address. A name that does not resolve now is not refused (it
 * may later; the attempts then say why they fail).
 */
export async function webhookUrlRefusal(url: string, lookup?: LookupAddresses): Promise<string | undefined> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'not a URL';
  }
  if (ipaddr.isValid(host)) {
    const kind = refusedAddressKind(host);
    return kind && `${host} is ${kind}`;
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return `${host} is a loopback name`;
  if (!lookup) return undefined;
  let addresses: readonly string[];
  try {
    addresses = await lookup(host);
  } catch {
    return undefined;
  }
  for (const address of addresses) {
    const kind = refusedAddressKind(address);
    if (kind) return `${host} resolves to ${address}, ${kind}`;
  }
  return undefined;
}

/** `url` as logs show it: without credentials, query or fragment (they may carry secrets). */
export function loggableUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
