// Users and API tokens in SQL (migration 0008), and the readiness check. Reads are single
// indexed lookups: a token by id, a user by id or name_key, a user's tokens by user_id.
import { storageError, userNameKey, type StorageReadiness, type TokenCollection, type TokenRecord, type UserCollection, type UserRecord } from '@evcal/core/adapter';
import type { Kysely } from 'kysely';
import { pendingMigrations } from './migrations/index';
import type { TokensTable, UsersTable } from './schema';
import { guard } from './sql-errors';
import type { Db, Write } from './db';

export function userCollection(db: Db, write: Write): UserCollection {
  const select = () => db.selectFrom('evcal_users').selectAll();
  return {
    get: (id) => guard(async () => userRecord(await select().where('id', '=', id).executeTakeFirst())),
    getByName: (name) => guard(async () => userRecord(await select().where('name_key', '=', userNameKey(name)).executeTakeFirst())),
    list: () => guard(async () => (await select().orderBy('id').execute()).map((r) => userRecord(r)!)),
    insert: (user) => write(async (tx) => {
      await tx.insertInto('evcal_users').values(userRow(user)).execute();
    }),
    replace: (user) => write(async (tx) => {
      const result = await tx.updateTable('evcal_users').set(userRow(user)).where('id', '=', user.id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw storageError('conflict', new Error(`evcal/sql: no user ${user.id}`));
    }),
    delete: (id) => write(async (tx) => {
      await tx.deleteFrom('evcal_users').where('id', '=', id).execute();
    }),
  };
}

export function tokenCollection(db: Db, write: Write): TokenCollection {
  return {
    get: (id) => guard(async () => tokenRecord(await db.selectFrom('evcal_tokens').selectAll().where('id', '=', id).executeTakeFirst())),
    list: (userId) => guard(async () => {
      let query = db.selectFrom('evcal_tokens').selectAll();
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      return (await query.orderBy('created').orderBy('id').execute()).map((r) => tokenRecord(r)!);
    }),
    insert: (token) => write(async (tx) => {
      await tx.insertInto('evcal_tokens').values({
        id: token.id, user_id: token.userId, kind: token.kind, label: token.label, hash: token.hash, created: token.created, expires: token.expires,
      }).execute();
    }),
    delete: (id) => write(async (tx) => {
      await tx.deleteFrom('evcal_tokens').where('id', '=', id).execute();
    }),
  };
}

/** Reachable when the list of applied migrations can be read; at the schema when it holds every migration of this build. */
export async function sqlReadiness(db: Kysely<any>, schema: string | undefined): Promise<StorageReadiness> {
  let pending: string[];
  try {
    pending = await pendingMigrations(db, schema ? { schema } : {});
  } catch (error) {
    // A database that answers but has no evcal_migrations table was never migrated.
    const code = String((error as { code?: unknown }).code ?? '');
    const missing = code === '42P01' || /no such table/i.test((error as Error).message ?? '');
    return missing
      ? { ready: false, reason: 'schema', detail: 'the database has no evcal tables (never migrated)' }
      : { ready: false, reason: 'unreachable', detail: (error as Error).message || code };
  }
  return pending.length === 0 ? { ready: true } : { ready: false, reason: 'schema', detail: `migrations not applied: ${pending.join(', ')}` };
}

function userRow(u: UserRecord): UsersTable {
  return { id: u.id, name: u.name, name_key: userNameKey(u.name), role: u.role, created: u.created };
}

function userRecord(r: UsersTable | undefined): UserRecord | undefined {
  return r && { id: Number(r.id), name: r.name, role: r.role, created: Number(r.created) };
}

function tokenRecord(r: TokensTable | undefined): TokenRecord | undefined {
  return r && {
    id: r.id, userId: Number(r.user_id), kind: r.kind, label: r.label, hash: r.hash, created: Number(r.created),
    expires: r.expires === null ? null : Number(r.expires),
  };
}
