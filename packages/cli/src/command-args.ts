// What every command shares: parsing its options, usage errors, and finding its storage (from
// --storage, EVCAL_STORAGE or DATABASE_URL, or the config file, as `evcal serve` finds it).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, resolveOptions, SERVE_OPTIONS } from './options';
import { DEFAULT_STORAGE } from './storage-url';

/** A mistake in how a command was called: reported in one line, exit status 2. */
export class UsageError extends Error {}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** Parses a command's options (and `--help`); unknown options are usage errors. */
export function options(args: readonly string[], spec: OptionSpec, positionals = false): { values: OptionValues; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...args], strict: true, allowPositionals: positionals, options: { ...spec, help: { type: 'boolean', short: 'h' } } });
    return { values: parsed.values as OptionValues, positionals: parsed.positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
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
