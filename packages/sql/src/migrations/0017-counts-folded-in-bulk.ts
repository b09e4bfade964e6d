// PostgreSQL: a transaction that writes many events (an import, a batch of scheduled posts
// published together) adds to its counts once per count, before it commits, not once per row.
//
// PostgreSQL keeps every version of a row that a transaction updates until it commits, and each
// update reads through the versions before it: a count updated once per event (the calendar's
// count of a day, a busy category's) made each update slower than the one before. Publishing
// 17,000 scheduled events in one transaction took 19 s, its chunks of 1,000 taking 0.4 s at
// first and 1.7 s at the end; an import grew the same way.
//
// The count triggers (0002's term counts, 0006's day counts) are made again here: each adds
// what it counts by key, one statement for both signs; and when the transaction has set
// `evcal.fold_counts` (sql-storage.ts does, once it has written FOLD_AFTER events), they append
// it to two temporary tables instead, which the storage sums into the counts before it commits
// (`foldCountsPostgres`). SQLite writes no row versions of its own: nothing changes there.
import { MAX_ID } from '@evcal/core/adapter';
import { sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import { pgCounted as counted, pgDay as day } from './0006-search-and-day-counts';
import type { EvcalMigration, MigrateOptions } from './types';

/** The temporary tables a folding transaction appends its counts to (`startFoldingPostgres`). */
const TERM_DELTAS = 'evcal_term_count_deltas';
const DAY_DELTAS = 'evcal_event_day_deltas';

/** The setting that makes the triggers append (transaction-local: `set_config(…, true)`). */
const FOLD_SETTING = 'evcal.fold_counts';

export const countsFoldedInBulk: EvcalMigration = {
  async up(db, options: MigrateOptions = {}) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await countFunctionsPostgres(db, (name) => (options.schema ? sql.id(options.schema, name) : sql.id(name)));
  },
};

const TERM_KINDS = sql.raw(`('category', 'tag')`);

/** A count table: its key columns (in the order of its primary key) and its temporary table. */
interface CountTable {
  readonly name: string;
  readonly deltas: string;
  readonly columns: RawBuilder<unknown>;
  readonly key: RawBuilder<unknown>;
}
const TERM_COUNTS: CountTable = {
  name: 'evcal_term_counts', deltas: TERM_DELTAS, columns: sql.raw('kind, ref_id, status'), key: sql.raw('kind, status, ref_id'),
};
const DAY_COUNTS: CountTable = {
  name: 'evcal_event_days', deltas: DAY_DELTAS, columns: sql.raw('kind, ref_id, status, hidden, day'), key: sql.raw('kind, ref_id, status, hidden, day'),
};

/** Adds the (columns…, n) rows `rows` gives to `count`, each to the count of its key. */
const upsert = (count: CountTable, table: (name: string) => RawBuilder<unknown>, rows: RawBuilder<unknown>) => sql`
  insert into ${table(count.name)} as c (${count.columns}, n) ${rows}
  on conflict (${count.key}) do update set n = c.n + excluded.n`;

