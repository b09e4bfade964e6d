// The node HTTP server under `evcal serve`: the bounds on what a slow or idle client may take
// of a connection (ServeTimeouts), listening, and the graceful stop. Kept apart from what the
// server serves (serve.ts), which hands it a listener and the count of requests in flight.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from './logger';
import type { ServeTimeouts } from './serve-options';

/** The server, its connections bounded by `timeouts`, every request given to `listener`. */
export function createNodeServer(timeouts: ServeTimeouts, listener: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const requestMs = timeouts.requestMs ?? 30_000;
  const server = createServer({
    // node checks both every connectionsCheckingInterval (30 s unless told): a second here.
    headersTimeout: Math.min(timeouts.headersMs ?? 10_000, requestMs),
    requestTimeout: requestMs,
    connectionsCheckingInterval: 1_000,
    keepAliveTimeout: timeouts.keepAliveMs ?? 5_000,
  }, listener);
  // A socket idle this long is destroyed (node's default 'timeout' handling).
  server.timeout = timeouts.idleMs ?? 60_000;
  return server;
}

/** Resolves once the server listens; rejects with what kept it from listening (a port in use). */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The graceful stop: no new connections, idle ones closed, responses still to come sent with
 * `Connection: close`; once every request in flight has finished, or the deadline has
 * passed (then the rest are cut), the storage is closed.
 */
export async function stopServer(server: Server, inFlight: () => number, closeStorage: () => Promise<void>, logger: Logger, deadlineMs: number): Promise<void> {
  logger.info('stopping', { in_flight: inFlight(), deadline_ms: deadlineMs });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  if ((await Promise.race([closed, deadline])) === 'deadline') {
    logger.warn('shutdown deadline passed: cutting the requests still in flight', { in_flight: inFlight() });
    server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
  await closeStorage();
  logger.info('stopped');
}
