// Idempotency keys (issue 30): the answer of a write sent with an `Idempotency-Key`, kept by
// the write's own transaction. The primary key (scope, key) is what decides between servers
// sharing the database: a second insert for a key fails, and its write is rolled back with it.
// Expired records are removed by later keyed writes, oldest first (the index on `expires`).
import type { EvcalMigration } from './types';

export const idempotency: EvcalMigration = {
  async up(db) {
    await db.schema.createTable('evcal_idempotency')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('answer', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('evcal_idempotency_pk', ['scope', 'key'])
      .execute();
    await db.schema.createIndex('evcal_idempotency_expires').on('evcal_idempotency').columns(['expires']).execute();
  },
  async down(db) {
    await db.schema.dropTable('evcal_idempotency').execute();
  },
};
