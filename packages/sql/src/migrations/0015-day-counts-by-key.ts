// PostgreSQL: the counts per day an event leaves (when it is updated or deleted) are found by
// their keys, not by reading the whole evcal_event_days table for each event. See
// daysEventsFunctionPostgres in 0006, which databases made since write directly; this replaces
// the function in databases made before. SQLite's triggers: migration 0016.
import { sql, SqliteAdapter } from 'kysely';
import { daysEventsFunctionPostgres } from './0006-search-and-day-counts';
import type { EvcalMigration, MigrateOptions } from './types';

export const dayCountsByKey: EvcalMigration = {
  async up(db, options: MigrateOptions = {}) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) return;
    await daysEventsFunctionPostgres(db, (name) => (options.schema ? sql.id(options.schema, name) : sql.id(name)));
  },
};
