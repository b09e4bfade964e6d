// A PostgreSQL write's last statement (the change counter's position) and its COMMIT sent as one
// message (transactions.ts, parallel-writes.ts): the counter's row is locked only while the
// server commits, never across a turn of the client. With the two sent one after the other, as
// before, a writer whose process was slow to send its COMMIT (a busy event loop) held every
// other writer of every server at its own last statement: the first test then waits forever and
// fails on vitest's time-out.
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { changeEntry as entry, eventRecord, webhookEndpoint } from '@evcal/storage-test-suite';
import { openPostgres, POSTGRES_URL, type OpenedDatabase } from './databases';

const opened: OpenedDatabase[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.storage.close();
});

/** A promise and its resolve. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => { open = resolve; });
  return { wait, open };
}

/** The text of the statement that positions a write (parallel-writes.ts). */
const POSITIONING = /update .*evcal_sequences.* set value = greatest\(value \+ 1/s;

/**
 * A client whose answers to the positioning statement reach the storage only once `held` is
 * open, as if its process were busy: `answered` opens when the server has answered.
 */
function slowAfterPositioning(held: Promise<void>, answered: () => void) {
  return (client: pg.PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const answer = query(...args);
      if (typeof args[0] !== 'string' || !POSITIONING.test(args[0]) || !(answer instanceof Promise)) return answer;
      return answer.then(async (result: unknown) => {
        answered();
        await held;
        return result;
      });
    };
  };
}

describe.skipIf(!POSTGRES_URL)('postgres: a write positioned and committed in one message', { timeout: 30_000 }, () => {
  it('lets another server position and commit while a writer has not yet had the answer to its last statement', async () => {
    const held = gate();
    const answered = gate();
    const a = await openPostgres(undefined, { onClient: slowAfterPositioning(held.wait, answered.open) });
    opened.push(a);
    const b = await openPostgres(a.schema);
    opened.push(b);
    const slow = a.storage.transaction(async (tx) => {
      await tx.events.insert(eventRecord(1, { revision: tx.change }));
      await tx.changes.append([entry(tx.change, 0, { id: 1 })]);
    });
    await answered.wait;
    // The slow writer's process has not read its answer: the other server writes meanwhile.
    await b.storage.transaction(async (tx) => {
      await tx.events.insert(eventRecord(2, { revision: tx.change }));
      await tx.changes.append([entry(tx.change, 0, { id: 2 })]);
    });
    expect((await b.storage.events.get(1))?.id).toBe(1);
    expect((await b.storage.events.get(2))?.id).toBe(2);
    held.open();
    await slow;
    // Positions in commit order: the slow writer committed first.
    const log = await b.storage.changes.read({ change: 0, seq: 0 }, 10);
    expect(log.map((e) => e.id)).toEqual([1, 2]);
    expect(log[1]!.change).toBe(await b.storage.lastChange());
  });

  it('sends a write\'s BEGIN with its claim and its positioning with its COMMIT; over a pool not watched, each alone, with the same outcome', async () => {
    const positions: number[] = [];
    const watched = await openPostgres(undefined, { onCommit: (p) => positions.push(p) });
    opened.push(watched);
    const plain = await openPostgres(watched.schema, { watched: false, onCommit: (p) => positions.push(p) });
    opened.push(plain);
    const bare = (q: string) => /^\s*(begin|commit)\s*$/i.test(q);
    for (const [i, o] of [watched, plain].entries()) {
      o.queries.length = 0;
      await o.storage.transaction(async (tx) => {
        await tx.events.insert(eventRecord(i + 1, { revision: tx.change }));
        await tx.changes.append([entry(tx.change, 0, { id: i + 1 })]);
      });
    }
    // (The storage's first write asks once whether the pool answers several statements.)
    expect(watched.queries[0]).toBe('select 1 as n; select 2 as n');
    expect(watched.queries.filter(bare)).toEqual([]);
    expect(watched.queries[1]).toMatch(/^begin;\s*select .*evcal_claim_revision/s);
    expect(watched.queries.at(-1)).toMatch(/^with p as \(.*;\s*commit$/s);
    expect(plain.queries.filter(bare).map((q) => q.trim())).toEqual(['begin', 'commit']);
    // Each told its position, and the log has both entries at them.
    const log = await plain.storage.changes.read({ change: 0, seq: 0 }, 10);
    expect(log.map((e) => [e.change, e.id])).toEqual([[positions[0], 1], [positions[1], 2]]);
    expect(positions[1]).toBe(await plain.storage.lastChange());
  });

  it('reads the webhook endpoints with the claim, and again once the transaction writes one', async () => {
    const a = await openPostgres();
    opened.push(a);
    const b = await openPostgres(a.schema);
    opened.push(b);
    await b.storage.webhooks.insertEndpoint(webhookEndpoint('ep_b', { created: 2 }));
    await a.storage.webhooks.insertEndpoint(webhookEndpoint('ep_a', { created: 1, types: ['event.created'] }));
    a.queries.length = 0;
    const seen = await a.storage.transaction(async (tx) => {
      const before = await tx.webhooks.listEndpoints();
      await tx.webhooks.insertEndpoint(webhookEndpoint('ep_c', { created: 3 }));
      return [before, await tx.webhooks.listEndpoints()];
    });
    expect(seen[0]).toEqual([webhookEndpoint('ep_a', { created: 1, types: ['event.created'] }), webhookEndpoint('ep_b', { created: 2 })]);
    expect(seen[1]!.map((e) => e.id)).toEqual(['ep_a', 'ep_b', 'ep_c']);
    // Read by a statement of its own only after the transaction wrote one.
    expect(a.queries.filter((q) => /^select \* from .*"evcal_webhook_endpoints"/.test(q))).toHaveLength(1);
  });

  it('answers a connection lost while the last statement runs as a write of unknown outcome (its COMMIT went with it)', async () => {
    const a = await openPostgres();
    opened.push(a);
    // Another session holds the counter's row: the write waits at its last statement. A third
    // finds it (outside a transaction: pg_stat_activity is read once per transaction).
    const locker = new pg.Client({ connectionString: POSTGRES_URL });
    const watcher = new pg.Client({ connectionString: POSTGRES_URL });
    await locker.connect();
    await watcher.connect();
    try {
      await locker.query('begin');
      await locker.query(`select value from "${a.schema}".evcal_sequences where name = 'change' for update`);
      const write = a.storage.transaction(async (tx) => tx.events.insert(eventRecord(1, { revision: tx.change })));
      const failed = write.catch((error: unknown) => error);
      let pid: number | undefined;
      while (pid === undefined) {
        const { rows } = await watcher.query<{ pid: number }>(
          "select pid from pg_stat_activity where wait_event_type = 'Lock' and query like $1", [`%"${a.schema}"."evcal_sequences"%greatest%`]);
        pid = rows[0]?.pid;
        if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await watcher.query('select pg_terminate_backend($1)', [pid]);
      expect(await failed).toMatchObject({ code: 'outcome_unknown' });
      await locker.query('rollback');
    } finally {
      await locker.end();
      await watcher.end();
    }
    // (Here it was rolled back: the server ended the session before the COMMIT.)
    expect(await a.storage.events.get(1)).toBeUndefined();
  });
});
