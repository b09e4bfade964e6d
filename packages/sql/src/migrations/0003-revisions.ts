// Revisions: every record carries the change number of its last write, and the change
// counter itself is a row of evcal_sequences that every write transaction updates first,
// which serialises writers across every process sharing the database (sql-storage.ts).
import type { EvcalMigration } from './types';

export const revisions: EvcalMigration = {
  async up(db) {
    for (const table of ['evcal_events', 'evcal_venues', 'evcal_organizers', 'evcal_terms']) {
      await db.schema.alterTable(table).addColumn('revision', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    }
    await db.insertInto('evcal_sequences').values({ name: 'change', value: 0 }).execute();
  },
  async down(db) {
    await db.deleteFrom('evcal_sequences').where('name', '=', 'change').execute();
    for (const table of ['evcal_events', 'evcal_venues', 'evcal_organizers', 'evcal_terms']) {
      await db.schema.alterTable(table).dropColumn('revision').execute();
    }
  },
};
