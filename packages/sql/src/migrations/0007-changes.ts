// Keeping copies in sync: the change log (one row per record changed by a write transaction,
// keyed by the transaction's change number, which commits in order because write
// transactions are serialised on the change counter), the log's identity, webhook endpoints
// and the outbox of their deliveries; and the last modification of terms, with indexes on it
// for the `modified_after` / `modified_before` list filters.
import { sql, SqliteAdapter } from 'kysely';
import type { EvcalMigration, MigrateOptions } from './types';

export const changes: EvcalMigration = {
  async up(db, options: MigrateOptions = {}) {
    const postgres = !(db.getExecutor().adapter instanceof SqliteAdapter);
    const table = (name: string) => (options.schema ? sql.id(options.schema, name) : sql.id(name));
    // In byte order, as the filters compare (compile.ts modifiedConditions).
    const modified = postgres ? sql`modified_utc collate "C"` : sql`modified_utc`;
    await db.schema.alterTable('evcal_terms').addColumn('modified_utc', 'text').execute();
    for (const name of ['evcal_events', 'evcal_venues', 'evcal_organizers']) {
      await sql`create index ${sql.id(`${name}_modified_utc`)} on ${table(name)} (${modified}, id)`.execute(db);
    }
    await sql`create index ${sql.id('evcal_terms_modified_utc')} on ${table('evcal_terms')} (taxonomy, ${modified}, id)`.execute(db);

    await db.schema.createTable('evcal_changes')
      .addColumn('change', 'bigint', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('record_id', 'bigint', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('revision', 'bigint', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('status_before', 'text')
      .addColumn('author_before', 'integer')
      .addColumn('status_after', 'text')
      .addColumn('author_after', 'integer')
      .addPrimaryKeyConstraint('evcal_changes_pk', ['change', 'seq'])
      .execute();
    // Pruning finds the last change made before the retention cutoff.
    await db.schema.createIndex('evcal_changes_at').on('evcal_changes').columns(['at']).execute();

    await db.schema.createTable('evcal_meta')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await db.insertInto('evcal_meta').values({ name: 'change_log_id', value: globalThis.crypto.randomUUID() }).execute();
    await db.insertInto('evcal_sequences').values({ name: 'changes_pruned', value: 0 }).execute();

    await db.schema.createTable('evcal_webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('types', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema.createTable('evcal_webhook_deliveries')
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('change', 'bigint', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('record_key', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('leased_until', 'bigint')
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addPrimaryKeyConstraint('evcal_webhook_deliveries_pk', ['endpoint_id', 'change', 'seq'])
      .execute();
    // Claims read the due pending deliveries in order, and look for an earlier pending one of the same record.
    await db.schema.createIndex('evcal_webhook_deliveries_due').on('evcal_webhook_deliveries')
      .columns(['change', 'seq']).where(sql.ref('state'), '=', 'pending').execute();
    await db.schema.createIndex('evcal_webhook_deliveries_record').on('evcal_webhook_deliveries')
      .columns(['endpoint_id', 'record_key', 'change', 'seq']).where(sql.ref('state'), '=', 'pending').execute();
  },
  async down(db) {
    await db.schema.dropTable('evcal_webhook_deliveries').execute();
    await db.schema.dropTable('evcal_webhook_endpoints').execute();
    await db.deleteFrom('evcal_sequences').where('name', '=', 'changes_pruned').execute();
    await db.schema.dropTable('evcal_meta').execute();
    await db.schema.dropTable('evcal_changes').execute();
    await db.schema.dropIndex('evcal_terms_modified_utc').execute();
    for (const table of ['evcal_events', 'evcal_venues', 'evcal_organizers']) await db.schema.dropIndex(`${table}_modified_utc`).execute();
    await db.schema.alterTable('evcal_terms').dropColumn('modified_utc').execute();
  },
};
