// Peak memory of one large write on SQLite: every published event of a seeded file set to draft
// in one transaction (setStatus), the process's peak RSS before and after.
//   node bench/sqlite/bulk-write-memory.mjs <seeded file>
import { createSqlStorage, withStatementCache, loadBetterSqlite3 } from '@evcal/sql';
import { Kysely, SqliteDialect } from 'kysely';
import { copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const Database = await loadBetterSqlite3();
const file = join(tmpdir(), `evcal-bulk-write-${process.pid}.db`);
copyFileSync(process.argv[2], file);
const sqlite = new Database(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
const storage = createSqlStorage({ db, dialect: 'sqlite', sqliteDatabase: sqlite, searchMerge: { after: 1e9, quietMs: 1e9 } });
const ids = sqlite.prepare("select id from evcal_events where status = 'publish'").pluck().all();
const before = process.resourceUsage().maxRSS;
const t = performance.now();
const changed = await storage.transaction((tx) => tx.events.setStatus(ids, 'publish', 'draft', tx.change));
console.log(`${changed.length} events set to draft in ${(performance.now() - t).toFixed(0)} ms; peak RSS ${(before / 1024).toFixed(0)} -> ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
await storage.close();
for (const x of [file, `${file}-wal`, `${file}-shm`]) rmSync(x, { force: true });
