#!/usr/bin/env bash
# What differs between Node majors, under other majors than the machine's (CI runs 22 and 24;
# the machine has 20, where npm test runs everything): the native module (SQLite through
# better-sqlite3: the sql package's tests on SQLite), the built packages as users run them
# (evcal serve's own tests on SQLite: node:http, fetch, Intl, the CLI), and the conformance
# suite on memory. `bash scripts/other-nodes.sh 22 24`; the majors run side by side, each
# printing its log when it is done. Each Node comes from the npm package `node@<major>`,
# installed into a temporary prefix.
#
# SQLite: on Node 22 and later evcal opens databases with better-sqlite3 13 (the optional
# dependency `better-sqlite3-napi`, a Node-API build; see packages/sql/src/sqlite-driver.ts),
# as an install on that Node would. `npm ci` on this machine's Node 20 skips it (it needs Node
# 22), so it is put in place here from the version the lockfile names, and taken away at the
# end, whatever happens. Run after `npm ci && npm run build`. `--conformance-only` runs only the
# conformance suite on memory
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

# One major: its Node installed, then what differs, in order; stops at the first failure.
run_major() {
  local major="$1"
  local prefix="$work/node$major"
  echo "== Node $major: installing node@$major from npm"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node@$major" >/dev/null
  local bin="$prefix/node_modules/node/bin"
  export PATH="$bin:$PATH"
  if [ "$conformance_only" = 1 ]; then
    echo "== Node $(node --version): conformance suite on memory"
    node scripts/conformance.mjs
    return
  fi
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
  # PostgreSQL is left to the machine's Node: its driver (pg) is plain JavaScript.
  echo "== Node $(node --version): the sql package's tests on SQLite (the native module)"
  env -u EVCAL_TEST_POSTGRES_URL npx vitest run --project sql
  echo "== Node $(node --version): evcal serve's own tests on SQLite and memory (the built packages)"
  env -u EVCAL_TEST_POSTGRES_URL npx vitest run --project cli test/serve.test.ts test/storage-url.test.ts test/startup.test.ts test/operations.test.ts
  echo "== Node $(node --version): conformance suite on memory"
  node scripts/conformance.mjs
}

pids=()
for major in "${majors[@]}"; do
  ( run_major "$major" ) >"$work/node$major.log" 2>&1 &
  pids+=("$!")
done
failed=0
for i in "${!majors[@]}"; do
  if wait "${pids[$i]}"; then status=passed; else status=FAILED; failed=1; fi
  echo "== Node ${majors[$i]}: $status; its log:"
  cat "$work/node${majors[$i]}.log"
done
exit "$failed"
