// The change log and the webhook outbox over SQL (tables of migration 0007; endpoints' attempts 0019). Log entries and
// deliveries are written by core inside the write transaction that makes the change. Claims
// and settlements are statements of their own, outside write transactions: they never wait
// for the change counter's lock, and on PostgreSQL a claim skips rows another server has
// locked (`FOR UPDATE SKIP LOCKED`), so concurrent senders get disjoint deliveries.
import type {
  ChangeEntry, ChangeKind, ChangeLog, ChangeAction, OccurrenceActions, PostState, PostStatus, WebhookDelivery, WebhookEndpointRecord, WebhookEndpointStatus, WebhookStore,
} from '@evcal/core/adapter';
import { storageError } from '@evcal/core/adapter';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { CompiledStatements } from './compiled-statements';
import type { SqlDialect } from './dialect';
import type { ChangesTable, EvcalDatabase, WebhookDeliveriesTable, WebhookEndpointsTable } from './schema';

/** The columns of an endpoint that the endpoint's record holds (its attempts are written by settlements only). */
export type EndpointColumns = Omit<WebhookEndpointsTable, 'last_attempt_at' | 'last_status' | 'last_error' | 'consecutive_failures'>;

type Db = Kysely<EvcalDatabase> | Transaction<EvcalDatabase>;
/** Runs statements that belong together, in the current write transaction or as one of their own. */
type Write = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;
/** Runs a statement outside any write transaction, translating driver errors. */
type Guard = <T>(fn: () => Promise<T>) => Promise<T>;

/** Rows per INSERT: well below SQLite's limit on bound parameters. */
const CHUNK = 400;

/**
 * Entries and deliveries a PostgreSQL write transaction keeps to write at its commit, numbered
 * with its position (parallel-writes.ts); undefined where they are written at once (SQLite,
 * whose transactions are numbered when they begin).
 */
export interface AtCommit {
  readonly entries: ChangeEntry[];
  readonly deliveries: WebhookDelivery[];
  /**
   * The webhook endpoints, read with the transaction's first statement (a round trip fewer for
   * every write that enqueues deliveries: parallel-writes.ts); dropped once the transaction
   * writes an endpoint, and read again.
   */
  endpoints?: readonly EndpointColumns[] | undefined;
}

export function sqlChangeLog(db: Db, write: Write, guard: Guard, statements: CompiledStatements, atCommit?: AtCommit): ChangeLog {
  return {
    append: (entries) => write(async (tx) => {
      if (atCommit) {
        atCommit.entries.push(...entries);
        return;
      }
      for (let i = 0; i < entries.length; i += CHUNK) {
        const rows = entries.slice(i, i + CHUNK).map(changeRow);
        await statements.run(tx, `changes.append:${rows.length}`, rows.flatMap(Object.values), () => tx.insertInto('evcal_changes').values(rows));
      }
    }),
    read: (from, limit) => guard(async () => {
      if (limit <= 0) return [];
      const rows = await db.selectFrom('evcal_changes').selectAll()
        .where((eb) => eb.or([eb('change', '>', from.change), eb.and([eb('change', '=', from.change), eb('seq', '>=', from.seq)])]))
        .orderBy('change').orderBy('seq').limit(limit).execute();
      return rows.map(changeEntry);
    }),
    state: () => guard(async () => {
      const [meta, pruned] = await Promise.all([
        db.selectFrom('evcal_meta').select('value').where('name', '=', 'change_log_id').executeTakeFirstOrThrow(),
        db.selectFrom('evcal_sequences').select('value').where('name', '=', 'changes_pruned').executeTakeFirstOrThrow(),
      ]);
      return { id: meta.value, prunedThrough: Number(pruned.value) };
    }),
    // Writes only when there is something to prune (a write transaction that writes nothing takes no change number).
    prune: (cutoff) => guard(async () => {
      const row = await db.selectFrom('evcal_changes').select((eb) => eb.fn.max('change').as('through')).where('at', '<', cutoff).executeTakeFirst();
      const through = row?.through === null || row?.through === undefined ? 0 : Number(row.through);
      if (through === 0) return;
      await write(async (tx) => {
        await tx.deleteFrom('evcal_changes').where('change', '<=', through).execute();
        await tx.updateTable('evcal_sequences').set((eb) => ({ value: sql`case when ${eb.ref('value')} < ${through} then ${through} else ${eb.ref('value')} end` }))
          .where('name', '=', 'changes_pruned').execute();
      });
    }),
  };
}

export function sqlWebhookStore(db: Db, d: SqlDialect, write: Write, guard: Guard, statements: CompiledStatements, atCommit?: AtCommit): WebhookStore {
  const endpoints = () => db.selectFrom('evcal_webhook_endpoints').selectAll();
  return {
    listEndpoints: () => guard(async () => (atCommit?.endpoints
      ?? (await statements.run(db, 'webhooks.endpoints', [], () => endpoints().orderBy('created').orderBy('id'))).rows).map(endpointRecord)),
    getEndpoint: (id) => guard(async () => {
      const row = await endpoints().where('id', '=', id).executeTakeFirst();
      return row && endpointRecord(row);
    }),
    insertEndpoint: (e) => write(async (tx) => {
      if (atCommit) atCommit.endpoints = undefined;
      await tx.insertInto('evcal_webhook_endpoints').values(endpointRow(e)).execute();
    }),
    replaceEndpoint: (e) => write(async (tx) => {
      if (atCommit) atCommit.endpoints = undefined;
      const result = await tx.updateTable('evcal_webhook_endpoints').set(endpointRow(e)).where('id', '=', e.id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw storageError('conflict', new Error(`evcal/sql: no webhook endpoint ${e.id}`));
    }),
    deleteEndpoint: (id) => write(async (tx) => {
      if (atCommit) atCommit.endpoints = undefined;
      await tx.deleteFrom('evcal_webhook_deliveries').where('endpoint_id', '=', id).execute();
      await tx.deleteFrom('evcal_webhook_endpoints').where('id', '=', id).execute();
    }),
    enqueue: (list) => write(async (tx) => {
      if (atCommit) {
        atCommit.deliveries.push(...list);
        return;
      }
      for (let i = 0; i < list.length; i += CHUNK) {
        await tx.insertInto('evcal_webhook_deliveries').values(list.slice(i, i + CHUNK).map(deliveryRow)).execute();
      }
    }),
    claim: ({ now, leasedUntil, limit }) => guard(async () => {
      if (limit <= 0) return [];
      let due = db.selectFrom('evcal_webhook_deliveries as c')
        .innerJoin('evcal_webhook_endpoints as ep', 'ep.id', 'c.endpoint_id')
        .select(['c.endpoint_id', 'c.change', 'c.seq'])
        .where('c.state', '=', 'pending')
        .where('c.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('c.leased_until', 'is', null), eb('c.leased_until', '<=', now)]))
        .where('ep.enabled', '=', 1)
        // Only the first pending delivery of each endpoint and record: they go out in order.
        .where((eb) => eb.not(eb.exists(eb.selectFrom('evcal_webhook_deliveries as p').select(sql.lit(1).as('one'))
          .whereRef('p.endpoint_id', '=', 'c.endpoint_id').whereRef('p.record_key', '=', 'c.record_key').where('p.state', '=', 'pending')
          .where((p) => p.or([p('p.change', '<', p.ref('c.change')), p.and([p('p.change', '=', p.ref('c.change')), p('p.seq', '<', p.ref('c.seq'))])])))))
        .orderBy('c.change').orderBy('c.seq').limit(limit);
      // SQLite runs one writer at a time; PostgreSQL senders skip what another is claiming.
      if (d.name === 'postgres') due = due.modifyEnd(sql`for update of c skip locked`);
      const rows = await db.updateTable('evcal_webhook_deliveries').set({ leased_until: leasedUntil })
        .where((eb) => eb(eb.refTuple('endpoint_id', 'change', 'seq'), 'in', due as never))
        .returningAll().execute();
      return rows.map(deliveryRecord).sort((a, b) => a.change - b.change || a.seq - b.seq);
    }),
    settle: (key, outcome, attempt) => guard(async () => {
      if (outcome.state === 'delivered') {
        await db.deleteFrom('evcal_webhook_deliveries')
          .where('endpoint_id', '=', key.endpointId).where('change', '=', key.change).where('seq', '=', key.seq).execute();
      } else {
        await db.updateTable('evcal_webhook_deliveries').set({
          state: outcome.state, attempts: outcome.attempts, next_attempt_at: outcome.nextAttemptAt, last_attempt_at: outcome.lastAttemptAt,
          last_status: outcome.lastStatus, last_error: outcome.lastError, leased_until: null,
        }).where('endpoint_id', '=', key.endpointId).where('change', '=', key.change).where('seq', '=', key.seq).execute();
      }
      if (!attempt) return;
      // One statement: the count moves in the database, whichever sender settles first.
      await db.updateTable('evcal_webhook_endpoints').set((eb) => ({
        last_attempt_at: attempt.at, last_status: attempt.status, last_error: attempt.error,
        consecutive_failures: attempt.error === null ? 0 : eb(eb.ref('consecutive_failures'), '+', 1),
      })).where('id', '=', key.endpointId).execute();
    }),
    statuses: () => guard(async () => {
      const [rows, outbox] = await Promise.all([
        db.selectFrom('evcal_webhook_endpoints').select(['id', 'last_attempt_at', 'last_status', 'last_error', 'consecutive_failures']).execute(),
        db.selectFrom('evcal_webhook_deliveries').select((eb) => ['endpoint_id', 'state', eb.fn.countAll().as('n'), eb.fn.min('next_attempt_at').as('next')])
          .groupBy(['endpoint_id', 'state']).execute(),
      ]);
      return rows.map((r): WebhookEndpointStatus => {
        const of = (state: string) => outbox.find((o) => o.endpoint_id === r.id && o.state === state);
        const [pending, failed] = [of('pending'), of('failed')];
        return {
          endpointId: r.id, lastAttemptAt: r.last_attempt_at === null ? null : Number(r.last_attempt_at), lastStatus: r.last_status === null ? null : Number(r.last_status),
          lastError: r.last_error, consecutiveFailures: Number(r.consecutive_failures),
          waiting: Number(pending?.n ?? 0), failed: Number(failed?.n ?? 0), nextAttemptAt: pending?.next === undefined || pending.next === null ? null : Number(pending.next),
        };
      });
    }),
    wake: (now) => guard(async () => {
      await db.updateTable('evcal_webhook_deliveries').set({ next_attempt_at: now })
        .where('state', '=', 'pending').where('next_attempt_at', '>', now).execute();
    }),
    deliveries: (endpointId, limit) => guard(async () => {
      const rows = await db.selectFrom('evcal_webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId)
        .orderBy('change').orderBy('seq').limit(Math.max(0, limit)).execute();
      return rows.map(deliveryRecord);
    }),
    prune: (cutoff) => guard(async () => {
      await db.deleteFrom('evcal_webhook_deliveries').where('state', '=', 'failed').where('last_attempt_at', '<', cutoff).execute();
    }),
  };
}

// ---- rows ----

export function changeRow(e: ChangeEntry): ChangesTable {
  return {
    change: e.change, seq: e.seq, kind: e.kind, record_id: e.id, action: e.action, revision: e.revision, at: e.at,
    status_before: e.before?.status ?? null, author_before: e.before?.authorId ?? null,
    status_after: e.after?.status ?? null, author_after: e.after?.authorId ?? null,
    occurrences: e.occurrences ? JSON.stringify(e.occurrences) : null, series_id: e.series ?? null,
  };
}

function changeEntry(r: ChangesTable): ChangeEntry {
  const state = (status: string | null, author: number | null): PostState | null =>
    (status === null ? null : { status: status as PostStatus, authorId: Number(author ?? 0) });
  return {
    change: Number(r.change), seq: Number(r.seq), kind: r.kind as ChangeKind, id: Number(r.record_id), action: r.action as ChangeAction,
    revision: Number(r.revision), at: Number(r.at), before: state(r.status_before, r.author_before), after: state(r.status_after, r.author_after),
    ...(r.occurrences === null ? {} : { occurrences: JSON.parse(r.occurrences) as OccurrenceActions }),
    ...(r.series_id === null ? {} : { series: Number(r.series_id) }),
  };
}

function endpointRow(e: WebhookEndpointRecord): EndpointColumns {
  return {
    id: e.id, url: e.url, secret: e.secret, types: JSON.stringify(e.types), description: e.description, enabled: e.enabled ? 1 : 0,
    disabled_reason: e.disabledReason, created: e.created, updated: e.updated,
  };
}

function endpointRecord(r: EndpointColumns): WebhookEndpointRecord {
  return {
    id: r.id, url: r.url, secret: r.secret, types: JSON.parse(r.types) as string[], description: r.description, enabled: Number(r.enabled) === 1,
    disabledReason: r.disabled_reason, created: Number(r.created), updated: Number(r.updated),
  };
}

export function deliveryRow(x: WebhookDelivery): WebhookDeliveriesTable {
  return {
    endpoint_id: x.endpointId, change: x.change, seq: x.seq, message_id: x.messageId, record_key: x.recordKey, type: x.type, payload: x.payload,
    state: x.state, attempts: x.attempts, next_attempt_at: x.nextAttemptAt, leased_until: x.leasedUntil, last_attempt_at: x.lastAttemptAt,
    last_status: x.lastStatus, last_error: x.lastError,
  };
}

function deliveryRecord(r: WebhookDeliveriesTable): WebhookDelivery {
  const n = (x: number | string | null) => (x === null ? null : Number(x));
  return {
    endpointId: r.endpoint_id, change: Number(r.change), seq: Number(r.seq), messageId: r.message_id, recordKey: r.record_key, type: r.type,
    payload: r.payload, state: r.state as WebhookDelivery['state'], attempts: Number(r.attempts), nextAttemptAt: Number(r.next_attempt_at),
    leasedUntil: n(r.leased_until), lastAttemptAt: n(r.last_attempt_at), lastStatus: n(r.last_status), lastError: r.last_error,
  };
}
