// Which indexes the captured SQL uses: EXPLAIN QUERY PLAN of every distinct statement text in
// the given capture directories (bench/sqlite/capture-sql.cjs), against a seeded database (read
// only; parameters bound as NULL), and how many of them use each index.
//   node bench/sqlite/index-audit.mjs <db> <dir>...   SHOW=<part of an index name>: its statements; FAILED=1
// A plan that depends on a bound value (a partial index) may differ with NULL.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadBetterSqlite3 } from '@evcal/sql';
const Database = await loadBetterSqlite3();
const [file, ...dirs] = process.argv.slice(2);
const db = new Database(file, { readonly: true });
const texts = new Set();
for (const dir of dirs) for (const f of readdirSync(dir)) for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (line) texts.add(JSON.parse(line));
const used = new Map();
let explained = 0, failed = 0;
for (const text of texts) {
  if (!/^\s*(select|with|update|delete|insert)/i.test(text)) continue;
  let plan;
  try {
    const st = db.prepare(`explain query plan ${text}`);
    // Parameters bound as NULL (the plans of equality and range terms do not depend on them).
    const count = (text.match(/\?/g) ?? []).length;
    plan = st.all(...new Array(count).fill(null));
  } catch (e) { failed++; if (process.env.FAILED) console.log('FAILED', e.message, text.slice(0, 200)); continue; }
  explained++;
  for (const row of plan) {
    const m = /USING (?:COVERING )?INDEX (\S+)/.exec(row.detail) ?? /USING INTEGER PRIMARY KEY/.exec(row.detail);
    if (!m || !m[1]) continue;
    const list = used.get(m[1]) ?? [];
    list.push(text.replace(/\s+/g, ' ').slice(0, 160) + ' :: ' + row.detail);
    used.set(m[1], list);
  }
}
const all = db.prepare("select name, tbl_name from sqlite_master where type = 'index' order by tbl_name, name").all();
console.log(`${texts.size} texts, ${explained} explained, ${failed} failed`);
for (const { name, tbl_name } of all) {
  const list = used.get(name) ?? [];
  console.log(`${String(list.length).padStart(5)} ${tbl_name}.${name}`);
  if (process.env.SHOW && name.includes(process.env.SHOW)) for (const l of list) console.log('        ', l);
}
