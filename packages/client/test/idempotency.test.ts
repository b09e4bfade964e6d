// @evcal/client's Idempotency-Key against a real `evcal serve` process: every write carries a
// fresh key, the client's retries of a call reuse it, so a create whose answer was lost after
// the server committed it (the connection dropped) is made once; reads carry none; keys can
// be turned off or supplied.
import { describe, expect, it } from 'vitest';
import { createEvcalClient, outcome } from '@evcal/client';
import { needBuiltCli, startServe } from '../../cli/test/support/serve-process';

needBuiltCli();

const ADMIN = 'tok-admin';
const ARGS = ['--user', `1:administrator:${ADMIN}`, '--now', '2026-11-22T06:30:00Z'];
const EVENT = { title: 'Gig', status: 'publish', start_date: '2026-12-05 20:00:00', end_date: '2026-12-05 22:00:00' } as const;

/** A fetch to the real server that records each request's method and key, and loses the answers it is told to (after the server answered). */
function recordingFetch(lose: (attempt: number) => boolean) {
  const sent: { method: string; key: string | null }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    sent.push({ method: request.method, key: request.headers.get('idempotency-key') });
    const response = await globalThis.fetch(request);
    if (lose(sent.length)) {
      await response.arrayBuffer();
      throw new TypeError('fetch failed: the connection was reset');
    }
    return response;
  };
  return { fetch, sent };
}

describe('@evcal/client Idempotency-Key against evcal serve', { timeout: 60_000 }, () => {
  it('sends a fresh key with every write, and its retries reuse it: a lost answer does not make a duplicate', async () => {
    const server = await startServe(ARGS);
    // The first answer is lost after the server wrote the event.
    const { fetch, sent } = recordingFetch((attempt) => attempt === 1);
    const client = createEvcalClient({ baseUrl: server.api, token: ADMIN, fetch, retries: 2, retryDelayMs: 10 });
    const created = outcome(await client.api.POST('/events', { body: EVENT }));
    if (created.kind !== 'ok') throw new Error(`create failed: ${JSON.stringify(created)}`);
    expect(created.response.headers.get('idempotent-replayed')).toBe('true');
    expect(sent.map((s) => s.method)).toEqual(['POST', 'POST']);
    expect(sent[0]!.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent[1]!.key).toBe(sent[0]!.key);

    const patched = outcome(await client.api.PATCH('/events/{id}', { params: { path: { id: created.data.id } }, body: { featured: true } }));
    expect(patched.kind).toBe('ok');
    const read = outcome(await client.api.GET('/events/{id}', { params: { path: { id: created.data.id } } }));
    expect(read.kind).toBe('ok');
    // Another write, another key; reads carry none.
    expect(sent.map((s) => s.method)).toEqual(['POST', 'POST', 'PATCH', 'GET']);
    expect(sent[2]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[2]!.key).not.toBe(sent[0]!.key);
    expect(sent[3]!.key).toBeNull();

    const all = [];
    for await (const event of client.all('/events')) all.push(event.id);
    expect(all).toEqual([created.data.id]);
  });

  it('keeps a key the call gives, makes keys with a function, and sends none when turned off (then never retries a write)', async () => {
    const server = await startServe(ARGS);
    const given = recordingFetch(() => false);
    const own = createEvcalClient({ baseUrl: server.api, token: ADMIN, fetch: given.fetch, idempotencyKeys: () => 'made-by-app' });
    outcome(await own.api.POST('/events', { body: EVENT, headers: { 'Idempotency-Key': 'import-row-17' } }));
    outcome(await own.api.POST('/events', { body: { ...EVENT, title: 'Second' } }));
    expect(given.sent.map((s) => s.key)).toEqual(['import-row-17', 'made-by-app']);

    const off = recordingFetch((attempt) => attempt === 1);
    const plain = createEvcalClient({ baseUrl: server.api, token: ADMIN, fetch: off.fetch, idempotencyKeys: false, retries: 3, retryDelayMs: 10 });
    await expect(plain.api.POST('/events', { body: { ...EVENT, title: 'Unkeyed' } })).rejects.toThrow(/connection was reset/);
    expect(off.sent).toEqual([{ method: 'POST', key: null }]);
  });
});
