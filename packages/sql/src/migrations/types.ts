// What a migration is: Kysely's, with the PostgreSQL schema passed along for the SQL that
// names tables itself (function bodies, triggers).
import type { Kysely, Migration } from 'kysely';

export interface MigrateOptions {
  /** PostgreSQL schema for every table (created if missing). Not used on SQLite. */
  readonly schema?: string;
  /** PostgreSQL: how long `migrate` waits for another process's migration before it fails. @default 60000 */
  readonly lockTimeoutMs?: number;
}

/** A migration; `up` also gets the PostgreSQL schema, for the SQL that names tables itself (function bodies). */
export interface EvcalMigration extends Migration {
  up(db: Kysely<any>, options?: MigrateOptions): Promise<void>;
  down?(db: Kysely<any>, options?: MigrateOptions): Promise<void>;
}
