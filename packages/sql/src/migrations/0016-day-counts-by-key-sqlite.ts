// SQLite: the counts per day an event leaves (when it is updated or deleted) are found by their
// keys. Its triggers of 0006 matched the calendar's own counts by `kind = ''` alone, and SQLite
// read every one of them (each day, status and flag) for each event whose status, flag or
// dates changed: setting 85,714 events to draft on the 100k benchmark file took 42 s. See
// eventDayTriggersSqlite in 0006, which databases made since write directly; this makes the
// events' day triggers again in databases made before. (PostgreSQL's: migration 0015.)
import { sql, SqliteAdapter } from 'kysely';
import { eventDayTriggersSqlite } from './0006-search-and-day-counts';
import type { EvcalMigration } from './types';

export const dayCountsByKeySqlite: EvcalMigration = {
  async up(db) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    for (const name of ['evcal_events_days_insert', 'evcal_events_days_delete', 'evcal_events_days_update']) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
    await eventDayTriggersSqlite(db);
  },
};
