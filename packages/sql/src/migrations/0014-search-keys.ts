// Search at a million events on SQLite: the matches' list keys read from an index, not from
// the events' rows. A search reads every match of the FTS5 index (migration 0010), for the page
// and its total, and for each match the columns the list filters and orders by. Read from the
// table, each match was a lookup into a wide row (its texts, often on overflow pages): at 1M
// the 2,370 matches of `golden jam` cost about 7 ms of a 15 ms query. This index holds those
// columns by id (about 60 bytes an event), maintained by SQLite with the table, so the same
// lookups stay within a small B-tree: that query takes about 9 ms, 7.4 of them FTS5's match
// (docs/performance.md, bench/sqlite/search-parts.mjs).
//
// Only searches use it. It is partial, on `id > 0` (true of every event: posts' and
// occurrences' ids are positive), and a partial index serves only a query whose WHERE states
// its condition, which only a search does (compile.ts eventsOf, which also names the index,
// so that the plan does not depend on planner statistics a calendar may not have). As a plain
// index the planner also chose it for other lists' counts (a covering lookup by id looks cheap
// beside the table's), and counted a category's events at 1M by every link of its window
// instead of the small index of 0013: 3.6 ms to 52 ms.
//
// PostgreSQL reads its pg_trgm matches from the heap, where the LIKE recheck needs the text:
// nothing to do there.
import { sql, SqliteAdapter } from 'kysely';
import type { EvcalMigration } from './types';

/** The index a search reads its matches' list keys from (compile.ts eventsOf names it). */
export const SEARCH_KEYS_INDEX = 'evcal_events_match_keys';

export const searchKeys: EvcalMigration = {
  async up(db) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    await sql`create index ${sql.id(SEARCH_KEYS_INDEX)} on evcal_events (id, status, hide_from_listings, start_utc, end_utc, start_local)
      where id > 0`.execute(db);
  },
};
