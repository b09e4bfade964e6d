// `evcal migrate`: a post remembers the global ids of the sources it came from (its
// global_id_lineage after its own id), which is also how a migration run finds what an
// earlier run wrote. NULL for posts created here.
import type { EvcalMigration } from './types';

export const lineage: EvcalMigration = {
  async up(db) {
    for (const table of ['evcal_events', 'evcal_venues', 'evcal_organizers']) {
      await db.schema.alterTable(table).addColumn('lineage', 'text').execute();
    }
  },
  async down(db) {
    for (const table of ['evcal_events', 'evcal_venues', 'evcal_organizers']) {
      await db.schema.alterTable(table).dropColumn('lineage').execute();
    }
  },
};
