// Storages for the property tests of the HTTP binding: memory, and SQLite through the SQL
// adapter (an in-memory database per storage).
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { createSqlStorage, migrate } from '@evcal/sql';

export interface StorageKind {
  readonly name: string;
  create(): Promise<Storage>;
}

export const STORAGES: readonly StorageKind[] = [
  { name: 'memory', create: async () => createMemoryStorage() },
  {
    name: 'sqlite',
    create: async () => {
      const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
      await migrate(db);
      return createSqlStorage({ db, dialect: 'sqlite', destroyOnClose: true });
    },
  },
];
