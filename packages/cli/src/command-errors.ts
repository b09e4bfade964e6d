// How `evcal` reports a command that failed: the cause in one message without a stack trace, prefixed with the command,
// whatever went wrong (a mistyped option, an unknown storage, a missing file, a refused record);
// with `--log-level debug` (or EVCAL_LOG_LEVEL=debug) the stack trace too.
import { UsageError } from './command-args';

/** Whether the arguments (or the environment) ask for level debug, which shows stack traces. */
export function debugRequested(args: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const at = args.indexOf('--log-level');
  return (at >= 0 && args[at + 1] === 'debug') || args.includes('--log-level=debug') || env.EVCAL_LOG_LEVEL === 'debug';
}

/** The line reporting `error` for `prefix` (`evcal serve`), or with `debug` its stack as well. */
export function describeError(prefix: string, error: unknown, debug: boolean): string {
  if (!(error instanceof Error)) return `${prefix}: ${String(error)}`;
  if (debug && error.stack) return `${prefix}: ${error.stack}`;
  if (error instanceof UsageError) return `${prefix}: ${error.message}${error.seeHelp ? ` (${prefix} --help)` : ''}`;
  // An error the code did not expect (neither a refusal it words itself nor one of the
  // system's, which carry a code) is likely a bug: the line says how to get its stack.
  const worded = 'code' in error || EXPECTED.has(error.name);
  return `${prefix}: ${error.message}${worded ? '' : ' (--log-level debug shows the stack trace)'}`;
}

/** Errors whose message is written for the user: a storage that cannot be opened, a config file, a network failure. */
const EXPECTED = new Set(['StorageUrlError', 'ConfigError', 'TypeError', 'AbortError']);

