// Preload (node --require) that records every distinct SQL text prepared through better-sqlite3,
// one JSON string a line, in a file per process under EVCAL_CAPTURE_SQL (a directory). With
// NODE_OPTIONS it follows child processes, so whole test runs can be captured:
//   mkdir -p /tmp/sql && NODE_OPTIONS="--require $PWD/bench/sqlite/capture-sql.cjs" EVCAL_CAPTURE_SQL=/tmp/sql \
//     EVCAL_STORAGE=sqlite node scripts/conformance.mjs
// then: node bench/sqlite/index-audit.mjs <seeded file> /tmp/sql
const { appendFileSync } = require('node:fs');
const { join } = require('node:path');
const dir = process.env.EVCAL_CAPTURE_SQL;
if (dir) {
  const seen = new Set();
  for (const name of ['better-sqlite3', 'better-sqlite3-napi']) {
    let Database;
    try {
      Database = require(require.resolve(name, { paths: [process.cwd(), __dirname] }));
    } catch {
      continue;
    }
    const prepare = Database.prototype.prepare;
    Database.prototype.prepare = function (sql, ...rest) {
      if (!seen.has(sql)) {
        seen.add(sql);
        appendFileSync(join(dir, `${process.pid}.sql`), `${JSON.stringify(sql)}\n`);
      }
      return prepare.call(this, sql, ...rest);
    };
  }
}
