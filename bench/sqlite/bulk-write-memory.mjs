// Peak memory of one large write on SQLite: every published event of a seeded file set to draft
// in one transaction (setStatus), the process's peak RSS before and after.
//   node bench/sqlite/bulk-write-memory.mjs <seeded file>
import { openSqliteCopy } from '../lib/stores.mjs';

const { sqlite, storage, close } = await openSqliteCopy(process.argv[2], 'bulk-write');
const ids = sqlite.prepare("select id from evcal_events where status = 'publish'").pluck().all();
const before = process.resourceUsage().maxRSS;
const t = performance.now();
const changed = await storage.transaction((tx) => tx.events.setStatus(ids, 'publish', 'draft', tx.change));
console.log(`${changed.length} events set to draft in ${(performance.now() - t).toFixed(0)} ms; peak RSS ${(before / 1024).toFixed(0)} -> ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
await close();
