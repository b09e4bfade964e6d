// Logs as JSON lines, through pino: one object per line with `level` (its name), `time` (ISO
// 8601) and the fields of the event, then `msg`. Written to stdout (a supervisor or container
// runtime collects it) off the request path: pino's asynchronous destination (sonic-boom)
// buffers lines and writes them in batches from libuv's thread pool, so a request costs the
// formatting of its line and no system call, and a reader that is slow to drain the pipe never
// stalls serving. What is buffered is written out when the server stops (`flush`) and when the
// process exits.
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

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const now = options.now ?? Date.now;
  const destination = options.write ? { write: options.write } : pino.destination({
    dest: 1,
    sync: false,
    // Lines are written in batches of at least 4 KB (a dozen requests' lines), and at least every
    // 100 ms when fewer come: a write and a wake-up of the reader per batch, not per request.
    minLength: 4096,
    periodicFlush: 100,
    // A reader that stops reading for good (a pipe nobody drains) costs at most this much
    // memory: later lines are dropped until it reads again, rather than serving stalling.
    maxLength: 16 * 1024 * 1024,
  });
  // The time of a line, formatted once per millisecond: lines of requests served within the same
  // one share it (at thousands of requests a second, most do).
  let stamped = Number.NaN;
  let stamp = '';
  const timestamp = () => {
    const t = now();
    if (t !== stamped) {
      stamped = t;
      stamp = `,"time":"${new Date(t).toISOString()}"`;
    }
    return stamp;
  };
  const settings = {
    base: null,
    messageKey: 'msg',
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp,
  };
  const logger = pino({ ...settings, level }, destination);
  // The announcement is written at every level: a logger of its own, at info, on the same destination.
  const announcer = LOG_LEVELS.indexOf(level) <= LOG_LEVELS.indexOf('info') ? logger : pino({ ...settings, level: 'info' }, destination);
  const log = (to: Pino, l: LogLevel) => (msg: string, fields: LogFields = {}) => to[l](fields, msg);
  return {
    level,
    enabled: (l) => logger.isLevelEnabled(l),
    debug: log(logger, 'debug'),
    info: log(logger, 'info'),
    warn: log(logger, 'warn'),
    error: log(logger, 'error'),
    announce: log(announcer, 'info'),
    flush: () => new Promise<void>((resolve) => logger.flush(() => resolve())),
  };
}

/** An error as log fields: its message, and its stack for errors that are bugs. */
export function errorFields(error: unknown): LogFields {
  return error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
}
