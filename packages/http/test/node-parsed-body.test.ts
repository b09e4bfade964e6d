// toNodeHandler and bodies other middleware touched: body-parser 1 (Express 4) sets
// `req.body = {}` on requests it does not parse and leaves their stream unread.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCalendar } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerTokens, createFetchHandler } from '../src/index';
import { toNodeHandler } from '../src/node';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function start(middleware: (req: IncomingMessage & { body?: unknown }, done: () => void) => void): Promise<string> {
  const calendar = createCalendar({ storage: createMemoryStorage() });
  const node = toNodeHandler(createFetchHandler(calendar, { authenticate: bearerTokens({ 'tok-admin': { id: 1, role: 'administrator' } }) }));
  const server = createServer((req: IncomingMessage & { body?: unknown }, res: ServerResponse) => middleware(req, () => node(req, res)));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/cal/events/v1`;
}

const form = new URLSearchParams({ venue: 'Hall', city: 'Rome' }).toString();
const headers = { authorization: 'Bearer tok-admin', 'content-type': 'application/x-www-form-urlencoded' };

describe('toNodeHandler with a body another middleware saw', () => {
  it('reads the stream when a parser set req.body = {} without reading it (body-parser 1)', async () => {
    const root = await start((req, done) => {
      req.body = {};
      done();
    });
    const res = await fetch(`${root}/venues`, { method: 'POST', headers, body: form });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ venue: 'Hall', city: 'Rome' });
  });

  it('uses req.body when a parser consumed the stream', async () => {
    const root = await start((req, done) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        req.body = { ...Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())), city: 'Parsed' };
        done();
      });
    });
    const res = await fetch(`${root}/venues`, { method: 'POST', headers, body: form });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ venue: 'Hall', city: 'Parsed' });
  });
});
