// Search-index maintenance out of the write (SQLite): a write no longer updates the FTS5
// trigram index of 0010, which cost about 435 µs of a create (a new index segment per commit).
// Its triggers put the event's id in evcal_search_pending instead; search-index.ts merges the
// pending rows into the index in batches, in transactions of their own. Searches read the
// index and the pending rows together (compile.ts), so they stay exact at all times.
//
// What the index holds for an event follows from the pending table alone:
// - not pending: the event's search_text, or nothing when there is no such event;
// - pending with indexed_text NULL: nothing (created since the last merge);
// - pending with indexed_text: that text (what the event had when it was last merged).
// A merge deletes exactly what the index holds ('delete' needs the indexed text: an
// external-content index is corrupted by deleting text it does not hold), then adds the
// current text of the events that exist. search_text is NOT NULL, so NULL is unambiguous.
//
// PostgreSQL keeps its pg_trgm index, maintained by the write: nothing to do there.
import { sql, SqliteAdapter } from 'kysely';
import type { EvcalMigration } from './types';

export const searchPending: EvcalMigration = {
  async up(db) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    for (const name of ['evcal_events_search_insert', 'evcal_events_search_delete', 'evcal_events_search_update']) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
    await sql`create table evcal_search_pending (event_id integer primary key, indexed_text text)`.execute(db);
    // The first change to an event since the last merge records what the index holds for it
    // (do nothing on a conflict: a pending row already says it).
    const pending = (id: string, text: string) =>
      sql.raw(`insert into evcal_search_pending (event_id, indexed_text) values (${id}, ${text}) on conflict (event_id) do nothing;`);
    // A deleted event that the index never held leaves nothing to merge.
    const forget = sql.raw('delete from evcal_search_pending where event_id = old.id and indexed_text is null;');
    await sql`create trigger evcal_search_pending_insert after insert on evcal_events begin ${pending('new.id', 'null')} end`.execute(db);
    await sql`create trigger evcal_search_pending_delete after delete on evcal_events begin ${pending('old.id', 'old.search_text')} ${forget} end`.execute(db);
    await sql`create trigger evcal_search_pending_update after update of id, search_text on evcal_events
      when old.id is not new.id or old.search_text is not new.search_text
      begin ${pending('old.id', 'old.search_text')} ${pending('new.id', 'null')} end`.execute(db);
  },
};
