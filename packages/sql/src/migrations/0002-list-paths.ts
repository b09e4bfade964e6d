// Lists that stay fast as the calendar grows: term filters start from the links (which carry
// the event's start), date windows are bounded on both sides, the default order is walked
// from its first possible row, counts are index-only, and term counts are kept up to date by
// triggers instead of counted on every page.
import { sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import { NO_OFFSET } from '../rows';
import type { EvcalMigration, MigrateOptions } from './types';

export const listPaths: EvcalMigration = {
  async up(db, options: MigrateOptions = {}) {
    const postgres = !(db.getExecutor().adapter instanceof SqliteAdapter);
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
    const index = (name: string, on: string, columns: RawBuilder<unknown>) => sql`create index ${sql.id(name)} on ${table(on)} (${columns})`.execute(db);
    // Text in byte order: the ORDER BY of lists (SqlDialect.binary) can then walk the index.
    const binary = (column: string) => (postgres ? sql`${sql.ref(column)} collate "C"` : sql.ref(column));

    // The event's UTC start on each of its links: a category or tag filter with a date window
    // reads the few links in the window instead of every link of the term.
    await db.schema.alterTable('evcal_event_links').addColumn('start_utc', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.updateTable('evcal_event_links').set((eb) => ({
      start_utc: eb.fn.coalesce(eb.selectFrom('evcal_events as e').select('e.start_utc').whereRef('e.id', '=', 'evcal_event_links.event_id'), eb.lit(0)),
    })).execute();
    await db.schema.dropIndex('evcal_event_links_ref').execute();
    await db.schema.createIndex('evcal_event_links_ref_start').on('evcal_event_links').columns(['kind', 'ref_id', 'start_utc', 'event_id']).execute();

    // start_offset: the local start read as UTC minus the UTC start (rows.ts startOffset), so
    // that a lower bound on start_utc gives one on start_local (compile.ts localStartFloor).
    await db.schema.alterTable('evcal_events').addColumn('start_offset', 'bigint', (c) => c.notNull().defaultTo(NO_OFFSET)).execute();
    if (postgres) {
      // The same rule as rows.ts: a canonical "YYYY-MM-DD HH:MM:SS" that round-trips, else NO_OFFSET.
      await sql`create function pg_temp.evcal_wall_ms(t text) returns bigint language plpgsql immutable as $$
        begin
          if t !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$' or to_char(t::timestamp, 'YYYY-MM-DD HH24:MI:SS') <> t then return null; end if;
          return (extract(epoch from t::timestamp) * 1000)::bigint;
        exception when others then return null;
        end $$`.execute(db);
      await sql`update ${table('evcal_events')} set start_offset = coalesce(pg_temp.evcal_wall_ms(start_local) - start_utc, ${sql.lit(NO_OFFSET)})`.execute(db);
      await sql`drop function pg_temp.evcal_wall_ms(text)`.execute(db);
    } else {
      await sql`update evcal_events set start_offset = case
        when strftime('%Y-%m-%d %H:%M:%S', start_local) = start_local then cast(strftime('%s', start_local) as integer) * 1000 - start_utc
        else ${sql.lit(NO_OFFSET)} end`.execute(db);
    }
    await db.schema.createIndex('evcal_events_start_offset').on('evcal_events').column('start_offset').execute();
    // max(start_utc - end_utc) bounds the start of events that end before a date (compile.ts startRange).
    await index('evcal_events_overhang', 'evcal_events', sql`(start_utc - end_utc)`);

    // Listed events (status, hidden or not): counted by start and end from the index alone, and
    // walked in list order from a start.
    await db.schema.dropIndex('evcal_events_status_start_utc').execute();
    await index('evcal_events_listed_start', 'evcal_events', sql`status, hide_from_listings, start_utc, end_utc`);
    await index('evcal_events_listed_order', 'evcal_events', sql`status, hide_from_listings, ${binary('start_local')}, id, start_utc, end_utc`);
    if (postgres) {
      // On PostgreSQL the first indexes for ordered lists used the database collation, which
      // the lists' byte order cannot use.
      await db.schema.dropIndex('evcal_events_start_local').execute();
      await db.schema.dropIndex('evcal_events_date').execute();
      await index('evcal_events_start_local', 'evcal_events', sql`${binary('start_local')}, id`);
      await index('evcal_events_date', 'evcal_events', sql`${binary('date')}, id`);
      for (const t of ['evcal_venues', 'evcal_organizers']) {
        await db.schema.dropIndex(`${t}_status_date`).execute();
        await index(`${t}_status_date`, t, sql`status, ${binary('date')}, id`);
      }
    }

    // Events per term and status, for term counts (categories and tags only).
    await db.schema.createTable('evcal_term_counts')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('ref_id', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull())
      // Status before the term: a page's terms are read as kind = ?, status in (…), ref_id in (…).
      .addPrimaryKeyConstraint('evcal_term_counts_pk', ['kind', 'status', 'ref_id'])
      .execute();
    await db.insertInto('evcal_term_counts').columns(['kind', 'ref_id', 'status', 'n'])
      .expression((eb) => eb.selectFrom('evcal_event_links as l').innerJoin('evcal_events as e', 'e.id', 'l.event_id')
        .select(['l.kind', 'l.ref_id', 'e.status', eb.fn.countAll().as('n')])
        .where('l.kind', 'in', ['category', 'tag'])
        .groupBy(['l.kind', 'l.ref_id', 'e.status']))
      .execute();
    await (postgres ? countTriggersPostgres(db, table) : countTriggersSqlite(db));
  },
  async down(db, options: MigrateOptions = {}) {
    const postgres = !(db.getExecutor().adapter instanceof SqliteAdapter);
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
    if (postgres) {
      await sql`drop trigger if exists evcal_event_links_counted on ${table('evcal_event_links')}`.execute(db);
      await sql`drop trigger if exists evcal_events_counted on ${table('evcal_events')}`.execute(db);
      await sql`drop function if exists ${table('evcal_count_links')}()`.execute(db);
      await sql`drop function if exists ${table('evcal_count_events')}()`.execute(db);
    } else {
      for (const name of ['evcal_event_links_counted_insert', 'evcal_event_links_counted_delete', 'evcal_event_links_counted_update',
        'evcal_events_counted_insert', 'evcal_events_counted_delete', 'evcal_events_counted_update']) {
        await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      }
    }
    await db.schema.dropTable('evcal_term_counts').ifExists().execute();
    for (const name of ['evcal_events_listed_start', 'evcal_events_listed_order', 'evcal_events_overhang', 'evcal_events_start_offset', 'evcal_event_links_ref_start']) {
      await db.schema.dropIndex(name).ifExists().execute();
    }
    await db.schema.createIndex('evcal_events_status_start_utc').on('evcal_events').columns(['status', 'start_utc']).execute();
    await db.schema.createIndex('evcal_event_links_ref').on('evcal_event_links').columns(['kind', 'ref_id', 'event_id']).execute();
    await db.schema.alterTable('evcal_events').dropColumn('start_offset').execute();
    await db.schema.alterTable('evcal_event_links').dropColumn('start_utc').execute();
  },
};

// ---- term counts ----
// evcal_term_counts holds, per category or tag and event status, the number of events with
// that status linked to the term: what countByTerm and term lists report. Triggers keep it
// exact whoever writes the rows (the adapter, an import, a bulk load): every link counts under
// its event's current status, and a link without its event counts nowhere.

/**
 * The term count triggers of SQLite. `counted` (migration 0009): SQL true of the rows whose
 * links count, given a row's id column (`new.id`, `old.event_id`…); every row when absent.
 */
export async function countTriggersSqlite(db: Kysely<any>, counted?: (id: string) => string): Promise<void> {
  const when = (id: string) => sql.raw(counted ? `when ${counted(id)}` : '');
  const and = (id: string) => sql.raw(counted ? `and ${counted(id)}` : '');
  // A link, added to or taken from its term's count under its event's status.
  const add = (link: 'new' | 'old') => sql.raw(`insert into evcal_term_counts (kind, ref_id, status, n)
      select ${link}.kind, ${link}.ref_id, e.status, 1 from evcal_events e where e.id = ${link}.event_id and ${link}.kind in ('category', 'tag')
      on conflict (kind, status, ref_id) do update set n = n + 1;`);
  const remove = (link: 'new' | 'old') => sql.raw(`update evcal_term_counts set n = n - 1
      where kind = ${link}.kind and ref_id = ${link}.ref_id and status = (select e.status from evcal_events e where e.id = ${link}.event_id);`);
  // An event's links, added to or taken from the counts of its status.
  const addEvent = (row: 'new' | 'old') => sql.raw(`insert into evcal_term_counts (kind, ref_id, status, n)
      select l.kind, l.ref_id, ${row}.status, 1 from evcal_event_links l where l.event_id = ${row}.id and l.kind in ('category', 'tag')
      on conflict (kind, status, ref_id) do update set n = n + 1;`);
  const removeEvent = (row: 'new' | 'old') => sql.raw(`update evcal_term_counts set n = n - 1
      where status = ${row}.status and (kind, ref_id) in (select l.kind, l.ref_id from evcal_event_links l where l.event_id = ${row}.id and l.kind in ('category', 'tag'));`);
  const statements = [
    sql`create trigger evcal_event_links_counted_insert after insert on evcal_event_links ${when('new.event_id')} begin ${add('new')} end`,
    sql`create trigger evcal_event_links_counted_delete after delete on evcal_event_links ${when('old.event_id')} begin ${remove('old')} end`,
    sql`create trigger evcal_event_links_counted_update after update of event_id, kind, ref_id on evcal_event_links
      ${when('new.event_id')} begin ${remove('old')} ${add('new')} end`,
    sql`create trigger evcal_events_counted_insert after insert on evcal_events ${when('new.id')} begin ${addEvent('new')} end`,
    sql`create trigger evcal_events_counted_delete after delete on evcal_events ${when('old.id')} begin ${removeEvent('old')} end`,
    sql`create trigger evcal_events_counted_update after update of id, status on evcal_events
      when (old.status is not new.status or old.id is not new.id) ${and('new.id')} begin ${removeEvent('old')} ${addEvent('new')} end`,
  ];
  for (const statement of statements) await statement.execute(db);
}

/**
 * The term count trigger functions of PostgreSQL (created or replaced), and their triggers
 * unless `replace`. `counted` as for SQLite.
 */
export async function countTriggersPostgres(
  db: Kysely<any>, table: (name: string) => RawBuilder<unknown>, counted?: (id: string) => string, replace = false,
): Promise<void> {
  const skip = (ids: [string, string]) => sql.raw(counted
    ? `if (tg_op <> 'INSERT' and not (${counted(ids[0])})) or (tg_op <> 'DELETE' and not (${counted(ids[1])})) then return null; end if;`
    : '');
  const counts = table('evcal_term_counts');
  const events = table('evcal_events');
  const links = table('evcal_event_links');
  // Table names are qualified in the bodies: the adapter does not rely on the search path.
  await sql`create or replace function ${table('evcal_count_links')}() returns trigger language plpgsql as $$
    begin
      ${skip(['old.event_id', 'new.event_id'])}
      if tg_op in ('DELETE', 'UPDATE') then
        update ${counts} c set n = c.n - 1 from ${events} e
        where e.id = old.event_id and c.kind = old.kind and c.ref_id = old.ref_id and c.status = e.status;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into ${counts} as c (kind, ref_id, status, n)
        select new.kind, new.ref_id, e.status, 1 from ${events} e where e.id = new.event_id and new.kind in ('category', 'tag')
        on conflict (kind, status, ref_id) do update set n = c.n + 1;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create or replace function ${table('evcal_count_events')}() returns trigger language plpgsql as $$
    begin
      ${skip(['old.id', 'new.id'])}
      if tg_op = 'UPDATE' and old.status = new.status and old.id = new.id then return null; end if;
      if tg_op in ('DELETE', 'UPDATE') then
        update ${counts} c set n = c.n - 1 from ${links} l
        where l.event_id = old.id and l.kind in ('category', 'tag') and c.kind = l.kind and c.ref_id = l.ref_id and c.status = old.status;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into ${counts} as c (kind, ref_id, status, n)
        select l.kind, l.ref_id, new.status, 1 from ${links} l where l.event_id = new.id and l.kind in ('category', 'tag')
        on conflict (kind, status, ref_id) do update set n = c.n + 1;
      end if;
      return null;
    end $$`.execute(db);
  if (replace) return;
  await sql`create trigger evcal_event_links_counted after insert or delete or update of event_id, kind, ref_id on ${links}
    for each row execute function ${table('evcal_count_links')}()`.execute(db);
  await sql`create trigger evcal_events_counted after insert or delete or update of id, status on ${events}
    for each row execute function ${table('evcal_count_events')}()`.execute(db);
}
