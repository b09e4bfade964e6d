// createWebhookSender against real receivers over HTTP: deliveries verified by the
// standardwebhooks package (what receivers use), answers and Retry-After passed on,
// redirects not followed, time-outs, and private addresses refused unless allowed (also
// behind a host name).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createWebhookSender, isPrivateAddress, lookupAddresses, signWebhook } from '@evcal/http';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A receiver on 127.0.0.1 answering with `answer`; records what it gets. */
async function receiver(answer: (res: import('node:http').ServerResponse) => void = (res) => res.writeHead(204).end()): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => {
      received.push({ headers: req.headers, body });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

const message = (url: string, body = '{"type":"event.created","id":12,"revision":3,"timestamp":"2026-11-22T12:00:00.000Z"}') => ({
  url, secret: SECRET, id: 'msg_abc_3_0', timestamp: Math.floor(Date.now() / 1000), body,
});

describe('createWebhookSender', () => {
  it('sends what the standardwebhooks package verifies', async () => {
    const r = await receiver();
    const send = createWebhookSender({ allowPrivateAddresses: true });
    const m = message(r.url, '{"type":"event.created","id":12,"revision":3,"timestamp":"2026-11-22T12:00:00.000Z","note":"é ✓"}');
    expect(await send(m)).toEqual({ status: 204, retryAfter: null });
    const [got] = r.received;
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['webhook-id']).toBe('msg_abc_3_0');
    const payload = new Webhook(SECRET).verify(got!.body, got!.headers as Record<string, string>);
    expect(payload).toEqual(JSON.parse(m.body));
    // A tampered body or another secret fails verification.
    expect(() => new Webhook(SECRET).verify(`${got!.body} `, got!.headers as Record<string, string>)).toThrow();
    expect(() => new Webhook('whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0').verify(got!.body, got!.headers as Record<string, string>)).toThrow();
  });

  it('signs as the specification\'s example does', () => {
    // https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md (signature scheme example)
    const signed = signWebhook(SECRET, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signed).toBe(new Webhook(SECRET).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), '{"test": 2432232314}'));
  });

  it('passes on the status and Retry-After, and follows no redirect', async () => {
    const busy = await receiver((res) => res.writeHead(503, { 'retry-after': '120' }).end('busy'));
    const moved = await receiver((res) => res.writeHead(302, { location: 'http://127.0.0.1:9/' }).end());
    const send = createWebhookSender({ allowPrivateAddresses: true });
    expect(await send(message(busy.url))).toEqual({ status: 503, retryAfter: '120' });
    expect(await send(message(moved.url))).toEqual({ status: 302, retryAfter: null });
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const silent = await receiver(() => undefined);
    const send = createWebhookSender({ allowPrivateAddresses: true, timeoutMs: 200 });
    await expect(send(message(silent.url))).rejects.toThrow('no answer within 200 ms');
  });

  it('refuses private and loopback addresses unless allowed, by address or by name', async () => {
    const r = await receiver();
    const send = createWebhookSender();
    await expect(send(message(r.url))).rejects.toThrow(/refused: 127\.0\.0\.1/);
    await expect(send(message(r.url.replace('127.0.0.1', 'localhost')))).rejects.toThrow(/refused: localhost resolves to/);
    await expect(send(message('http://[::1]:9/hook'))).rejects.toThrow(/refused/);
    await expect(send(message('http://[::ffff:10.0.0.1]:9/hook'))).rejects.toThrow(/refused/);
    expect(r.received).toEqual([]);
  });

  it('says what a refused address is and how to allow it, by address or by name', async () => {
    const send = createWebhookSender();
    const how = '(deliveries to private addresses need evcal serve --webhook-allow-private, or createWebhookSender({ allowPrivateAddresses: true }))';
    await expect(send(message('http://169.254.169.254/latest'))).rejects.toThrow(`refused: 169.254.169.254 is a link-local address ${how}`);
    await expect(send(message('http://[fd00::7]:9/hook'))).rejects.toThrow(`refused: fd00::7 is a private address ${how}`);
    await expect(send(message('http://localhost:9/hook'))).rejects.toThrow(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address \(deliveries to private addresses need evcal serve --webhook-allow-private/);
  });

  it('looks up every address of a name for the check at registration', async () => {
    expect(await lookupAddresses('localhost')).toEqual(expect.arrayContaining(['127.0.0.1']));
    await expect(lookupAddresses('no-such-host.invalid')).rejects.toThrow(/ENOTFOUND|EAI_AGAIN/);
  });

  it.each([
    ['127.0.0.1', true], ['10.1.2.3', true], ['172.16.0.1', true], ['172.32.0.1', false], ['192.168.1.1', true], ['169.254.169.254', true],
    ['100.64.0.1', true], ['0.0.0.0', true], ['224.0.0.1', true], ['8.8.8.8', false], ['93.184.216.34', false],
    ['::1', true], ['::', true], ['fe80::1', true], ['fd00::1', true], ['::ffff:127.0.0.1', true], ['::ffff:8.8.8.8', false],
    ['::ffff:7f00:1', true], ['::ffff:808:808', false], ['2606:4700:4700::1111', false], ['not an address', true],
    // Deprecated site-local, and 6to4 (which carries an IPv4 address, 127.0.0.1 here).
    ['fec0::1', true], ['2002:7f00:1::', true],
    // IPv4-compatible (::/96), as URLs write [::127.0.0.1]: ipaddr.js calls it unicast (its #203).
    ['::7f00:1', true], ['::808:808', true],
  ])('isPrivateAddress(%s) is %s', (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});
