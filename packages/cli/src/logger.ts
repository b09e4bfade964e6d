// Logs as JSON lines: one object per line with `level` (its name), `time` (ISO 8601) and the
// fields of the event, then `msg`, in pino's layout. Written to stdout (a supervisor or
// container runtime collects it) off the request path.
//
// The request path pays for two things per line, and both are kept small:
// - **Formatting.** A line whose fields are all flat (strings, finite numbers, booleans, null;
//   `undefined` leaves the field out), as the access line's are, is written by `flatLine` in
//   one pass; anything else (an object, an array, a non-finite number) goes through pino, the
//   reference: `flatLine` writes what pino writes for the lines it takes (the tests compare
//   them), and declines the rest.
// - **Writing.** Lines are gathered in memory and handed to pino's asynchronous destination
//   (sonic-boom) 32 KB at a time, and every 100 ms when fewer come; it writes them from libuv's
//   thread pool. A request costs no system call, and the reader (a supervisor, through a pipe)
//   is woken once per batch, not per line. Handing sonic-boom a line at a time costs more than
//   formatting it: it measures the bytes of its whole pending buffer on every write.
// What is gathered is written out when the server stops (`flush`), and synchronously when the
// process exits.
import { writeSync } from 'node:fs';
import pino, { type Logger as Pino } from 'pino';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  readonly level: LogLevel;
  enabled(level: LogLevel): boolean;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** An `info` line written at every level: that the server listens, which supervisors and scripts wait for. */
  announce(msg: string, fields?: LogFields): void;
  /** Writes out what is buffered; resolves once it is written. */
  flush?(): Promise<void>;
}

export interface LoggerOptions {
  /** The least severe level written. @default 'info' */
  readonly level?: LogLevel;
  /** Where lines go, one call per line, synchronously (tests). @default stdout, asynchronously */
  readonly write?: (line: string) => void;
  /** @default Date.now */
  readonly now?: () => number;
}

/** Where lines are written: one call per line. */
interface Destination {
  write(line: string): void;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const now = options.now ?? Date.now;
  const batched = options.write ? undefined : new Batched();
  const destination: Destination = batched ?? { write: options.write! };
  const timestamp = stampedTime(now);
  const settings = pinoSettings(timestamp);
  const reference = pino({ ...settings, level }, destination);
  // The announcement is written at every level.
  const least = LOG_LEVELS.indexOf(level);
  const log = (l: LogLevel, always = false) => {
    const written = always || LOG_LEVELS.indexOf(l) >= least;
    const prefix = `{"level":"${l}"`;
    // The reference is the logger at the level, or one at info for the announcement.
    const to: Pino = written && LOG_LEVELS.indexOf(l) < least ? pino({ ...settings, level: l }, destination) : reference;
    return (msg: string, fields: LogFields = {}) => {
      if (!written) return;
      const line = flatLine(prefix, timestamp(), msg, fields);
      if (line === undefined) to[l](fields, msg);
      else destination.write(line);
    };
  };
  return {
    level,
    enabled: (l) => LOG_LEVELS.indexOf(l) >= least,
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    announce: log('info', true),
    flush: () => (batched ? batched.flush() : Promise.resolve()),
  };
}

/** How pino writes evcal's lines: `level` by name, `time` as given, no `pid` or `hostname`, `msg` last. */
export function pinoSettings(timestamp: () => string) {
  return {
    base: null,
    messageKey: 'msg',
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp,
  };
}

/**
 * The time of a line (`,"time":"…"`, as pino's `timestamp` option gives it), formatted once per
 * millisecond: lines of requests served within the same one share it (at thousands of requests
 * a second, most do).
 */
function stampedTime(now: () => number): () => string {
  let stamped = Number.NaN;
  let stamp = '';
  return () => {
    const t = now();
    if (t !== stamped) {
      stamped = t;
      stamp = `,"time":"${new Date(t).toISOString()}"`;
    }
    return stamp;
  };
}

/**
 * The line pino writes for `fields` and `msg`, given the start of the line (`{"level":"info"`)
 * and its time (`,"time":"…"`), when every field is flat: a string, a finite number, a boolean,
 * null, or undefined (left out, as pino leaves it out). Undefined for any other field: the
 * caller gives that line to pino. Strings are escaped by `JSON.stringify`, as pino escapes them
 * (pino writes a lone surrogate of a short string raw; this escapes it, which is what JSON asks).
 */
