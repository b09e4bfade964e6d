// A calendar on memory storage behind createFetchHandler, seeded with three events, a venue and a
// category, and requests to it as clients send them: what fetch-handler*.test.ts share.
import { createCalendar, type Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { bearerTokens, createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@evcal/http';

export const NOW = Date.parse('2026-11-22T06:30:00Z');

export const ORIGIN = 'https://cal.example.org';

export const NS = '/cal/events/v1';

export const ROOT = `${ORIGIN}${NS}`;

export const TOKENS = {
  'tok-admin': { id: 1, role: 'administrator' },
  'tok-subscriber': { id: 5, role: 'subscriber' },
} as const;

export type As = 'admin' | 'subscriber';

/** Three published events inside the default list window, ids 12, 34 and 35. */
export const SEED = {
  events: [
    { id: 12, title: 'Twelve', start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 11:00:00', timezone: 'UTC', status: 'publish' },
    { id: 34, title: 'Thirty-four', start_date: '2027-01-03 10:00:00', end_date: '2027-01-03 11:00:00', timezone: 'UTC', status: 'publish', featured: true },
    { id: 35, title: 'Thirty-five', start_date: '2027-01-04 10:00:00', end_date: '2027-01-04 11:00:00', timezone: 'UTC', status: 'publish' },
  ],
  venues: [{ id: 100, venue: 'Hall', status: 'publish' }],
  categories: [{ id: 7, name: 'Music', slug: 'music' }],
};

/** A valid event create body. */
export const NEW_EVENT = { title: 'Gig', start_date: '2027-02-01 20:00:00', end_date: '2027-02-01 23:00:00' };

export async function setup(options: FetchHandlerOptions = {}, storage: Storage = createMemoryStorage()): Promise<FetchHandler> {
  const calendar = createCalendar({ storage, now: () => NOW });
  await calendar.importDataset(SEED);
  return createFetchHandler(calendar, { authenticate: bearerTokens(TOKENS), ...options });
}

export interface Send {
  readonly method?: string;
  readonly json?: unknown;
  readonly form?: Record<string, string>;
  readonly body?: BodyInit;
  readonly headers?: Record<string, string>;
  readonly as?: As;
}

/** A request to `path` under the API root, or to an absolute URL. */
export function request(path: string, init: Send = {}): Request {
  const url = /^https?:/.test(path) ? path : `${ROOT}${path}`;
  const headers = new Headers(init.headers);
  if (init.as) headers.set('authorization', `Bearer ${init.as === 'admin' ? 'tok-admin' : 'tok-subscriber'}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  } else if (init.form !== undefined) {
    headers.set('content-type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  }
  const method = init.method ?? (body === undefined ? 'GET' : 'POST');
  return new Request(url, { method, headers, ...(body === undefined ? {} : { body }) });
}

export interface Sent {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

export async function send(handler: FetchHandler, path: string | Request, init: Send = {}): Promise<Sent> {
  const response = await handler(typeof path === 'string' ? request(path, init) : path);
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };
