// Search at a million events on SQLite: the matches' list keys read from an index, not from
// the events' rows. A search reads every match of the FTS5 index (migration 0010) for the page
// and its total, and for each one the columns the list filters and orders by. Read from the
// table, each match was a lookup into a wide row (its texts, often on overflow pages): 2,370
// matches of `golden jam` at 1M cost about 9 ms of a 17 ms query. This index holds those
// columns by id (about 60 bytes an event), so the same lookups stay within a small B-tree that
// SQLite maintains with the table: 17 ms to 10 ms for that query. Searches name it (dialect.ts
// eventsFrom), so the plan does not depend on the planner statistics a calendar may not have.
//
// PostgreSQL reads its pg_trgm matches from the heap, where the LIKE recheck needs the text:
// nothing to do there.
import { sql, SqliteAdapter } from 'kysely';
import type { EvcalMigration } from './types';

/** The index a search reads its matches' list keys from (dialect.ts names it). */
export const SEARCH_KEYS_INDEX = 'evcal_events_list_keys';

export const searchKeys: EvcalMigration = {
  async up(db) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    await sql`create index ${sql.id(SEARCH_KEYS_INDEX)} on evcal_events (id, status, hide_from_listings, start_utc, end_utc, start_local)`.execute(db);
  },
};
