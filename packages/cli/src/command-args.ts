// What every command shares: parsing its options, usage errors, and finding its storage (from
// --storage, EVCAL_STORAGE or DATABASE_URL, or the config file, as `evcal serve` finds it).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, resolveOptions, SERVE_OPTIONS } from './options';
import { DEFAULT_STORAGE } from './storage-url';
import { nearest } from './suggest';

/** A mistake in how a command was called: reported in one line, exit status 2. */
export class UsageError extends Error {
  /** Whether the line should point to the command's `--help` (it names no fix of its own). */
  readonly seeHelp: boolean;

  constructor(message: string, options: { seeHelp?: boolean } = {}) {
    super(message);
    this.seeHelp = options.seeHelp ?? false;
  }
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** What every command takes besides its own options: its help, and the level that shows an error's stack. */
const COMMON_ARGS: OptionSpec = { help: { type: 'boolean', short: 'h' }, 'log-level': { type: 'string' } };

/**
 * Parses a command's options (and `--help`, `--log-level`); an unknown option is a usage
 * error that names the nearest known one.
 */
export function options(args: readonly string[], spec: OptionSpec, positionals = false): { values: OptionValues; positionals: string[] } {
  const all = { ...COMMON_ARGS, ...spec };
  try {
    const parsed = parseArgs({ args: [...args], strict: true, allowPositionals: positionals, options: all });
    return { values: parsed.values as OptionValues, positionals: parsed.positionals };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError((e as Error).message, { seeHelp: true });
    // Which option: parsed again leniently, the first one not declared.
    const { tokens } = parseArgs({ args: [...args], strict: false, allowPositionals: true, options: all, tokens: true });
    const unknown = tokens.find((t) => t.kind === 'option' && !Object.hasOwn(all, t.name) && !Object.values(all).some((o) => o.short === t.name));
    const raw = unknown?.kind === 'option' ? unknown.rawName : (e as Error).message;
    const near = unknown?.kind === 'option' ? nearest(unknown.name, Object.keys(all)) : undefined;
    throw near === undefined
      ? new UsageError(`unknown option ${raw}`, { seeHelp: true })
      : new UsageError(`unknown option ${raw}; did you mean --${near}?`);
  }
}

/** Refuses an action (`evcal users <action>`) that is not one of `actions`, naming the nearest. */
export function checkAction<A extends string>(action: string | undefined, actions: readonly A[]): asserts action is A {
  if (action === undefined) throw new UsageError(`give an action: ${actions.join(', ')}`);
  if ((actions as readonly string[]).includes(action)) return;
  const near = nearest(action, actions);
  throw new UsageError(`unknown action "${action}"; ${near ? `did you mean "${near}"?` : `the actions are ${actions.join(', ')}`}`);
}

/** An integer option of at least `min`, or undefined when not given. */
export function integer(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

/** The options a command that only needs a storage takes. */
export const STORAGE_ARGS: OptionSpec = { storage: { type: 'string' }, config: { type: 'string' } };

/** The storage URL of a command: --storage, else EVCAL_STORAGE / DATABASE_URL, else the config file's, else the default. */
export function storageOf(values: OptionValues, env: NodeJS.ProcessEnv = process.env): string {
  return (serveOption('storage', values, env) as string | undefined) ?? DEFAULT_STORAGE;
}

/** Whether private webhook addresses are allowed: --webhook-allow-private, else its variable or the config file's, as for serve. */
export function allowPrivateOf(values: OptionValues, env: NodeJS.ProcessEnv = process.env): boolean {
  return serveOption('webhook-allow-private', values, env) === true;
}

/** One of serve's options, read as serve reads it. */
function serveOption(name: keyof typeof SERVE_OPTIONS, values: OptionValues, env: NodeJS.ProcessEnv): unknown {
  try {
    return resolveOptions({ [name]: SERVE_OPTIONS[name] }, values, env, SERVE_OPTIONS)[name]?.value;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
