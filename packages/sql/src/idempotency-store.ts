// Idempotency records in SQL (migration 0018): one row per caller and key. Reads and deletes
// are lookups by the primary key; pruning takes the rows that expired first through the index
// on `expires`, a bounded number per call.
import type { IdempotencyRecord, IdempotencyStore } from '@evcal/core/adapter';
import type { IdempotencyTable } from './schema';
import { guard } from './sql-errors';
import type { Db, Write } from './db';

export function sqlIdempotencyStore(db: Db, write: Write): IdempotencyStore {
  return {
    get: (scope, key) => guard(async () => recordOf(
      await db.selectFrom('evcal_idempotency').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst(),
    )),
    // A row for the key already there fails on the primary key: a storage conflict (sql-errors.ts).
    insert: (record) => write(async (tx) => {
      await tx.insertInto('evcal_idempotency').values(record).execute();
    }),
    delete: (scope, key) => write(async (tx) => {
      await tx.deleteFrom('evcal_idempotency').where('scope', '=', scope).where('key', '=', key).execute();
    }),
    prune: (now, limit) => write(async (tx) => {
      const expired = tx.selectFrom('evcal_idempotency').select(['scope', 'key']).where('expires', '<=', now).orderBy('expires').limit(limit).$asTuple('scope', 'key');
      const result = await tx.deleteFrom('evcal_idempotency')
        .where((eb) => eb(eb.refTuple('scope', 'key'), 'in', expired))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    }),
  };
}

function recordOf(row: IdempotencyTable | undefined): IdempotencyRecord | undefined {
  return row && {
    scope: row.scope, key: row.key, fingerprint: row.fingerprint, answer: row.answer, created: Number(row.created), expires: Number(row.expires),
  };
}
