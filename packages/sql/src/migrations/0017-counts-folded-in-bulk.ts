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

/** The four trigger functions (created or replaced; the triggers of 0009 call them by name). */
export async function countFunctionsPostgres(db: Kysely<any>, table: (name: string) => RawBuilder<unknown>): Promise<void> {
  const events = table('evcal_events');
  const links = table('evcal_event_links');
  /** Adds the (kind, ref_id, status, n) rows `select` gives to the term counts. */
  const toTerms = (select: RawBuilder<unknown>) => sql`
    if fold then insert into pg_temp.${sql.id(TERM_DELTAS)} (kind, ref_id, status, n) ${select};
    else insert into ${table('evcal_term_counts')} as c (kind, ref_id, status, n) ${select}
      on conflict (kind, status, ref_id) do update set n = c.n + excluded.n;
    end if;`;
  /** Adds the (kind, ref_id, status, hidden, day, n) rows `select` gives to the day counts. */
  const toDays = (select: RawBuilder<unknown>) => sql`
    if fold then insert into pg_temp.${sql.id(DAY_DELTAS)} (kind, ref_id, status, hidden, day, n) ${select};
    else insert into ${table('evcal_event_days')} as c (kind, ref_id, status, hidden, day, n) ${select}
      on conflict (kind, ref_id, status, hidden, day) do update set n = c.n + excluded.n;
    end if;`;
  const declare = sql.raw(`declare fold boolean := coalesce(current_setting('${FOLD_SETTING}', true), '') = 'on';`);
  /** Occurrences' rows are not counted in term counts (0009). */
  const posts = (o: string, n: string) => sql.raw(`if (tg_op <> 'INSERT' and not (${o} <= ${MAX_ID})) or (tg_op <> 'DELETE' and not (${n} <= ${MAX_ID})) then return null; end if;`);

  await sql`create or replace function ${table('evcal_count_links')}() returns trigger language plpgsql as $$
    ${declare}
    begin
      ${posts('old.event_id', 'new.event_id')}
      if tg_op in ('DELETE', 'UPDATE') and old.kind in ${TERM_KINDS} then
        ${toTerms(sql`select old.kind, old.ref_id, e.status, -1 from ${events} e where e.id = old.event_id`)}
      end if;
      if tg_op in ('INSERT', 'UPDATE') and new.kind in ${TERM_KINDS} then
        ${toTerms(sql`select new.kind, new.ref_id, e.status, 1 from ${events} e where e.id = new.event_id`)}
      end if;
      return null;
    end $$`.execute(db);
  await sql`create or replace function ${table('evcal_count_events')}() returns trigger language plpgsql as $$
    ${declare}
    begin
      ${posts('old.id', 'new.id')}
      if tg_op = 'UPDATE' and old.status = new.status and old.id = new.id then return null; end if;
      if tg_op in ('DELETE', 'UPDATE') then
        ${toTerms(sql`select l.kind, l.ref_id, old.status, -1 from ${links} l where l.event_id = old.id and l.kind in ${TERM_KINDS}`)}
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        ${toTerms(sql`select l.kind, l.ref_id, new.status, 1 from ${links} l where l.event_id = new.id and l.kind in ${TERM_KINDS}`)}
      end if;
      return null;
    end $$`.execute(db);
  await sql`create or replace function ${table('evcal_days_links')}() returns trigger language plpgsql as $$
    ${declare}
    begin
      if tg_op in ('DELETE', 'UPDATE') and old.kind in ${TERM_KINDS} then
        ${toDays(sql`select old.kind, old.ref_id, e.status, e.hide_from_listings, ${day('e')}, -1 from ${events} e
          where e.id = old.event_id and ${counted('e')}`)}
      end if;
      if tg_op in ('INSERT', 'UPDATE') and new.kind in ${TERM_KINDS} then
        ${toDays(sql`select new.kind, new.ref_id, e.status, e.hide_from_listings, ${day('e')}, 1 from ${events} e
          where e.id = new.event_id and ${counted('e')}`)}
      end if;
      return null;
    end $$`.execute(db);
  // The calendar's own count ('', 0) and one per category and tag of the event, by key.
  const keys = (row: string) => sql`(select '' as kind, 0 as ref_id union all
    select l.kind, l.ref_id from ${links} l where l.event_id = ${sql.raw(row)}.id and l.kind in ${TERM_KINDS}) k`;
  await sql`create or replace function ${table('evcal_days_events')}() returns trigger language plpgsql as $$
    ${declare}
    begin
      if tg_op = 'UPDATE' and old.id = new.id and old.status = new.status and old.hide_from_listings = new.hide_from_listings
        and old.start_utc = new.start_utc and old.end_utc = new.end_utc then return null; end if;
      if tg_op in ('DELETE', 'UPDATE') and ${counted('old')} then
        ${toDays(sql`select k.kind, k.ref_id, old.status, old.hide_from_listings, ${day('old')}, -1 from ${keys('old')}`)}
      end if;
      if tg_op in ('INSERT', 'UPDATE') and ${counted('new')} then
        ${toDays(sql`select k.kind, k.ref_id, new.status, new.hide_from_listings, ${day('new')}, 1 from ${keys('new')}`)}
      end if;
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
  await sql`insert into ${table('evcal_term_counts')} as c (kind, ref_id, status, n)
    select kind, ref_id, status, sum(n) from pg_temp.${sql.id(TERM_DELTAS)} group by kind, ref_id, status having sum(n) <> 0
    on conflict (kind, status, ref_id) do update set n = c.n + excluded.n`.execute(db);
  await sql`insert into ${table('evcal_event_days')} as c (kind, ref_id, status, hidden, day, n)
    select kind, ref_id, status, hidden, day, sum(n) from pg_temp.${sql.id(DAY_DELTAS)} group by kind, ref_id, status, hidden, day
    having sum(n) <> 0
    on conflict (kind, ref_id, status, hidden, day) do update set n = c.n + excluded.n`.execute(db);
  await sql`truncate pg_temp.${sql.id(TERM_DELTAS)}, pg_temp.${sql.id(DAY_DELTAS)}`.execute(db);
}
