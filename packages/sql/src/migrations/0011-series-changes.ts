// One change log entry for a series write: the entry of a series names the occurrences the
// change affected (JSON: { created, updated, trashed, deleted } of ids), which get no entries
// of their own; the entry of an occurrence changed on its own names its series.
import type { EvcalMigration } from './types';

export const seriesChanges: EvcalMigration = {
  async up(db) {
    await db.schema.alterTable('evcal_changes').addColumn('occurrences', 'text').execute();
    await db.schema.alterTable('evcal_changes').addColumn('series_id', 'bigint').execute();
  },
  async down(db) {
    await db.schema.alterTable('evcal_changes').dropColumn('series_id').execute();
    await db.schema.alterTable('evcal_changes').dropColumn('occurrences').execute();
  },
};