/** The four trigger functions (created or replaced; the triggers of 0009 call them by name). */
async function countFunctionsPostgres(db: Kysely<any>, table: (name: string) => RawBuilder<unknown>): Promise<void> {
  const events = table('evcal_events');
  const links = table('evcal_event_links');
  /** In a trigger: adds the rows `rows` gives to `count`, or appends them when the transaction folds. */
  const adding = (count: CountTable, rows: RawBuilder<unknown>) => sql`
    if fold then insert into pg_temp.${sql.id(count.deltas)} (${count.columns}, n) ${rows};
    else ${upsert(count, table, rows)};
    end if;`;
  /**
   * In a trigger: what the old row counted taken away (`n` -1) and what the new row counts
   * added (+1), each when `when` holds of it (SQL; empty: always).
   */
  const eachSide = (when: (row: 'old' | 'new') => RawBuilder<unknown>, add: (row: 'old' | 'new', n: -1 | 1) => RawBuilder<unknown>) => sql`
    if tg_op in ('DELETE', 'UPDATE') ${when('old')} then ${add('old', -1)} end if;
    if tg_op in ('INSERT', 'UPDATE') ${when('new')} then ${add('new', 1)} end if;`;
  const always = () => sql``;
  const row = (r: 'old' | 'new') => sql.raw(r);
  const n = (sign: -1 | 1) => sql.raw(String(sign));
  const declare = sql.raw(`declare fold boolean := coalesce(current_setting('${FOLD_SETTING}', true), '') = 'on';`);
  /** Occurrences' rows are not counted in term counts (0009). */
  const posts = (oldId: string, newId: string) => sql.raw(`if (tg_op <> 'INSERT' and not (${oldId} <= ${MAX_ID})) or (tg_op <> 'DELETE' and not (${newId} <= ${MAX_ID})) then return null; end if;`);

  await sql`create or replace function ${table('evcal_count_links')}() returns trigger language plpgsql as $$
    ${declare}
    begin
      ${posts('old.event_id', 'new.event_id')}
      ${eachSide((r) => sql`and ${row(r)}.kind in ${TERM_KINDS}`, (r, sign) => adding(TERM_COUNTS,
        sql`select ${row(r)}.kind, ${row(r)}.ref_id, e.status, ${n(sign)} from ${events} e where e.id = ${row(r)}.event_id`))}
      return null;
    end $$`.execute(db);
  await sql`create or replace function ${table('evcal_count_events')}() returns trigger language plpgsql as $$
    ${declare}
    begin
      ${posts('old.id', 'new.id')}
      if tg_op = 'UPDATE' and old.status = new.status and old.id = new.id then return null; end if;
      ${eachSide(always, (r, sign) => adding(TERM_COUNTS,
        sql`select l.kind, l.ref_id, ${row(r)}.status, ${n(sign)} from ${links} l where l.event_id = ${row(r)}.id and l.kind in ${TERM_KINDS}`))}
      return null;
    end $$`.execute(db);
  await sql`create or replace function ${table('evcal_days_links')}() returns trigger language plpgsql as $$
    ${declare}
    begin
      ${eachSide((r) => sql`and ${row(r)}.kind in ${TERM_KINDS}`, (r, sign) => adding(DAY_COUNTS,
        sql`select ${row(r)}.kind, ${row(r)}.ref_id, e.status, e.hide_from_listings, ${day('e')}, ${n(sign)} from ${events} e
          where e.id = ${row(r)}.event_id and ${counted('e')}`))}
      return null;
    end $$`.execute(db);
  // The calendar's own count ('', 0) and one per category and tag of the event, by key.
  const keys = (r: 'old' | 'new') => sql`(select '' as kind, 0 as ref_id union all
    select l.kind, l.ref_id from ${links} l where l.event_id = ${row(r)}.id and l.kind in ${TERM_KINDS}) k`;
  await sql`create or replace function ${table('evcal_days_events')}() returns trigger language plpgsql as $$
    ${declare}
    begin
      if tg_op = 'UPDATE' and old.id = new.id and old.status = new.status and old.hide_from_listings = new.hide_from_listings
        and old.start_utc = new.start_utc and old.end_utc = new.end_utc then return null; end if;
      ${eachSide((r) => sql`and ${counted(r)}`, (r, sign) => adding(DAY_COUNTS,
        sql`select k.kind, k.ref_id, ${row(r)}.status, ${row(r)}.hide_from_listings, ${day(r)}, ${n(sign)} from ${keys(r)}`))}
      return null;
    end $$`.execute(db);
}

/**
 * Starts folding the counts of the transaction on `db` (PostgreSQL): the triggers append from
 * now on, until it ends (the tables are dropped and the setting reverts at its commit or
 * rollback). `foldCountsPostgres` must run before it commits.
 */
export async function startFoldingPostgres(db: Kysely<any>): Promise<void> {
  await sql`create temporary table if not exists ${sql.id(TERM_DELTAS)}
    (kind text not null, ref_id integer not null, status text not null, n integer not null) on commit drop`.execute(db);
  await sql`create temporary table if not exists ${sql.id(DAY_DELTAS)}
    (kind text not null, ref_id integer not null, status text not null, hidden integer not null, day bigint not null, n integer not null)
    on commit drop`.execute(db);
  await sql`select set_config(${FOLD_SETTING}, 'on', true)`.execute(db);
}

/** Sums what the triggers appended into the counts, each count updated once, and empties the tables. */
export async function foldCountsPostgres(db: Kysely<any>, table: (name: string) => RawBuilder<unknown>): Promise<void> {
  for (const count of [TERM_COUNTS, DAY_COUNTS]) {
    await upsert(count, table, sql`select ${count.columns}, sum(n) from pg_temp.${sql.id(count.deltas)}
      group by ${count.columns} having sum(n) <> 0`).execute(db);
  }
  await sql`truncate pg_temp.${sql.id(TERM_DELTAS)}, pg_temp.${sql.id(DAY_DELTAS)}`.execute(db);
}
