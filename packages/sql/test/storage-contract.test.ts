// The storage contract, the differential property test included, on SQLite and PostgreSQL.
import type { Storage } from '@evcal/core/adapter';
import { registerStorageSuite } from '@evcal/storage-test-suite';
import { describe } from 'vitest';
import { openPostgres, openSqlite, POSTGRES_URL, type OpenedDatabase } from './databases';

const opened = new WeakMap<Storage, OpenedDatabase>();
const track = (o: OpenedDatabase) => {
  opened.set(o.storage, o);
  return o.storage;
};

registerStorageSuite({
  name: 'sql (sqlite)',
  create: async () => track(await openSqlite()),
  reopen: async (storage) => {
    await storage.close();
    return track(await opened.get(storage)!.reopen());
  },
  propertyRuns: 40,
});

// The same database through the statement cache (withStatementCache): statements reused
// across calls, transactions and schema changes must answer exactly as new ones.
describe('sqlite with a statement cache', () => {
  registerStorageSuite({
    name: 'sql (sqlite, statement cache)',
    create: async () => track(await openSqlite(undefined, true)),
    reopen: async (storage) => {
      await storage.close();
      return track(await opened.get(storage)!.reopen());
    },
    propertyRuns: 40,
  });
});

describe.skipIf(!POSTGRES_URL)('postgres', () => {
  registerStorageSuite({
    name: 'sql (postgres)',
    create: async () => track(await openPostgres()),
    reopen: async (storage) => {
      await storage.close();
      return track(await opened.get(storage)!.reopen());
    },
    propertyRuns: 25,
  });
});
