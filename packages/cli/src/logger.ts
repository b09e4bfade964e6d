// Logs as JSON lines: one object per line with `time`, `level` and `msg` first, then the
// fields of the event. Written to stdout (a supervisor or container runtime collects it).
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
}

export interface LoggerOptions {
  /** The least severe level written. @default 'info' */
  readonly level?: LogLevel;
  /** Where lines go. @default process.stdout */
  readonly write?: (line: string) => void;
  /** @default Date.now */
  readonly now?: () => number;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const now = options.now ?? Date.now;
  const threshold = LOG_LEVELS.indexOf(level);
  const enabled = (l: LogLevel) => LOG_LEVELS.indexOf(l) >= threshold;
  const line = (l: LogLevel, msg: string, fields: LogFields) => write(`${JSON.stringify({ time: new Date(now()).toISOString(), level: l, msg, ...fields })}\n`);
  const log = (l: LogLevel) => (msg: string, fields: LogFields = {}) => {
    if (enabled(l)) line(l, msg, fields);
  };
  return {
    level, enabled, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'),
    announce: (msg, fields = {}) => line('info', msg, fields),
  };
}

/** An error as log fields: its message, and its stack for errors that are bugs. */
export function errorFields(error: unknown): LogFields {
  return error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
}
