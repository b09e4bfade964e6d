// The first schema: events, their links, venues, organizers, terms and the id sequences.
import { sql } from 'kysely';
import type { EvcalMigration } from './types';

export const initial: EvcalMigration = {
  async up(db) {
    await db.schema.createTable('evcal_sequences')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();
    await db.insertInto('evcal_sequences').values([{ name: 'post', value: 0 }, { name: 'term', value: 0 }]).execute();

    const post = (t: ReturnType<typeof db.schema.createTable>) => t
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('author_id', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('password', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('excerpt', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('date_utc', 'text')
      .addColumn('modified', 'text', (c) => c.notNull())
      .addColumn('modified_utc', 'text', (c) => c.notNull())
      .addColumn('image', 'text')
      .addColumn('search_title', 'text', (c) => c.notNull())
      .addColumn('search_description', 'text', (c) => c.notNull())
      .addColumn('search_excerpt', 'text', (c) => c.notNull());

    await post(db.schema.createTable('evcal_events'))
      .addColumn('parent_id', 'integer', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('timezone_abbr', 'text', (c) => c.notNull())
      .addColumn('all_day', 'integer', (c) => c.notNull())
      .addColumn('start_local', 'text', (c) => c.notNull())
      .addColumn('end_local', 'text', (c) => c.notNull())
      .addColumn('start_utc', 'bigint', (c) => c.notNull())
      .addColumn('end_utc', 'bigint', (c) => c.notNull())
      .addColumn('cost', 'text', (c) => c.notNull())
      .addColumn('currency_symbol', 'text', (c) => c.notNull())
      .addColumn('currency_position', 'text', (c) => c.notNull())
      .addColumn('currency_code', 'text', (c) => c.notNull())
      .addColumn('website', 'text')
      .addColumn('show_map', 'integer', (c) => c.notNull())
      .addColumn('show_map_link', 'integer', (c) => c.notNull())
      .addColumn('hide_from_listings', 'integer', (c) => c.notNull())
      .addColumn('sticky', 'integer', (c) => c.notNull())
      .addColumn('featured', 'integer', (c) => c.notNull())
      .addColumn('ticketed', 'integer')
      .execute();
    // Date windows filter on UTC instants; lists sort by local start; the default list adds status.
    await db.schema.createIndex('evcal_events_status_start_utc').on('evcal_events').columns(['status', 'start_utc']).execute();
    await db.schema.createIndex('evcal_events_start_utc').on('evcal_events').columns(['start_utc']).execute();
    await db.schema.createIndex('evcal_events_end_utc').on('evcal_events').columns(['end_utc']).execute();
    await db.schema.createIndex('evcal_events_start_local').on('evcal_events').columns(['start_local', 'id']).execute();
    await db.schema.createIndex('evcal_events_date').on('evcal_events').columns(['date', 'id']).execute();
    await db.schema.createIndex('evcal_events_parent').on('evcal_events').columns(['parent_id']).execute();
    await db.schema.createIndex('evcal_events_slug').on('evcal_events').column('slug').unique().where(sql.ref('slug'), '<>', '').execute();

    await db.schema.createTable('evcal_event_links')
      .addColumn('event_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('ref_id', 'integer', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('evcal_event_links_pk', ['event_id', 'kind', 'ref_id'])
      .execute();
    await db.schema.createIndex('evcal_event_links_ref').on('evcal_event_links').columns(['kind', 'ref_id', 'event_id']).execute();

    const linked = (t: ReturnType<typeof db.schema.createTable>) => post(t)
      .addColumn('phone', 'text', (c) => c.notNull())
      .addColumn('website', 'text', (c) => c.notNull())
      .addColumn('title_key', 'text', (c) => c.notNull())
      .addColumn('title_hash', 'integer', (c) => c.notNull())
      .addColumn('description_key', 'text', (c) => c.notNull())
      .addColumn('search_phone', 'text', (c) => c.notNull());
    await linked(db.schema.createTable('evcal_venues'))
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('city', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('province', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('zip', 'text', (c) => c.notNull())
      .addColumn('stateprovince', 'text', (c) => c.notNull())
      .addColumn('show_map', 'integer', (c) => c.notNull())
      .addColumn('show_map_link', 'integer', (c) => c.notNull())
      .addColumn('geo_lat', 'double precision')
      .addColumn('geo_lng', 'double precision')
      .addColumn('search_address', 'text', (c) => c.notNull())
      .addColumn('search_city', 'text', (c) => c.notNull())
      .addColumn('search_province', 'text', (c) => c.notNull())
      .addColumn('search_state', 'text', (c) => c.notNull())
      .addColumn('search_stateprovince', 'text', (c) => c.notNull())
      .addColumn('search_zip', 'text', (c) => c.notNull())
      .execute();
    await linked(db.schema.createTable('evcal_organizers'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('search_email', 'text', (c) => c.notNull())
      .addColumn('search_website', 'text', (c) => c.notNull())
      .execute();
    for (const table of ['evcal_venues', 'evcal_organizers']) {
      await db.schema.createIndex(`${table}_status_date`).on(table).columns(['status', 'date', 'id']).execute();
      await db.schema.createIndex(`${table}_title_hash`).on(table).column('title_hash').execute();
      await db.schema.createIndex(`${table}_slug`).on(table).column('slug').unique().where(sql.ref('slug'), '<>', '').execute();
    }

    await db.schema.createTable('evcal_terms')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('taxonomy', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('parent', 'integer', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('slug_key', 'text', (c) => c.notNull())
      .addColumn('description_key', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('evcal_terms_slug').on('evcal_terms').columns(['taxonomy', 'slug']).unique().where(sql.ref('slug'), '<>', '').execute();
    await db.schema.createIndex('evcal_terms_name').on('evcal_terms').columns(['taxonomy', 'name_key']).execute();
    await db.schema.createIndex('evcal_terms_parent').on('evcal_terms').columns(['taxonomy', 'parent']).execute();
  },
  async down(db) {
    for (const table of ['evcal_terms', 'evcal_organizers', 'evcal_venues', 'evcal_event_links', 'evcal_events', 'evcal_sequences']) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};
