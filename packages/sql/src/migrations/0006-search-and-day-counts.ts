// Lists that stay fast at a million events:
//
// - Search through an index. `search_text` is one folded copy of an event's title, description
//   and excerpt (core's foldText, joined by U+001F, which no search word matched this way
//   contains: see compile.ts), indexed by trigrams: an FTS5 `trigram` table on SQLite, a
//   pg_trgm GIN index on PostgreSQL.
// - Totals without scans. evcal_event_days counts events per UTC day of their start, status
//   and hidden flag (kind '' and ref 0), and per category and tag (kind and ref). Only events
//   that last between 0 and 7 days are counted there; the few others are counted exactly
//   (list-counts.ts). Triggers keep the counts exact whoever writes the rows, as the term
//   counts of 0002: a link counts under its event's current status, flag and start.
import { sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import type { EvcalMigration, MigrateOptions } from './types';

/** The longest event counted per day (list-counts.ts DAY_COUNTED_MS must equal it). */
const LONG = 7 * 86_400_000;
const DAY = 86_400_000;

export const searchAndDayCounts: EvcalMigration = {
  async up(db, options: MigrateOptions = {}) {
    const postgres = !(db.getExecutor().adapter instanceof SqliteAdapter);
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));

    // ---- search ----
    await db.schema.alterTable('evcal_events').addColumn('search_text', 'text', (c) => c.notNull().defaultTo('')).execute();
    const separator = postgres ? sql`chr(31)` : sql`char(31)`;
    await sql`update ${table('evcal_events')} set search_text = search_title || ${separator} || search_description || ${separator} || search_excerpt`.execute(db);
    if (postgres) await trigramIndexPostgres(db, table);
    else await trigramIndexSqlite(db);

    // ---- counts per day ----
    await db.schema.createTable('evcal_event_days')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('ref_id', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('hidden', 'integer', (c) => c.notNull())
      .addColumn('day', 'bigint', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('evcal_event_days_pk', ['kind', 'ref_id', 'status', 'hidden', 'day'])
      .execute();
    const days = table('evcal_event_days');
    await sql`insert into ${days} (kind, ref_id, status, hidden, day, n)
      select '', 0, e.status, e.hide_from_listings, ${dayOf(sql`e.start_utc`)}, count(*) from ${table('evcal_events')} e
      where ${counted(sql`e`)} group by e.status, e.hide_from_listings, ${dayOf(sql`e.start_utc`)}`.execute(db);
    await sql`insert into ${days} (kind, ref_id, status, hidden, day, n)
      select l.kind, l.ref_id, e.status, e.hide_from_listings, ${dayOf(sql`e.start_utc`)}, count(*)
      from ${table('evcal_event_links')} l join ${table('evcal_events')} e on e.id = l.event_id
      where l.kind in ('category', 'tag') and ${counted(sql`e`)}
      group by l.kind, l.ref_id, e.status, e.hide_from_listings, ${dayOf(sql`e.start_utc`)}`.execute(db);
    await (postgres ? dayTriggersPostgres(db, table) : dayTriggersSqlite(db));
    // The events no day counts, for their exact count (list-counts.ts writes the same predicate).
    await sql`create index ${sql.id('evcal_events_uncounted')} on ${table('evcal_events')} (status, hide_from_listings, start_utc)
      where not (end_utc - start_utc between 0 and ${sql.lit(LONG)})`.execute(db);
  },
  async down(db, options: MigrateOptions = {}) {
    const postgres = !(db.getExecutor().adapter instanceof SqliteAdapter);
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
    if (postgres) {
      await sql`drop trigger if exists evcal_event_links_days on ${table('evcal_event_links')}`.execute(db);
      await sql`drop trigger if exists evcal_events_days on ${table('evcal_events')}`.execute(db);
      await sql`drop function if exists ${table('evcal_days_links')}()`.execute(db);
      await sql`drop function if exists ${table('evcal_days_events')}()`.execute(db);
      await sql`drop index if exists ${table('evcal_events_search')}`.execute(db);
    } else {
      for (const name of ['evcal_events_days_insert', 'evcal_events_days_delete', 'evcal_events_days_update', 'evcal_event_links_days_insert',
        'evcal_event_links_days_delete', 'evcal_event_links_days_update', 'evcal_events_search_insert', 'evcal_events_search_delete', 'evcal_events_search_update']) {
        await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      }
      await sql`drop table if exists evcal_events_search`.execute(db);
    }
    await db.schema.dropIndex('evcal_events_uncounted').ifExists().execute();
    await db.schema.dropTable('evcal_event_days').ifExists().execute();
    await db.schema.alterTable('evcal_events').dropColumn('search_text').execute();
  },
};

/** The UTC day of an instant (floor division, also before 1970). */
function dayOf(instant: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`((${instant} - (((${instant} % ${sql.lit(DAY)}) + ${sql.lit(DAY)}) % ${sql.lit(DAY)})) / ${sql.lit(DAY)})`;
}

/** Whether an event row is counted per day: it lasts between 0 and 7 days. */
function counted(row: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`${row}.end_utc - ${row}.start_utc between 0 and ${sql.lit(LONG)}`;
}

// ---- the trigram indexes ----

async function trigramIndexSqlite(db: Kysely<any>): Promise<void> {
  // External content: the index keeps no copy of the texts, and checks each candidate against
  // evcal_events.search_text (a GLOB is answered exactly, not only by trigrams).
  await sql`create virtual table evcal_events_search using fts5(search_text, content='evcal_events', content_rowid='id',
    tokenize='trigram case_sensitive 1', detail='none')`.execute(db);
  await sql`insert into evcal_events_search(evcal_events_search) values ('rebuild')`.execute(db);
  const add = sql.raw(`insert into evcal_events_search (rowid, search_text) values (new.id, new.search_text);`);
  const remove = sql.raw(`insert into evcal_events_search (evcal_events_search, rowid, search_text) values ('delete', old.id, old.search_text);`);
  await sql`create trigger evcal_events_search_insert after insert on evcal_events begin ${add} end`.execute(db);
  await sql`create trigger evcal_events_search_delete after delete on evcal_events begin ${remove} end`.execute(db);
  await sql`create trigger evcal_events_search_update after update of id, search_text on evcal_events
    when old.id is not new.id or old.search_text is not new.search_text begin ${remove} ${add} end`.execute(db);
}

/**
 * pg_trgm, where the database lets this user create it (it is a trusted extension: the owner
 * of the database may). Without it search still works, by reading the window's events.
 */
async function trigramIndexPostgres(db: Kysely<any>, table: (name: string) => RawBuilder<unknown>): Promise<void> {
  await sql`savepoint evcal_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    const found = await sql<{ schema: string }>`select n.nspname as schema from pg_extension x join pg_namespace n on n.oid = x.extnamespace
      where x.extname = 'pg_trgm'`.execute(db);
    const ops = sql`${sql.id(found.rows[0]!.schema, 'gin_trgm_ops')}`;
    await sql`create index evcal_events_search on ${table('evcal_events')} using gin (search_text ${ops})`.execute(db);
    await sql`release savepoint evcal_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint evcal_trgm`.execute(db);
  }
}

// ---- counts per day ----

// SQLite's trigger bodies: a row's day, whether a day counts it, and adding one to a count.
const sqliteDay = (row: string) => `((${row}.start_utc - (((${row}.start_utc % ${DAY}) + ${DAY}) % ${DAY})) / ${DAY})`;
const sqliteCounted = (row: string) => `${row}.end_utc - ${row}.start_utc between 0 and ${LONG}`;
const SQLITE_UPSERT = 'on conflict (kind, ref_id, status, hidden, day) do update set n = n + 1;';

async function dayTriggersSqlite(db: Kysely<any>): Promise<void> {
  // A link, added to or taken from its term's count under its event's current values.
  const addLink = (link: 'new' | 'old') => sql.raw(`
    insert into evcal_event_days (kind, ref_id, status, hidden, day, n)
      select ${link}.kind, ${link}.ref_id, e.status, e.hide_from_listings, ${sqliteDay('e')}, 1 from evcal_events e
      where e.id = ${link}.event_id and ${link}.kind in ('category', 'tag') and ${sqliteCounted('e')} ${SQLITE_UPSERT}`);
  const removeLink = (link: 'new' | 'old') => sql.raw(`
    update evcal_event_days set n = n - 1 where kind = ${link}.kind and ref_id = ${link}.ref_id
      and (status, hidden, day) = (select e.status, e.hide_from_listings, ${sqliteDay('e')} from evcal_events e
        where e.id = ${link}.event_id and ${sqliteCounted('e')});`);
  await eventDayTriggersSqlite(db);
  const statements = [
    sql`create trigger evcal_event_links_days_insert after insert on evcal_event_links begin ${addLink('new')} end`,
    sql`create trigger evcal_event_links_days_delete after delete on evcal_event_links begin ${removeLink('old')} end`,
    sql`create trigger evcal_event_links_days_update after update of event_id, kind, ref_id on evcal_event_links
      begin ${removeLink('old')} ${addLink('new')} end`,
  ];
  for (const statement of statements) await statement.execute(db);
}

/**
 * SQLite's triggers on evcal_events that keep evcal_event_days (created here, made again by
 * migration 0016 in databases made before it). The counts an event leaves are found by their
 * keys, the calendar's ('', 0) and its terms', each one primary-key lookup. Written as
 * `kind = '' or (kind, ref_id) in (…)`, SQLite read every count of the calendar's own (every
 * day, status and flag: thousands of rows) for each event updated or deleted.
 */
export async function eventDayTriggersSqlite(db: Kysely<any>): Promise<void> {
  // An event, added to or taken from its day's count and its terms' (when it is counted).
  const addEvent = (row: 'new' | 'old') => sql.raw(`
    insert into evcal_event_days (kind, ref_id, status, hidden, day, n)
      select '', 0, ${row}.status, ${row}.hide_from_listings, ${sqliteDay(row)}, 1 where ${sqliteCounted(row)} ${SQLITE_UPSERT}
    insert into evcal_event_days (kind, ref_id, status, hidden, day, n)
      select l.kind, l.ref_id, ${row}.status, ${row}.hide_from_listings, ${sqliteDay(row)}, 1 from evcal_event_links l
      where l.event_id = ${row}.id and l.kind in ('category', 'tag') and ${sqliteCounted(row)} ${SQLITE_UPSERT}`);
  const removeEvent = (row: 'new' | 'old') => sql.raw(`
    update evcal_event_days set n = n - 1 where ${sqliteCounted(row)} and status = ${row}.status and hidden = ${row}.hide_from_listings
      and day = ${sqliteDay(row)}
      and ((kind = '' and ref_id = 0) or (kind, ref_id) in (select l.kind, l.ref_id from evcal_event_links l where l.event_id = ${row}.id));`);
  const statements = [
    sql`create trigger evcal_events_days_insert after insert on evcal_events begin ${addEvent('new')} end`,
    sql`create trigger evcal_events_days_delete after delete on evcal_events begin ${removeEvent('old')} end`,
    sql`create trigger evcal_events_days_update after update of id, status, hide_from_listings, start_utc, end_utc on evcal_events
      when old.id is not new.id or old.status is not new.status or old.hide_from_listings is not new.hide_from_listings
        or old.start_utc is not new.start_utc or old.end_utc is not new.end_utc
      begin ${removeEvent('old')} ${addEvent('new')} end`,
  ];
  for (const statement of statements) await statement.execute(db);
}

// PostgreSQL's trigger bodies: a row's day, whether a day counts it, and adding one to a count.
export const pgDay = (row: string) => sql.raw(`((${row}.start_utc - (((${row}.start_utc % ${DAY}) + ${DAY}) % ${DAY})) / ${DAY})`);
export const pgCounted = (row: string) => sql.raw(`(${row}.end_utc - ${row}.start_utc between 0 and ${LONG})`);
const pgUpsert = sql`on conflict (kind, ref_id, status, hidden, day) do update set n = d.n + 1`;

async function dayTriggersPostgres(db: Kysely<any>, table: (name: string) => RawBuilder<unknown>): Promise<void> {
  const days = table('evcal_event_days');
  const events = table('evcal_events');
  const links = table('evcal_event_links');
  await daysEventsFunctionPostgres(db, table);
  await sql`create function ${table('evcal_days_links')}() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        update ${days} d set n = d.n - 1 from ${events} e
        where e.id = old.event_id and ${pgCounted('e')} and d.kind = old.kind and d.ref_id = old.ref_id
          and d.status = e.status and d.hidden = e.hide_from_listings and d.day = ${pgDay('e')};
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into ${days} as d (kind, ref_id, status, hidden, day, n)
          select new.kind, new.ref_id, e.status, e.hide_from_listings, ${pgDay('e')}, 1 from ${events} e
          where e.id = new.event_id and new.kind in ('category', 'tag') and ${pgCounted('e')} ${pgUpsert};
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger evcal_event_links_days after insert or delete or update of event_id, kind, ref_id on ${links}
    for each row execute function ${table('evcal_days_links')}()`.execute(db);
  await sql`create trigger evcal_events_days after insert or delete or update of id, status, hide_from_listings, start_utc, end_utc on ${events}
    for each row execute function ${table('evcal_days_events')}()`.execute(db);
}

/**
 * The function of PostgreSQL's trigger on evcal_events that keeps evcal_event_days (created here,
 * replaced by migration 0015 in databases made before it). The counts an event leaves are found
 * by their keys, the calendar's ('', 0) and its terms', each one primary-key lookup: written as
 * `kind = '' or (kind, ref_id) in (…)`, PostgreSQL read the whole table for every event updated
 * or deleted (21 ms at 100k; minutes for a batch of scheduled posts published together).
 */
export async function daysEventsFunctionPostgres(db: Kysely<any>, table: (name: string) => RawBuilder<unknown>): Promise<void> {
  const days = table('evcal_event_days');
  const links = table('evcal_event_links');
  // Table names are qualified in the bodies: the adapter does not rely on the search path.
  await sql`create or replace function ${table('evcal_days_events')}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.id = new.id and old.status = new.status and old.hide_from_listings = new.hide_from_listings
        and old.start_utc = new.start_utc and old.end_utc = new.end_utc then return null; end if;
      if tg_op in ('DELETE', 'UPDATE') and ${pgCounted('old')} then
        update ${days} d set n = d.n - 1 where d.status = old.status and d.hidden = old.hide_from_listings and d.day = ${pgDay('old')}
          and (d.kind, d.ref_id) in (select '', 0 union all select l.kind, l.ref_id from ${links} l where l.event_id = old.id);
      end if;
      if tg_op in ('INSERT', 'UPDATE') and ${pgCounted('new')} then
        insert into ${days} as d (kind, ref_id, status, hidden, day, n) values ('', 0, new.status, new.hide_from_listings, ${pgDay('new')}, 1) ${pgUpsert};
        insert into ${days} as d (kind, ref_id, status, hidden, day, n)
          select l.kind, l.ref_id, new.status, new.hide_from_listings, ${pgDay('new')}, 1 from ${links} l
          where l.event_id = new.id and l.kind in ('category', 'tag') ${pgUpsert};
      end if;
      return null;
    end $$`.execute(db);
}
