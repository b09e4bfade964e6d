// Pages a create transaction writes (WAL frames), and time in COMMIT, on a copy of a seeded database.
// Usage: node bench/sqlite/create-pages.mjs <seeded file> [trigger or idx:index names to drop, comma-separated]
//   NOCKPT=1: no automatic checkpoints, and the WAL pages written per create are reported.
import { loadBetterSqlite3 } from '@evcal/sql';
import { copyFileSync, rmSync, statSync } from 'node:fs';
const Database = await loadBetterSqlite3();
const [src, drop] = [process.argv[2], (process.argv[3] ?? '').split(',').filter(Boolean)];
const f = '/tmp/raw-pages.db'; for (const x of [f, f + '-wal', f + '-shm']) rmSync(x, { force: true });
copyFileSync(src, f);
const db = new Database(f); db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL');
if (process.env.NOCKPT) db.pragma('wal_autocheckpoint = 0');
for (const t of drop) db.exec(t.startsWith('idx:') ? `drop index ${t.slice(4)}` : `drop trigger ${t}`);
const row = db.prepare('select * from evcal_events where id = (select max(id) from evcal_events)').get();
const links = db.prepare('select * from evcal_event_links where event_id = ?').all(row.id);
const cols = Object.keys(row); const lcols = Object.keys(links[0]);
const ins = db.prepare(`insert into evcal_events (${cols.join(',')}) values (${cols.map(() => '?').join(',')})`);
const insL = db.prepare(`insert into evcal_event_links (${lcols.join(',')}) values (${lcols.map(() => '?').join(',')})`);
const seq = db.prepare(`update evcal_sequences set value = value + 1 where name = ? returning value`);
const begin = db.prepare('begin'); const commit = db.prepare('commit');
let id = row.id + 1000;
const once = () => { begin.run(); seq.get('change'); seq.get('post'); id++; ins.run(...cols.map((c) => c === 'id' ? id : c === 'slug' ? `${row.slug}-${id}` : row[c])); for (const l of links) insL.run(...lcols.map((c) => c === 'event_id' ? id : l[c])); const t = performance.now(); commit.run(); return performance.now() - t; };
for (let i = 0; i < 200; i++) once();
db.pragma('wal_checkpoint(TRUNCATE)');
const N = 1000; const c = process.cpuUsage(); const t = performance.now(); let inCommit = 0;
for (let i = 0; i < N; i++) inCommit += once();
const cpu = process.cpuUsage(c);
const wal = statSync(f + '-wal').size;
console.log((drop.join(',') || 'everything').slice(0, 50).padEnd(50), 'wall', ((performance.now() - t) / N * 1000).toFixed(0), 'µs, cpu', ((cpu.user + cpu.system) / N).toFixed(0), 'µs, commit', (inCommit / N * 1000).toFixed(0), 'µs per create;', process.env.NOCKPT ? `WAL ${(wal / N / 4120).toFixed(1)} pages per create` : '');
