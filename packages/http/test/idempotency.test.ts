// Idempotency-Key on writes (docs/http.md, "Retries"), through createFetchHandler over a real
// calendar on memory and SQLite storage: a repeat replays the first answer and writes nothing;
// the same key for another request is 422; a repeat while the first runs is 409 (the first
// made slow deterministically: its insert waits on a gate); failures (a storage fault, a
// refusal) are not kept, so their retry runs again; keys expire; keys are the caller's own;
// the header's rule; CORS and /doc.
import { describe, expect, it } from 'vitest';
import { createCalendar } from '@evcal/core';
import { storageError, type Storage, type StorageTransaction } from '@evcal/core/adapter';
import { createMemoryStorage } from '@evcal/memory';
import { bearerTokens, createFetchHandler, createLanguageHandler, type FetchHandler, type FetchHandlerOptions } from '@evcal/http';
import { STORAGES } from './support/storages';

const ORIGIN = 'https://cal.example.org';
const ROOT = `${ORIGIN}/cal/events/v1`;
const TOKENS = { 'tok-admin': { id: 1, role: 'administrator' }, 'tok-editor': { id: 2, role: 'editor' } };
const EVENT = { title: 'Gig', start_date: '2027-02-01 20:00:00', end_date: '2027-02-01 23:00:00', status: 'publish' };

interface Setup {
  readonly handler: FetchHandler;
  /** Moves the calendar's clock on. */
  advance(ms: number): void;
}

async function setup(storage: Storage, options: { ttlSeconds?: number; handler?: FetchHandlerOptions; languages?: string[] } = {}): Promise<Setup> {
  let now = Date.parse('2026-11-22T06:30:00Z');
  const calendar = createCalendar({ storage, now: () => now, ...(options.ttlSeconds ? { idempotency: { ttlSeconds: options.ttlSeconds } } : {}) });
  const handlerOptions = { authenticate: bearerTokens(TOKENS), ...options.handler };
  const handler = options.languages
    ? createLanguageHandler(calendar, { ...handlerOptions, languages: options.languages })
    : createFetchHandler(calendar, handlerOptions);
  return { handler, advance: (ms) => { now += ms; } };
}

