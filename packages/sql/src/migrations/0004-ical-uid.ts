// The UID of the iCalendar event an event was imported from, so that importing the file again
// updates it (core's importIcs). An import looks its events up by scanning them, so no index.
import type { EvcalMigration } from './types';

export const icalUid: EvcalMigration = {
  async up(db) {
    await db.schema.alterTable('evcal_events').addColumn('ical_uid', 'text').execute();
  },
  async down(db) {
    await db.schema.alterTable('evcal_events').dropColumn('ical_uid').execute();
  },
};
