// The CPU an access line costs `evcal serve`'s logger (packages/cli/src/logger.ts), alone: lines
// as the access log writes them, 10 a turn of the event loop as requests come, into stdout.
// Counts this process's CPU, the thread pool's writes included. Run with stdout a pipe read by
// another process, as a supervisor reads it:
//   node bench/log-line.mjs [--lines 300000] | cat > /dev/null
// Prints, on stderr, the CPU a line for each of four rounds.
import { parseArgs } from 'node:util';
import { createLogger } from '../packages/cli/dist/index.js';

const { values: opts } = parseArgs({ options: { lines: { type: 'string', default: '300000' } } });
const count = Number(opts.lines);
const logger = createLogger({ level: 'info' });
const fields = (i) => ({
  request_id: `4c1e7d9a-1111-2222-3333-${100000000000 + i}`, method: 'GET', path: '/cal/events/v1/events?per_page=10',
  address: '127.0.0.1', status: 304, duration_ms: 0.1, user_id: null,
});
for (let round = 0; round < 4; round++) {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i += 10) {
    for (let j = i; j < i + 10; j++) logger.info('request', fields(j));
    // A turn of the event loop now and then, so the writes are not all held to the end.
    if (i % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await logger.flush();
  const cpu = process.cpuUsage(before);
  process.stderr.write(`round ${round}: ${((cpu.user + cpu.system) / count).toFixed(2)} µs of CPU a line (user ${(cpu.user / count).toFixed(2)}, system ${(cpu.system / count).toFixed(2)})\n`);
}
