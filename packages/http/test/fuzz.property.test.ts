// Hostile input (issue 6): random routes, methods, callers, encodings and parameter values.
// No answer is a 5xx; every error is a JSON body with a code; a refused request, and any
// read, leaves the stored calendar exactly as it was. Runs on memory and on SQLite.
import { createCalendar, type Calendar } from '@evcal/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerTokens, createFetchHandler, type FetchHandler } from '../src/index';
import { NOW, ORIGIN, request, SEED, TOKENS, toRequest } from './support/requests';
import { STORAGES } from './support/storages';

const API = `${ORIGIN}/cal/events/v1`;

async function fuzz(storageName: string, numRuns: number): Promise<void> {
  const storage = await STORAGES.find((s) => s.name === storageName)!.create();
  const errors: unknown[] = [];
  try {
    const calendar: Calendar = createCalendar({ storage, now: () => NOW, users: { exists: (id) => id >= 1 && id <= 7 } });
    await calendar.importDataset(SEED);
    const handler: FetchHandler = createFetchHandler(calendar, {
      authenticate: bearerTokens(TOKENS),
      maxBodyBytes: 64 * 1024,
      onError: (e) => errors.push(e),
    });
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const before = JSON.stringify(await calendar.exportDataset());
      const res = await handler(toRequest(r, API));
      const text = await res.text();
      expect(res.status, `${r.method} ${r.path}: ${text.slice(0, 300)}`).toBeLessThan(500);
      if (res.status >= 400 && r.method !== 'HEAD') {
        const body = JSON.parse(text) as { code?: unknown; message?: unknown };
        expect(typeof body.code, text).toBe('string');
        expect(typeof body.message, text).toBe('string');
      }
      const readOnly = r.method === 'GET' || r.method === 'HEAD' || r.method === 'OPTIONS';
      if (res.status >= 400 || readOnly) {
        expect(JSON.stringify(await calendar.exportDataset()), `${r.method} ${r.path} ${res.status} changed the data`).toBe(before);
      }
    }), { numRuns });
    expect(errors).toEqual([]);
  } finally {
    await storage.close();
  }
}

describe('hostile input', () => {
  for (const [storage, numRuns] of [['memory', 600], ['sqlite', 250]] as const) {
    it(`${storage}: no 5xx, errors are JSON with a code, refused requests change nothing`, async () => {
      await fuzz(storage, numRuns);
    }, 300_000);
  }
});
