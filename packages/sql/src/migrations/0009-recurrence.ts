// Recurring events (docs/recurrence.md). Occurrences are rows of evcal_events (ids above
// 2^31, so event ids become bigint on PostgreSQL) with their links, so every list path,
// index and count of 0002 and 0006 reads them as it reads events. A series' own row is kept
// out of lists by its hide_from_listings value: 2 is added to it (rows.ts), so `= 0` (lists
// leave hidden events out) and the per-day counts of listed events never see it. Term counts
// count a series once: the triggers of 0002 now skip occurrence rows. The recurrence horizon
// is a row of evcal_sequences.
import { MAX_ID } from '@evcal/core/adapter';
import { sql, SqliteAdapter } from 'kysely';
import { countTriggersPostgres, countTriggersSqlite } from './0002-list-paths';
import type { EvcalMigration, MigrateOptions } from './types';

/** SQL true of a row id that is a post's, not an occurrence's (their links count in term counts). */
const counted = (id: string) => `${id} <= ${MAX_ID}`;

export const recurrence: EvcalMigration = {
  async up(db, options: MigrateOptions = {}) {
    const postgres = !(db.getExecutor().adapter instanceof SqliteAdapter);
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
    await db.insertInto('evcal_sequences').values({ name: 'horizon', value: 0 }).execute();
    await db.schema.alterTable('evcal_events').addColumn('recurrence', 'text').execute();
    await db.schema.alterTable('evcal_events').addColumn('occurrence', 'text').execute();
    if (postgres) {
      // Triggers naming the id columns are dropped for the change of type, then made again.
      for (const [trigger, on] of [['evcal_events_counted', 'evcal_events'], ['evcal_events_days', 'evcal_events'],
        ['evcal_event_links_counted', 'evcal_event_links'], ['evcal_event_links_days', 'evcal_event_links']] as const) {
        await sql`drop trigger ${sql.id(trigger)} on ${table(on)}`.execute(db);
      }
      await sql`alter table ${table('evcal_events')} alter column id type bigint`.execute(db);
      await sql`alter table ${table('evcal_event_links')} alter column event_id type bigint`.execute(db);
      await countTriggersPostgres(db, table, counted);
      await sql`create trigger evcal_event_links_days after insert or delete or update of event_id, kind, ref_id on ${table('evcal_event_links')}
        for each row execute function ${table('evcal_days_links')}()`.execute(db);
      await sql`create trigger evcal_events_days after insert or delete or update of id, status, hide_from_listings, start_utc, end_utc
        on ${table('evcal_events')} for each row execute function ${table('evcal_days_events')}()`.execute(db);
    } else {
      for (const name of ['evcal_event_links_counted_insert', 'evcal_event_links_counted_delete', 'evcal_event_links_counted_update',
        'evcal_events_counted_insert', 'evcal_events_counted_delete', 'evcal_events_counted_update']) {
        await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      }
      await countTriggersSqlite(db, counted);
    }
  },
};
