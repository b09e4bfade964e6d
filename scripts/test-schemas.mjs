// The PostgreSQL schemas a test run creates are the run's to drop. Every PostgreSQL test
// database (packages/sql/test/databases.ts, the CLI tests' `?schema=evcal_<what>_<hex>`) and
// every conformance server (`conf_<hex>`) gets a fresh schema of its own; left behind, they
// piled up to 13,000 schemas and 18 GB in CI's database, and PostgreSQL's crash recovery then
// spent minutes syncing their files before it accepted a connection.
//
// A sweep lists the schemas that exist when a run starts; its end drops the test-named ones
// that did not. Two runs against one database at the same time would drop each other's
// schemas, so run them one after another (CI does).
import pg from 'pg';

/** The names test runs give their schemas, and only those. */
const TEST_SCHEMA = /^(evcal_[a-z]+_[0-9a-f]{8,10}|conf_[0-9a-f]{12})$/;

/** The schemas of `url`'s database now. */
async function schemas(client) {
  const { rows } = await client.query('select nspname from pg_namespace');
  return new Set(rows.map((r) => r.nspname));
}

async function connected(url, use) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts a sweep of `url`'s database: resolves to a function that drops every test-named
 * schema created since, and resolves to how many it dropped.
 */
export async function startSchemaSweep(url) {
  const before = await connected(url, schemas);
  return () => connected(url, async (client) => {
    const created = [...await schemas(client)].filter((name) => !before.has(name) && TEST_SCHEMA.test(name));
    for (const name of created) await client.query(`drop schema if exists "${name}" cascade`);
    return created.length;
  });
}

/**
 * vitest's global setup (vitest.config.ts): sweeps EVCAL_TEST_POSTGRES_URL's database around
 * the whole run. Without a server it does nothing.
 */
export default async function sweepAroundTestRun() {
  const url = process.env.EVCAL_TEST_POSTGRES_URL;
  if (!url) return undefined;
  const sweep = await startSchemaSweep(url);
  return async () => {
    const dropped = await sweep();
    if (dropped > 0) console.log(`dropped the ${dropped} PostgreSQL schemas this run's tests created`);
  };
}
