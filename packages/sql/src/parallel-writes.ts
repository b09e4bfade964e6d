// PostgreSQL: write transactions in parallel, their changes numbered in the order they commit
// (docs/storage.md, "Transactions and the change counter"). SQLite runs one writer at a time
// and keeps numbering each write at its start (sql-storage.ts).
//
// - A transaction's number (`tx.change`, its records' revision) is claimed when it begins
//   (`evcal_claim_revision()`, migration 0020): the smallest above the change counter that no
//   transaction in flight holds. No lock is held to the commit: writers run side by side.
// - What a write reads to change it is locked: a record read by id or slug inside a write
//   transaction is locked against other writers (`FOR NO KEY UPDATE`) until the commit, and read
//   as last committed (READ COMMITTED reads it again once the lock is had); records read in
//   batches (what a write refers to: its venue, its terms) are only kept from being deleted
//   (`FOR KEY SHARE`, as a foreign key would). Keys that are not rows yet (slugs, names, ids)
//   are unique indexes: a second writer's insert fails, core runs it again and it finds the first.
// - A record never goes back to an older revision: a locked read that finds one newer than the
//   transaction's number (written by a transaction that began later but locked it first) gives
//   the transaction a new number when it has not used its own yet, or fails it as a conflict.
// - The change counter advances at the commit, as its last statement: one UPDATE of the counter
//   row that also writes the transaction's change log entries and webhook deliveries, numbered
//   with the counter's new value (their position), sent with the COMMIT as one message
//   (`…; commit`, transactions.ts). The row lock is held while the server runs that statement
//   and commits, never across a round trip to the client, so positions are taken in commit order: a reader that sees
//   the counter at N sees every position up to N (a commit is visible before its locks are
//   released), and the log, read in position order, never skips an entry that commits late.
import { storageError } from '@evcal/core/adapter';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { changeRow, deliveryRow, type AtCommit, type EndpointColumns } from './sql-change-store';
import type { Db } from './db';

/** A write transaction's number, and whether it was handed out. */
export interface WriteNumber {
  /** `tx.change`: claimed at the start, claimed again while unused (see `ParallelWrites.seen`). */
  change: number;
  /** Whether `tx.change` was read: the number may be stamped on records from then on. */
  handedOut: boolean;
}

/** What a PostgreSQL write transaction writes at its commit. */
export interface Pending extends AtCommit {
  /** The least the counter must reach (`sequences.bump('change', n)`). */
  bump: number;
}

export function pending(endpoints?: readonly EndpointColumns[]): Pending {
  return { bump: 0, entries: [], deliveries: [], endpoints };
}

/** The statements of parallel writes over one storage's tables. */
export interface ParallelWrites {
  /** The statement that claims a number for a write transaction, its first (sent with its BEGIN: transactions.ts). */
  readonly claiming: string;
  /** The number `claiming` answered with, and the webhook endpoints it read (`AtCommit.endpoints`). */
  claimed(rows: readonly unknown[]): { number: number; endpoints: readonly EndpointColumns[] };
  /**
   * After a locked read inside a write transaction: when a row read is newer than the
   * transaction's number, the transaction gets a new number if it has not used its own, and
   * otherwise (`strict`: the read was of a record it may change) fails as a conflict.
   */
  seen(tx: Db, number: WriteNumber, revisions: Iterable<number | string | bigint>, strict: boolean): Promise<void>;
  /**
   * The commit's critical section, the transaction's last statement: advances the counter (to
   * at least the transaction's number and any bump), writes the entries and deliveries at that
   * position, and returns it (`value`). SQL with its values written in, sent with the COMMIT as
   * one message (transactions.ts): the counter's row is locked only while the server commits.
   */
  position(number: WriteNumber, atCommit: Pending): string;
}

