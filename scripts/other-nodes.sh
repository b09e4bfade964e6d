#!/usr/bin/env bash
# The unit tests (without PostgreSQL) and the conformance suite on memory under other Node
# majors than the machine's (CI runs 22 and 24; the machine has 20):
# `bash scripts/other-nodes.sh 22 24`.
# Each Node comes from the npm package `node@<major>`, installed into a temporary prefix.
#
# SQLite: on Node 22 and later evcal opens databases with better-sqlite3 13 (the optional
# dependency `better-sqlite3-napi`, a Node-API build; see packages/sql/src/sqlite-driver.ts),
# as an install on that Node would. `npm ci` on this machine's Node 20 skips it (it needs Node
# 22), so it is put in place here from the version the lockfile names, and taken away at the
# end, whatever happens. Run after `npm ci && npm run build` and the examples' install
# (`npm run test:examples`). `--conformance-only` runs only the conformance suite on memory
# (no native module is loaded there).
set -euo pipefail
cd "$(dirname "$0")/.."

conformance_only=0
if [ "${1:-}" = "--conformance-only" ]; then conformance_only=1; shift; fi
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)

work="$(mktemp -d)"
napi=node_modules/better-sqlite3-napi
placed=0
cleanup() {
  if [ "$placed" = 1 ]; then rm -rf "$napi"; fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ "$conformance_only" = 0 ] && [ ! -d "$napi" ]; then
  version="$(node -p "require('./package-lock.json').packages['node_modules/better-sqlite3-napi'].version")"
  echo "== better-sqlite3 $version (the Node-API build) from npm, for Node 22 and later"
  (cd "$work" && npm pack --silent "better-sqlite3@$version" >/dev/null)
  mkdir -p "$napi"
  placed=1
  tar xzf "$work/better-sqlite3-$version.tgz" -C "$napi" --strip-components=1
fi

for major in "${majors[@]}"; do
  prefix="$work/node$major"
  echo "== Node $major: installing node@$major from npm"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node@$major" >/dev/null
  bin="$prefix/node_modules/node/bin"
  if [ "$conformance_only" = 1 ]; then
    echo "== Node $("$bin/node" --version): conformance suite on memory"
    PATH="$bin:$PATH" node scripts/conformance.mjs
    continue
  fi
  (
    export PATH="$bin:$PATH"
    # The build evcal loads on this Node, opened once (a wrong build fails here, not in a test).
    node --input-type=module -e "
      const { loadBetterSqlite3, sqliteDriverCandidates } = await import('@evcal/sql');
      const Database = await loadBetterSqlite3();
      const db = new Database(':memory:');
      const name = sqliteDriverCandidates()[0];
      const { createRequire } = await import('node:module');
      const { version } = createRequire(process.cwd() + '/')(name + '/package.json');
      console.log('== Node ' + process.version + ': SQLite ' + db.prepare('select sqlite_version() v').get().v + ' through ' + name + ' (better-sqlite3 ' + version + ')');
      db.close();"
    # PostgreSQL is left to the machine's Node: its driver (pg) is plain JavaScript, and its
    # tests are the slowest third of the suite; SQLite, node:http, fetch, Intl and the rest run here.
    echo "== Node $(node --version): unit tests (PostgreSQL's run on the machine's Node only)"
    # The docs' code blocks (project docs) pack and install the packages: they run under the
    # machine's Node, the oldest `engines` allows, which is what their --engine-strict checks.
    env -u EVCAL_TEST_POSTGRES_URL npx vitest run --project '!docs'
    echo "== Node $(node --version): the examples' tests"
    npx vitest run --root examples
    echo "== Node $(node --version): conformance suite on memory"
    node scripts/conformance.mjs
  )
done
