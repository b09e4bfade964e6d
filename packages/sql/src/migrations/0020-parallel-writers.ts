// PostgreSQL: write transactions that do not queue behind one row (docs/storage.md,
// "Transactions and the change counter").
//
// - Post and term ids come from sequences (`evcal_post_ids`, `evcal_term_ids`), which hand out
//   numbers without a lock held to the commit, started after the ids of the rows they replace
//   in `evcal_sequences` (those rows stay, unused on PostgreSQL).
// - `evcal_claim_revision()` gives a write transaction its number: the smallest above the change
//   counter that no transaction in flight holds (a transaction-level advisory lock on it), so a
//   write alone gets the counter's next value, as before, and writers in flight never share one.
// SQLite keeps one writer at a time: nothing changes there.
import { sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import type { EvcalMigration, MigrateOptions } from './types';

export const parallelWriters: EvcalMigration = {
  async up(db, options: MigrateOptions = {}) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
    for (const [sequence, row] of [['evcal_post_ids', 'post'], ['evcal_term_ids', 'term']] as const) {
      await sql`create sequence ${table(sequence)} as bigint minvalue 1`.execute(db);
      // The next number after the row's: setval(…, 1, false) when none was handed out yet.
      await sql`select case when s.value > 0 then setval(${regclass(options.schema, sequence)}, s.value) else setval(${regclass(options.schema, sequence)}, 1, false) end
        from ${table('evcal_sequences')} s where s.name = ${row}`.execute(db);
    }
    await claimRevisionFunction(db, table, options.schema);
  },
  async down(db, options: MigrateOptions = {}) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
    await sql`drop function if exists ${table('evcal_claim_revision')}()`.execute(db);
    for (const sequence of ['evcal_post_ids', 'evcal_term_ids']) await sql`drop sequence if exists ${table(sequence)}`.execute(db);
  },
};

/**
 * A sequence's name as `nextval` and `setval` take it (text cast to regclass): the schema
 * quoted, so that one with capitals is not folded to lower case.
 */
export function regclass(schema: string | undefined, name: string): RawBuilder<unknown> {
  const qualified = schema ? `"${schema.replace(/"/g, '""')}".${name}` : name;
  return sql`${qualified}::regclass`;
}

/**
 * `evcal_claim_revision()`: a number for a write transaction, above every committed one. It
 * tries the numbers above the change counter, taking the first whose transaction-level advisory
 * lock (key: the schema's, then the number) no transaction in flight holds; the lock is released
 * with the transaction, so a number whose transaction failed or wrote nothing is given again.
 * Every committed transaction leaves the counter at or above its number (the commit sets it to
 * at least that number: sql-storage.ts), so a number above the counter was never committed; the
 * counter is read again once the lock is held (a new snapshot: the function is volatile, and in
 * READ COMMITTED each of its statements sees what committed before it ran), because the
 * transaction that held the number before may have committed meanwhile. One round trip.
 */
async function claimRevisionFunction(db: Kysely<any>, table: (name: string) => RawBuilder<unknown>, schema: string | undefined): Promise<void> {
  const sequences = table('evcal_sequences');
  const key = sql.lit(`evcal.revision:${schema ?? 'search_path'}`);
  await sql`create function ${table('evcal_claim_revision')}() returns bigint language plpgsql volatile as $$
    declare
      counter bigint;
      n bigint;
      k integer := hashtext(${key});
    begin
      loop
        select value into counter from ${sequences} where name = 'change';
        n := counter + 1;
        while not pg_try_advisory_xact_lock(k, (n % 2147483647)::integer) loop
          n := n + 1;
        end loop;
        if (select value from ${sequences} where name = 'change') < n then
          return n;
        end if;
      end loop;
    end $$`.execute(db);
}