interface Send {
  readonly method?: string;
  readonly json?: unknown;
  readonly text?: string;
  readonly key?: string;
  readonly as?: keyof typeof TOKENS;
  readonly headers?: Record<string, string>;
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

async function send(h: FetchHandler, path: string, o: Send = {}): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${o.as ?? 'tok-admin'}`, ...o.headers };
  if (o.key !== undefined) headers['idempotency-key'] = o.key;
  const body = o.text ?? (o.json === undefined ? undefined : JSON.stringify(o.json));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await h(new Request(path.startsWith('http') ? path : `${ROOT}${path}`, { method: o.method ?? (body === undefined ? 'GET' : 'POST'), headers, ...(body === undefined ? {} : { body }) }));
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** Every event in the calendar, by title (drafts and trashed ones too). */
async function titles(h: FetchHandler): Promise<string[]> {
  const list = await send(h, '/events?status=publish,draft,trash&per_page=50&start_date=2000-01-01');
  return (list.json.events as { title: string }[]).map((e) => e.title).sort();
}

/** A storage whose event inserts wait, while `gate.closed`, until the gate opens; `gate.reached` resolves when one waits. */
function gatedStorage(storage: Storage) {
  let open!: () => void;
  let reached!: () => void;
  const gate = {
    closed: false,
    opened: new Promise<void>((resolve) => { open = resolve; }),
    reached: new Promise<void>((resolve) => { reached = resolve; }),
    open: () => open(),
  };
  const wrapped: Storage = {
    ...storage,
    transaction: (fn) => storage.transaction((tx) => fn(withInsert(tx, async (insert) => {
      if (gate.closed) {
        reached();
        await gate.opened;
      }
      await insert();
    }))),
  };
  return { storage: wrapped, gate };
}

/** A storage whose next `failures` event inserts fail as an unreachable database does. */
function faultyStorage(storage: Storage, failures: number): Storage {
  let left = failures;
  return {
    ...storage,
    transaction: (fn) => storage.transaction((tx) => fn(withInsert(tx, async (insert) => {
      if (left > 0) {
        left--;
        throw storageError('unavailable', new Error('connection lost'));
      }
      await insert();
    }))),
  };
}

function withInsert(tx: StorageTransaction, around: (insert: () => Promise<void>) => Promise<void>): StorageTransaction {
  const events = { ...tx.events, insert: (r: Parameters<StorageTransaction['events']['insert']>[0]) => around(() => tx.events.insert(r)) };
  const self: StorageTransaction = { ...tx, events, transaction: (inner) => inner(self) };
  return self;
}

describe.each(STORAGES)('Idempotency-Key on $name', ({ create }) => {
  it('runs two POSTs with one key once: the second replays the first answer, byte for byte', async () => {
    const { handler } = await setup(await create());
    const first = await send(handler, '/events', { json: EVENT, key: '"8e03978e-40d5-43e8-bc93-6894a57f9324"' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The bare form Stripe's clients send is the same key; key order and white space in the body do not matter.
    const again = await send(handler, '/events', {
      text: JSON.stringify({ status: 'publish', end_date: EVENT.end_date, start_date: EVENT.start_date, title: 'Gig' }, null, 2),
      key: '8e03978e-40d5-43e8-bc93-6894a57f9324',
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await titles(handler)).toEqual(['Gig']);
    // Without a key, the same POST writes again.
    expect((await send(handler, '/events', { json: EVENT })).status).toBe(201);
    expect(await titles(handler)).toEqual(['Gig', 'Gig']);
  });

  it('refuses the same key with another body, address or method (422), and writes nothing', async () => {
    const { handler } = await setup(await create());
    const first = await send(handler, '/events', { json: EVENT, key: 'k-1' });
    expect(first.status).toBe(201);
    const other = await send(handler, '/events', { json: { ...EVENT, title: 'Other' }, key: 'k-1' });
    expect([other.status, other.json.code, other.json.data.status]).toEqual([422, 'rest_idempotency_key_reused', 422]);
    expect(other.json.message).toMatch(/already used for another request/);
    const elsewhere = await send(handler, '/venues', { json: EVENT, key: 'k-1' });
    expect(elsewhere.json.code).toBe('rest_idempotency_key_reused');
    const put = await send(handler, `/events/${first.json.id}`, { method: 'PUT', json: EVENT, key: 'k-1' });
    expect(put.json.code).toBe('rest_idempotency_key_reused');
    expect(await titles(handler)).toEqual(['Gig']);
  });

  it('keeps keys per caller: another user\'s same key is another write', async () => {
    const { handler } = await setup(await create());
    const mine = await send(handler, '/events', { json: EVENT, key: 'shared' });
    const theirs = await send(handler, '/events', { json: EVENT, key: 'shared', as: 'tok-editor' });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
    // Each caller's repeat gets their own answer.
    const mineAgain = await send(handler, '/events', { json: EVENT, key: 'shared' });
    const theirsAgain = await send(handler, '/events', { json: EVENT, key: 'shared', as: 'tok-editor' });
    expect([mineAgain.headers.get('idempotent-replayed'), mineAgain.text]).toEqual(['true', mine.text]);
    expect([theirsAgain.headers.get('idempotent-replayed'), theirsAgain.text]).toEqual(['true', theirs.text]);
    expect(await titles(handler)).toEqual(['Gig', 'Gig']);
  });

  it('replays PATCH and DELETE (a second DELETE without a key is 410)', async () => {
    const { handler } = await setup(await create());
    const { json: created } = await send(handler, '/events', { json: EVENT });
    const patch = await send(handler, `/events/${created.id}`, { method: 'PATCH', json: { featured: true }, key: 'p' });
    expect([patch.status, patch.json.featured]).toEqual([200, true]);
    // Changed meanwhile: the repeat still answers what the PATCH answered, and changes nothing.
    await send(handler, `/events/${created.id}`, { method: 'PATCH', json: { title: 'Renamed' } });
    const patchAgain = await send(handler, `/events/${created.id}`, { method: 'PATCH', json: { featured: true }, key: 'p' });
    expect([patchAgain.status, patchAgain.headers.get('idempotent-replayed'), patchAgain.text]).toEqual([200, 'true', patch.text]);
    expect((await send(handler, `/events/${created.id}`)).json.title).toBe('Renamed');

    const del = await send(handler, `/events/${created.id}`, { method: 'DELETE', key: 'd' });
    expect([del.status, del.json.status]).toEqual([200, 'trash']);
    const delAgain = await send(handler, `/events/${created.id}`, { method: 'DELETE', key: 'd' });
    expect([delAgain.status, delAgain.headers.get('idempotent-replayed'), delAgain.text]).toEqual([200, 'true', del.text]);
    expect((await send(handler, `/events/${created.id}`, { method: 'DELETE' })).status).toBe(410);
  });

  it('writes again once the key has expired', async () => {
    const { handler, advance } = await setup(await create(), { ttlSeconds: 60 });
    const first = await send(handler, '/events', { json: EVENT, key: 'k' });
    advance(59_000);
    expect((await send(handler, '/events', { json: EVENT, key: 'k' })).headers.get('idempotent-replayed')).toBe('true');
    advance(1_000);
    const later = await send(handler, '/events', { json: EVENT, key: 'k' });
    expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([201, null]);
    expect(later.json.id).not.toBe(first.json.id);
    expect(await titles(handler)).toEqual(['Gig', 'Gig']);
    // The key now answers with the second write.
    expect((await send(handler, '/events', { json: EVENT, key: 'k' })).text).toBe(later.text);
  });

  it('keeps no failure: a refused write runs again on retry, and the key stays free', async () => {
    const { handler } = await setup(await create());
    const bad = { ...EVENT, start_date: 'not a date' };
    const refused = await send(handler, '/events', { json: bad, key: 'k' });
    expect(refused.status).toBe(400);
    expect((await send(handler, '/events', { json: bad, key: 'k' })).headers.get('idempotent-replayed')).toBeNull();
    const fixed = await send(handler, '/events', { json: EVENT, key: 'k' });
    expect([fixed.status, fixed.headers.get('idempotent-replayed')]).toEqual([201, null]);
    // The key now holds the write that succeeded.
    const repeat = await send(handler, '/events', { json: EVENT, key: 'k' });
    expect([repeat.status, repeat.headers.get('idempotent-replayed'), repeat.text]).toEqual([201, 'true', fixed.text]);
    expect(await titles(handler)).toEqual(['Gig']);
  });
});

describe('Idempotency-Key, faults and concurrency', () => {
  it('answers 409 with Retry-After to a repeat while the first still runs, then replays', async () => {
    const { storage, gate } = gatedStorage(createMemoryStorage());
    const { handler } = await setup(storage);
    gate.closed = true;
    const first = send(handler, '/events', { json: EVENT, key: 'slow' });
    await gate.reached;
    const repeat = await send(handler, '/events', { json: EVENT, key: 'slow' });
    expect([repeat.status, repeat.json.code, repeat.headers.get('retry-after')]).toEqual([409, 'rest_idempotency_key_in_use', '1']);
    gate.closed = false;
    gate.open();
    expect((await first).status).toBe(201);
    const after = await send(handler, '/events', { json: EVENT, key: 'slow' });
    expect([after.status, after.headers.get('idempotent-replayed'), after.text]).toEqual([201, 'true', (await first).text]);
    expect(await titles(handler)).toEqual(['Gig']);
  });

  it('keeps no answer of a storage fault (503): the retry writes', async () => {
    const { handler } = await setup(faultyStorage(createMemoryStorage(), 1));
    const failed = await send(handler, '/events', { json: EVENT, key: 'k' });
    expect([failed.status, failed.json.code]).toEqual([503, 'rest_service_unavailable']);
    const retry = await send(handler, '/events', { json: EVENT, key: 'k' });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([201, null]);
    const again = await send(handler, '/events', { json: EVENT, key: 'k' });
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([201, 'true', retry.text]);
    expect(await titles(handler)).toEqual(['Gig']);
  });

  it('refuses a key that breaks the rule with 400 naming it', async () => {
    const { handler } = await setup(createMemoryStorage());
    for (const key of ['x'.repeat(256), '"unterminated', 'two words', '"caf\u00e9"', 'a,b', '""', '"\\x"']) {
      const r = await send(handler, '/events', { json: EVENT, key });
      expect([key, r.status, r.json.code]).toEqual([key, 400, 'rest_invalid_idempotency_key']);
      expect(r.json.message).toMatch(/1 to 255 printable ASCII characters/);
    }
    expect(await titles(handler)).toEqual([]);
    // 255 characters, and spaces and escapes inside a quoted string, are keys.
    expect((await send(handler, '/events', { json: EVENT, key: 'x'.repeat(255) })).status).toBe(201);
    expect((await send(handler, '/events', { json: EVENT, key: '"two \\"quoted\\" words"' })).status).toBe(201);
    // Reads ignore the header.
    expect((await send(handler, '/events', { key: '"unterminated' })).status).toBe(200);
  });

  it('takes the key on the ?rest_route= address too, and answers in the address\'s language', async () => {
    const { handler } = await setup(createMemoryStorage(), { languages: ['en', 'de'] });
    const first = await send(handler, '/events', { json: EVENT, key: 'k' });
    const plain = await send(handler, `${ORIGIN}/?rest_route=/cal/events/v1/events`, { json: EVENT, key: 'k' });
    expect([plain.status, plain.headers.get('idempotent-replayed'), plain.text]).toEqual([201, 'true', first.text]);
    // Another language's address is another request, refused in that language.
    const german = await send(handler, `${ORIGIN}/de/cal/events/v1/events`, { json: EVENT, key: 'k' });
    expect([german.status, german.json.code]).toEqual([422, 'rest_idempotency_key_reused']);
    expect(german.json.message).toMatch(/bereits für eine andere Anfrage verwendet/);
    expect(await titles(handler)).toEqual(['Gig']);
  });

  it('allows the header in CORS preflights and exposes Idempotent-Replayed', async () => {
    const { handler } = await setup(createMemoryStorage(), { handler: { cors: { origins: ['https://app.example'] } } });
    const response = await handler(new Request(`${ROOT}/events`, {
      method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'idempotency-key' },
    }));
    expect(response.headers.get('access-control-allow-headers')).toMatch(/\bIdempotency-Key\b/);
    const created = await send(handler, '/events', { json: EVENT, key: 'k', headers: { origin: 'https://app.example' } });
    expect(created.headers.get('access-control-expose-headers')).toMatch(/\bIdempotent-Replayed\b/);
  });

  it('declares the header on every write in /doc, and on no read', async () => {
    const { handler } = await setup(createMemoryStorage());
    const doc = (await send(handler, '/doc')).json as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>> };
    const takes = (op: { parameters?: { name: string; in: string }[] }) => op.parameters?.some((p) => p.name === 'Idempotency-Key' && p.in === 'header') ?? false;
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    const writes = ops.filter((o) => o.method !== 'get');
    expect(writes.map((o) => `${o.method} ${o.path}`)).toEqual(expect.arrayContaining(['post /events', 'put /events/{id}', 'patch /events/{id}', 'delete /events/{id}', 'post /webhooks']));
    expect(writes.filter((o) => !takes(o.op)).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    expect(writes.filter((o) => !o.op.responses['422']).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    expect(ops.filter((o) => o.method === 'get' && takes(o.op)).map((o) => o.path)).toEqual([]);
  });
});
