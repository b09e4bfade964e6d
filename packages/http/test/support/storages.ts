// Storages for the property tests of the HTTP binding: memory, and SQLite through the SQL
// adapter (an in-memory database per storage).
import { Kysely, SqliteDialect } from 'kysely';
import type { Storage } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { createSqlStorage, loadBetterSqlite3, migrate } from '@evcal/sql';

const Database = await loadBetterSqlite3();

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
