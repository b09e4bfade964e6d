// A node:http server on an ephemeral port running evcal (a memory calendar of two events) through
// toNodeHandler, and the small helpers the node bridge's tests share.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { bearerTokens, createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@evcal/http';
import { toNodeHandler, type NodeHandlerOptions } from '@evcal/http/node';
export const NS = '/cal/events/v1';
export const ADMIN = { authorization: 'Bearer tok-admin' };
export const NEW_EVENT = { title: 'Gig', start_date: '2027-02-01 20:00:00', end_date: '2027-02-01 23:00:00' };

export type NodeRequest = IncomingMessage & { body?: unknown; originalUrl?: string };
export type Listener = (req: NodeRequest, res: ServerResponse) => void;

export async function calendarHandler(options: FetchHandlerOptions = {}): Promise<FetchHandler> {
  const calendar = createCalendar({ storage: createMemoryStorage(), now: () => Date.parse('2026-11-22T06:30:00Z') });
  await calendar.importDataset({
    events: [
      { id: 12, title: 'Twelve', start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 11:00:00', status: 'publish' },
      { id: 34, title: 'Thirty-four', start_date: '2027-01-03 10:00:00', end_date: '2027-01-03 11:00:00', status: 'publish' },
    ],
  });
  return createFetchHandler(calendar, { authenticate: bearerTokens({ 'tok-admin': { id: 1, role: 'administrator' } }), ...options });
}

/** Starts a server on 127.0.0.1:0, closed when the test finishes. */
export async function listen(listener: Listener): Promise<string> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server running evcal through toNodeHandler; returns the API root. */
export async function serveApi(options: FetchHandlerOptions = {}, nodeOptions?: NodeHandlerOptions): Promise<string> {
  const origin = await listen(toNodeHandler(await calendarHandler(options), nodeOptions));
  return `${origin}${NS}`;
}

export async function readJson(res: Response): Promise<any> {
  const text = await res.text();
  return text === '' ? undefined : JSON.parse(text);
}

export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

export async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
