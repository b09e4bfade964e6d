// A slow or idle client cannot hold a socket of `evcal serve` for minutes: headers, the whole
// request, a kept-alive connection and an idle one each have a bound (each an option), and the
// defaults are short. Real sockets, written by hand to be slow.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { needBuiltCli, startServe } from './support/serve-process';

needBuiltCli();

/** Opens a socket to the server, writes `sent`, and resolves with what it received and when it closed. */
function client(origin: string, sent = ''): { socket: Socket; closed: Promise<{ text: string; afterMs: number }> } {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  const started = Date.now();
  let text = '';
  socket.setEncoding('utf8').on('data', (c: string) => { text += c; });
  socket.on('error', () => undefined);
  if (sent) socket.write(sent);
  return { socket, closed: new Promise((resolve) => socket.on('close', () => resolve({ text, afterMs: Date.now() - started }))) };
}

/** What `closed` resolved to, or 'open' if it still was after `ms`. */
async function within<T>(closed: Promise<T>, ms: number): Promise<T | 'open'> {
  return Promise.race([closed, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);
}

describe('evcal serve bounds what a slow or idle client may hold', { timeout: 60_000 }, () => {
  it('cuts a client that sends its headers too slowly (--headers-timeout), with 408', async () => {
    const server = await startServe(['--headers-timeout', '1']);
    const { socket, closed } = client(server.origin, 'GET /cal/events/v1/events HTTP/1.1\r\nHost: x\r\n');
    const end = await within(closed, 6_000);
    socket.destroy();
    expect(end).not.toBe('open');
    expect((end as { text: string }).text).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a client whose body never finishes (--request-timeout), with 408', async () => {
    const server = await startServe(['--request-timeout', '2', '--headers-timeout', '2']);
    const { socket, closed } = client(server.origin,
      'POST /cal/events/v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":');
    const end = await within(closed, 8_000);
    socket.destroy();
    expect(end).not.toBe('open');
    expect((end as { text: string }).text).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a kept-alive connection that asks nothing more (--keep-alive-timeout)', async () => {
    const server = await startServe(['--keep-alive-timeout', '1']);
    const { socket, closed } = client(server.origin, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const end = await within(closed, 6_000);
    socket.destroy();
    expect(end).not.toBe('open');
    expect((end as { text: string }).text).toMatch(/^HTTP\/1\.1 200/);
  });

  it('closes a connection on which nothing is sent (--idle-timeout)', async () => {
    const server = await startServe(['--idle-timeout', '1', '--headers-timeout', '30', '--request-timeout', '30']);
    const { socket, closed } = client(server.origin);
    const end = await within(closed, 6_000);
    socket.destroy();
    expect(end).not.toBe('open');
  });

  it('by default, a connection that never sends its headers is cut within seconds, not minutes', async () => {
    const server = await startServe();
    const { socket, closed } = client(server.origin, 'GET / HTTP/1.1\r\n');
    // The default is 10 s (node's own is 60 s, checked every 30 s).
    const end = await within(closed, 20_000);
    socket.destroy();
    expect(end).not.toBe('open');
  });
});
