// The events no day counts (migration 0006: lasting less than 0 or more than 7 days) counted
// from their own index on PostgreSQL too. Its planner estimated "not (end_utc - start_utc
// between 0 and 7 days)" at about half the table (it keeps no statistics on that expression),
// so it counted them by walking every listed event of the window (62 ms for the default list
// at 1M, 130 ms for a category) rather than the partial index of 0006, which is empty on most
// calendars. Statistics on the duration give it the real share; the partial index also
// carries end_utc, so that the count is answered from the index alone (0.1 ms).
import { sql, SqliteAdapter } from 'kysely';
import type { EvcalMigration, MigrateOptions } from './types';

/** The longest event counted per day (as 0006 and list-counts.ts write it: the index is found by this text). */
const LONG = 7 * 86_400_000;

export const uncountedEventsPlanned: EvcalMigration = {
  async up(db, options: MigrateOptions = {}) {
    const postgres = !(db.getExecutor().adapter instanceof SqliteAdapter);
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
    const index = (name: string) => (options.schema && postgres ? sql.id(options.schema, name) : sql.id(name));
    await sql`drop index if exists ${index('evcal_events_uncounted')}`.execute(db);
    await sql`create index ${sql.id('evcal_events_uncounted')} on ${table('evcal_events')} (status, hide_from_listings, start_utc, end_utc)
      where not (end_utc - start_utc between 0 and ${sql.lit(LONG)})`.execute(db);
    if (!postgres) return;
    await sql`create statistics ${index('evcal_events_duration')} on (end_utc - start_utc) from ${table('evcal_events')}`.execute(db);
    await sql`analyze ${table('evcal_events')}`.execute(db);
  },
};
