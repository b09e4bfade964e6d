// Accounts (issue 19): the users of a server and their API tokens, kept as SHA-256 hashes.
// Users are found by name_key (the name lowercased, as core's userNameKey makes it), tokens
// by id, and a user's application passwords by user_id. No foreign key: core removes a
// user's tokens in the transaction that removes the user.
import type { EvcalMigration } from './types';

export const accounts: EvcalMigration = {
  async up(db) {
    await db.schema.createTable('evcal_users')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createTable('evcal_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint')
      .execute();
    await db.schema.createIndex('evcal_tokens_user').on('evcal_tokens').columns(['user_id', 'created']).execute();
  },
  async down(db) {
    await db.schema.dropTable('evcal_tokens').execute();
    await db.schema.dropTable('evcal_users').execute();
  },
};