export function flatLine(prefix: string, time: string, msg: string, fields: LogFields): string | undefined {
  let line = prefix + time;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    switch (typeof value) {
      case 'string':
        line += keyOf(key) + JSON.stringify(value);
        break;
      case 'number':
        if (!Number.isFinite(value)) return undefined;
        line += keyOf(key) + value;
        break;
      case 'boolean':
        line += keyOf(key) + value;
        break;
      case 'undefined':
        break;
      default:
        if (value !== null) return undefined;
        line += `${keyOf(key)}null`;
    }
  }
  return `${line},"msg":${JSON.stringify(msg)}}\n`;
}

/** `,"key":` for each field name, written once: a line's names are the same from line to line. */
const KEYS = new Map<string, string>();

function keyOf(key: string): string {
  let written = KEYS.get(key);
  if (written === undefined) {
    written = `,${JSON.stringify(key)}:`;
    // Names come from evcal's code, not from requests; the bound is for safety.
    if (KEYS.size < 1024) KEYS.set(key, written);
  }
  return written;
}

/** Lines are gathered, encoded, in chunks of this many bytes… */
const CHUNK = 64 * 1024;
/** …and a chunk holding at least this many is handed to sonic-boom. */
const BATCH = 32 * 1024;

/** What `Atomics.wait` sleeps on. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Every live batch, for the process's exit: one listener for them all. */
const LIVE = new Set<Batched>();
let listening = false;

/**
 * Lines gathered and written to stdout in batches through sonic-boom. Each line is encoded into
 * the current chunk as it comes (a copy made anyway on the way out), so a batch is handed over
 * as bytes, with nothing left to measure or join.
 */
class Batched implements Destination {
  private readonly out = pino.destination({
    dest: 1,
    sync: false,
    contentMode: 'buffer',
    // A batch is written as soon as it is handed over (the gathering is done here). Not 0:
    // sonic-boom's flush then answers at once, without waiting for what it holds to be written.
    minLength: 1,
    maxWrite: CHUNK,
    // A reader that stops reading for good (a pipe nobody drains) costs at most this much
    // memory: later lines are dropped until it reads again, rather than serving stalling.
    maxLength: 16 * 1024 * 1024,
  });

  private chunk = Buffer.allocUnsafe(CHUNK);
  private used = 0;

  constructor() {
    setInterval(() => this.handOver(), 100).unref();
    LIVE.add(this);
    if (!listening) {
      listening = true;
      // pino's own exit listener flushes sonic-boom; this one writes what is gathered here after it.
      process.on('exit', () => {
        for (const batch of LIVE) batch.flushSync();
      });
    }
  }

  write(line: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8.
    if (this.used + 3 * line.length > CHUNK) {
      this.handOver();
      if (3 * line.length > CHUNK) {
        this.out.write(Buffer.from(line) as unknown as string);
        return;
      }
    }
    this.used += this.chunk.write(line, this.used);
    if (this.used >= BATCH) this.handOver();
  }

  /** Writes out what is gathered and what sonic-boom holds; resolves once written. */
  flush(): Promise<void> {
    this.handOver();
    return new Promise<void>((resolve) => this.out.flush(() => resolve()));
  }

  /**
   * At exit: what sonic-boom holds, then what is gathered here, written synchronously. A batch
   * sonic-boom is writing from the thread pool at that moment is not waited for (it cannot be:
   * its completion would come on the event loop, which has stopped); while the reader keeps up
   * it is written, but a reader far enough behind to block that write loses it.
   */
  private flushSync(): void {
    try {
      this.out.flushSync();
    } catch {
      // Nothing more can be done for what sonic-boom held.
    }
    let rest = this.chunk.subarray(0, this.used);
    this.used = 0;
    for (let attempts = 0; rest.length > 0 && attempts < 100; ) {
      try {
        rest = rest.subarray(writeSync(1, rest));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        // A non-blocking pipe that is full: a millisecond for the reader, for up to a tenth of a second.
        attempts++;
        Atomics.wait(PAUSE, 0, 0, 1);
      }
    }
  }

  private handOver(): void {
    if (this.used === 0) return;
    // sonic-boom keeps the chunk until it is written: the next lines go to a new one.
    const batch = this.chunk.subarray(0, this.used);
    this.chunk = Buffer.allocUnsafe(CHUNK);
    this.used = 0;
    this.out.write(batch as unknown as string);
  }
}

/** An error as log fields: its message, and its stack for errors that are bugs. */
export function errorFields(error: unknown): LogFields {
  return error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
}
