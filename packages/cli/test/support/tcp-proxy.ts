// A TCP proxy between a server under test and its database: closed (every connection cut) and
// opened again on the same port for an outage, or told to cut a connection when what the client
// sends matches (a COMMIT cut short on its way).
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Listens again on the same port. */
  open(): Promise<void>;
  /** Stops listening and cuts every connection. */
  close(): Promise<void>;
  /**
   * From now on, a chunk the client sends that `cut` matches is not forwarded: both sides of
   * its connection are cut instead (undefined: forward everything again).
   */
  cutWhen(cut: ((chunk: Buffer) => boolean) | undefined): void;
}

/** A proxy to host:port, listening on a free port of 127.0.0.1. */
export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let listening = 0;
  let cut: ((chunk: Buffer) => boolean) | undefined;
  const open = () => new Promise<void>((resolve, reject) => {
    server = createServer((client) => {
      const upstream = connect(port, host);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => {
          sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      client.on('data', (chunk: Buffer) => {
        if (cut?.(chunk)) {
          client.destroy();
          upstream.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
    });
    server.once('error', reject);
    server.listen(listening, '127.0.0.1', () => {
      listening = (server!.address() as { port: number }).port;
      resolve();
    });
  });
  const close = () => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    if (!server?.listening) return resolve();
    server.close(() => resolve());
  });
  await open();
  return {
    get port() { return listening; },
    open,
    close,
    cutWhen: (f) => { cut = f; },
  };
}
