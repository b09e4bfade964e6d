// Which build of better-sqlite3 opens SQLite files, by the Node that runs.
//
// better-sqlite3 12 is the last line that runs on Node 20; it wraps its objects in
// node::ObjectWrap. Node 24.19 made ObjectWrap's destructor check for a current environment
// (nodejs/node#65446, open), so a statement that V8 collects outside JavaScript (an idle
// garbage collection, a worker's teardown) aborts the process. better-sqlite3 13 is built on
// Node-API and is not affected, but it needs Node 22 (its build crashes on Node 20).
//
// So an app that installs both (evcal's CLI does: `better-sqlite3` at ^12 and the alias
// `better-sqlite3-napi` at `npm:better-sqlite3@^13`, an optional dependency that npm skips on
// Node 20) gets the one its Node can run. With only one of them installed, that one is used.
import type BetterSqlite3 from 'better-sqlite3';

/** better-sqlite3's Database class (either build: their API is the same). */
export type BetterSqlite3Database = typeof BetterSqlite3;

/** The package name of the Node-API build, the alias the CLI installs. */
export const NAPI_BUILD = 'better-sqlite3-napi';

/** The build this Node should use, in order of preference. */
export function sqliteDriverCandidates(nodeVersion: string = process.versions.node): readonly string[] {
  const major = Number(nodeVersion.split('.')[0]);
  return major >= 22 ? [NAPI_BUILD, 'better-sqlite3'] : ['better-sqlite3'];
}

/**
 * better-sqlite3's Database class, from the build this Node can run: the Node-API build
 * (better-sqlite3 13, as `better-sqlite3-napi`) on Node 22 and later when it is installed,
 * else `better-sqlite3`.
 */
export async function loadBetterSqlite3(nodeVersion?: string): Promise<BetterSqlite3Database> {
  const candidates = sqliteDriverCandidates(nodeVersion);
  let last: unknown;
  for (const name of candidates) {
    try {
      // A variable specifier: the alias has no type declarations of its own (it is better-sqlite3).
      const module = (await import(name)) as { default?: BetterSqlite3Database };
      return (module.default ?? module) as BetterSqlite3Database;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' && (error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
      last = error;
    }
  }
  throw new Error(`SQLite needs better-sqlite3: install it (npm install better-sqlite3${candidates[0] === NAPI_BUILD ? ', or on Node 22 and later better-sqlite3@13' : ''})`, { cause: last });
}
