// A process writing events to a SQLite file, for the search-merge tests (search-merge.test.ts):
//   node --conditions=@evcal/source --import tsx search-writer.ts <file> <first id> <count> merge|crash
// Inserts `count` events from `first id`, replaces every third and deletes every fifth, each
// write its own transaction. `merge`: merges after every 7 events written and on close.
// `crash`: never merges, and ends with SIGKILL once written (no close).
import { Kysely, SqliteDialect } from 'kysely';
import { eventRecord } from '@evcal/storage-test-suite';
import { createSqlStorage, loadBetterSqlite3 } from '../../src/index';
import { searchWords } from './search-words';

const [file, first, count, mode] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), process.argv[5]];
const Database = await loadBetterSqlite3();
const sqlite = new Database(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
const storage = createSqlStorage({
  db, dialect: 'sqlite', destroyOnClose: true,
  searchMerge: mode === 'merge' ? { after: 7, batch: 5 } : { after: Number.MAX_SAFE_INTEGER, quietMs: 2 ** 30 },
});
for (let id = first; id < first + count; id++) {
  await storage.events.insert(eventRecord(id, { title: searchWords(id, 0) }));
  if (id % 3 === 0) await storage.events.replace(eventRecord(id, { title: searchWords(id, 1), description: 'replaced' }));
  if (id % 5 === 0) await storage.events.delete(id);
}
if (mode === 'crash') {
  process.stdout.write('written\n');
  process.kill(process.pid, 'SIGKILL');
} else {
  await storage.close();
  process.stdout.write('done\n');
}
