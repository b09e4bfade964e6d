// Child processes of the benchmarks: servers started and awaited until they say they listen,
// stopped gracefully, and the CPU each has used.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Starts a child process and resolves with it once `ready` matches a line of its output (or of
 * `watched`'s: a log reader's, when the child's output goes to it).
 */
export function start(args, ready, { stdout = 'pipe', watched } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', stdout, 'pipe'] });
    const source = watched ?? child.stdout;
    let out = '';
    let err = '';
    const onData = (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) {
        source.off('data', onData);
        resolve({ child, match: m });
      }
    };
    source.on('data', onData);
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${err || out}`)));
  });
}

/** Stops a child (SIGTERM, SIGKILL after 5 s); resolves once it has exited. */
export const stop = (child) => new Promise((resolve) => {
  if (child.exitCode !== null) return resolve();
  child.removeAllListeners('exit');
  child.once('exit', resolve);
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 5000).unref();
});

const CLOCK_TICKS = 100;

/** CPU time a process has used so far, in µs (Linux: /proc/<pid>/stat, user + system). */
export function cpuMicros(pid) {
  const { user, system } = cpuOf(`/proc/${pid}/stat`);
  return user + system;
}

/**
 * CPU time a process's main thread (the event loop's, whose id is the process's) has used so
 * far, in µs, user and system apart: the thread pool's and V8's helper threads' left out.
 */
export function mainThreadCpuMicros(pid) {
  return cpuOf(`/proc/${pid}/task/${pid}/stat`);
}

function cpuOf(statFile) {
  const stat = readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) * (1e6 / CLOCK_TICKS), system: Number(fields[12]) * (1e6 / CLOCK_TICKS) };
}
