// Each webhook endpoint's last attempt (when, the HTTP status, the error) and its failed
// attempts since the last success, for GET /webhooks and `evcal webhooks list`. Columns of the
// endpoint, written by the settlement of each attempt in a statement of its own (counted in
// the database, as several servers may settle at once); changing an endpoint leaves them.
import type { EvcalMigration } from './types';

export const webhookStatus: EvcalMigration = {
  async up(db) {
    await db.schema.alterTable('evcal_webhook_endpoints').addColumn('last_attempt_at', 'bigint').execute();
    await db.schema.alterTable('evcal_webhook_endpoints').addColumn('last_status', 'integer').execute();
    await db.schema.alterTable('evcal_webhook_endpoints').addColumn('last_error', 'text').execute();
    await db.schema.alterTable('evcal_webhook_endpoints').addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db) {
    for (const column of ['last_attempt_at', 'last_status', 'last_error', 'consecutive_failures']) {
      await db.schema.alterTable('evcal_webhook_endpoints').dropColumn(column).execute();
    }
  },
};
