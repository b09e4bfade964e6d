// What a supervisor does with `evcal serve`'s standard output (systemd, Docker, runit read it
// through a pipe): reads every line as it comes. Run as its own process with the server's
// stdout as its stdin; it prints the server's "listening" line on its own stdout (the benchmark
// waits for it), and on the server's end of output the number of lines and bytes it read, as
// `log-reader lines <n> bytes <b> cpu_us <its own CPU>`.
//   node bench/lib/log-reader.mjs
let lines = 0;
let bytes = 0;
let announced = false;
let pending = '';
process.stdin.on('data', (chunk) => {
  bytes += chunk.length;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  if (!announced) {
    pending += chunk.toString('utf8');
    const line = pending.split('\n').find((l) => l.includes('evcal listening on'));
    if (line) {
      announced = true;
      pending = '';
      process.stdout.write(`${line}\n`);
    }
  }
});
process.stdin.on('end', () => {
  const cpu = process.cpuUsage();
  process.stdout.write(`log-reader lines ${lines} bytes ${bytes} cpu_us ${cpu.user + cpu.system}\n`);
});
