// @evcal/sql: evcal storage on SQLite and PostgreSQL through Kysely.
export { createSqlStorage } from './sql-storage';
export type { SqlStorageOptions } from './sql-storage';
export type { SqliteCounterSource } from './sqlite-change-now';
export type { SearchIndexerOptions } from './search-index';
export { isHotStandby, migrate, MIGRATIONS, pendingMigrations } from './migrations/index';
export type { MigrateOptions } from './migrations/index';
export type { DialectName } from './dialect';
export type { EvcalDatabase } from './schema';
export { withStatementCache } from './sqlite-statements';
export type { SqliteStatementSource } from './sqlite-statements';
export { loadBetterSqlite3, sqliteDriverCandidates } from './sqlite-driver';
export type { BetterSqlite3Database } from './sqlite-driver';
export { watchPostgresPool, type Preparing, type WatchOptions } from './postgres-pool';
export type { WatchableClient, WatchablePool } from './postgres-pool';