export function parallelWrites(tableId: (name: string) => RawBuilder<unknown>, root: Kysely<any>): ParallelWrites {
  const CLAIM = sql<{ n: string }>`select ${tableId('evcal_claim_revision')}() as n`.compile(root);
  const claim = async (tx: Db) => Number((await tx.executeQuery<{ n: string }>(CLAIM)).rows[0]!.n);
  // The endpoints in the order `listEndpoints` reads them; json: pg parses it.
  const CLAIMING = sql`select ${tableId('evcal_claim_revision')}() as n,
    (select coalesce(json_agg(e order by e.created, e.id), '[]') from ${tableId('evcal_webhook_endpoints')} e) as endpoints`.compile(root).sql;
  const POSITION = positionStatement(tableId, root);
  return {
    claiming: CLAIMING,
    claimed(rows) {
      const row = rows[0] as { n: string; endpoints: EndpointColumns[] };
      return { number: Number(row.n), endpoints: row.endpoints };
    },
    async seen(tx, number, revisions, strict) {
      let newest = 0;
      for (const r of revisions) newest = Math.max(newest, Number(r));
      if (newest <= number.change) return;
      if (number.handedOut) {
        if (strict) throw storageError('conflict', new Error(`evcal/sql: revision ${newest} committed after transaction ${number.change} began`));
        return;
      }
      // Whoever wrote that row has committed (its lock was released to us): the counter is at
      // or above its number, and a new claim is above that. (A row written around evcal, with
      // a revision the counter was not moved past, would still be newer: a conflict.)
      number.change = await claim(tx);
      if (number.change <= newest) throw storageError('conflict', new Error(`evcal/sql: revision ${newest} is above the change counter`));
    },
    position(number, atCommit) {
      const values = [integer(number.change), integer(atCommit.bump), text(JSON.stringify(atCommit.entries.map(changeRow))),
        text(JSON.stringify(atCommit.deliveries.map(deliveryRow)))];
      // One pass over the statement's own text: a value written in is never read again.
      return POSITION.replace(/\$([1-4])\b/g, (_, n: string) => values[Number(n) - 1]!);
    },
  };
}

/** A number written into SQL: only a safe integer. */
function integer(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`evcal/sql: ${n} is not an integer`);
  return String(n);
}

/**
 * A string written into SQL, as pg's `escapeLiteral` writes it: an escape string (E'…', read the
 * same whatever `standard_conforming_strings` is) with its quotes and backslashes doubled.
 */
function text(s: string): string {
  return `E'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The commit's one statement: the counter's new value is the greater of one more than before,
 * the transaction's number and its bump; the entries and deliveries (their rows as JSON, whose
 * `change` is left out for that value) go in at it.
 */
function positionStatement(tableId: (name: string) => RawBuilder<unknown>, root: Kysely<any>): string {
  return sql`with p as (
      update ${tableId('evcal_sequences')} set value = greatest(value + 1, $1::bigint, $2::bigint) where name = 'change' returning value
    ), e as (
      insert into ${tableId('evcal_changes')} (change, seq, kind, record_id, action, revision, at, status_before, author_before, status_after, author_after, occurrences, series_id)
      select p.value, x.seq, x.kind, x.record_id, x.action, x.revision, x.at, x.status_before, x.author_before, x.status_after, x.author_after, x.occurrences, x.series_id
      from p, jsonb_to_recordset($3::jsonb) as x(seq integer, kind text, record_id bigint, action text, revision bigint, at bigint, status_before text,
        author_before bigint, status_after text, author_after bigint, occurrences text, series_id bigint)
    ), w as (
      insert into ${tableId('evcal_webhook_deliveries')} (endpoint_id, change, seq, message_id, record_key, type, payload, state, attempts, next_attempt_at,
        leased_until, last_attempt_at, last_status, last_error)
      select x.endpoint_id, p.value, x.seq, x.message_id, x.record_key, x.type, x.payload, x.state, x.attempts, x.next_attempt_at, x.leased_until,
        x.last_attempt_at, x.last_status, x.last_error
      from p, jsonb_to_recordset($4::jsonb) as x(endpoint_id text, seq integer, message_id text, record_key text, type text, payload text, state text,
        attempts integer, next_attempt_at bigint, leased_until bigint, last_attempt_at bigint, last_status integer, last_error text)
    )
    select value from p`.compile(root).sql;
}
