// The write baseline for PostgreSQL: a plain node:http server that answers each POST with one
// `INSERT … RETURNING *` of a row as wide as an event's (a copy of evcal_events' columns, the
// title and id its own), over a pg pool of the size evcal serve's pool has (pg's default, 10),
// and the row as JSON. What evcal reaches relative to it is what a create costs on top of
// storing a row.
//   node bench/lib/pg-insert-server.mjs <postgres url> <schema of a calendar with events>
// Prints "listening <port>".
import { createServer } from 'node:http';
import pg from 'pg';

const [url, schema] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const table = `"${schema}".bench_insert_baseline`;
await pool.query(`drop table if exists ${table}`);
await pool.query(`create table ${table} (like "${schema}".evcal_events including defaults)`);
await pool.query(`alter table ${table} add primary key (id)`);
await pool.query(`drop sequence if exists "${schema}".bench_insert_ids`);
await pool.query(`create sequence "${schema}".bench_insert_ids`);
const { rows: [template] } = await pool.query(`select * from "${schema}".evcal_events order by id limit 1`);
const columns = Object.keys(template).filter((c) => c !== 'id' && c !== 'title');
const text = `insert into ${table} (id, title, ${columns.map((c) => `"${c}"`).join(', ')})
  values (nextval('"${schema}".bench_insert_ids'), $1, ${columns.map((_, i) => `$${i + 2}`).join(', ')}) returning *`;
const values = columns.map((c) => template[c]);

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let title = 'untitled';
    try {
      title = String(JSON.parse(Buffer.concat(chunks).toString()).title ?? title);
    } catch { /* a body that is not JSON keeps the default title */ }
    pool.query(text, [title, ...values]).then(({ rows: [row] }) => {
      const body = JSON.stringify(row);
      res.writeHead(201, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }, (error) => {
      res.writeHead(500);
      res.end(String(error.message));
    });
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
