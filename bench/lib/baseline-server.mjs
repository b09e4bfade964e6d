// The HTTP baseline: a plain node:http server that answers each route with response bytes
// recorded from evcal beforehand (status, headers, body), doing no work but reading the request.
// What evcal reaches relative to it is what the application costs on top of node:http.
//   node bench/lib/baseline-server.mjs <routes.json>
// routes.json: [{ method, path (with its query), status, headers, body (base64), conditional? }];
// a conditional route answers requests that carry If-None-Match (a recorded 304). Prints
// "listening <port>".
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const routes = new Map();
for (const r of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  const body = Buffer.from(r.body, 'base64');
  const length = r.status === 304 ? {} : { 'content-length': String(body.length) };
  routes.set(`${r.method} ${r.path}${r.conditional ? ' ?' : ''}`, { status: r.status, headers: { ...r.headers, ...length }, body });
}

const server = createServer((req, res) => {
  const route = routes.get(`${req.method} ${req.url}${req.headers['if-none-match'] ? ' ?' : ''}`);
  const send = () => {
    if (!route) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(route.status, route.headers);
    res.end(route.body);
  };
  if (req.method === 'GET' || req.method === 'HEAD') send();
  else {
    req.on('data', () => {});
    req.on('end', send);
  }
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
