// The options of `evcal serve`, declared once: the flags parseArgs reads, the environment
// variables (EVCAL_<NAME>), the keys of a config file (JSON or TOML) and its validation, and
// the help text all come from this table. Values are taken from flags, else the environment,
// else the config file, else the defaults, and each remembers where it came from, so that an
// error names the flag, the variable or the file's key the operator has to fix.
import { readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import * as v from 'valibot';

export type OptionKind =
  /** One string. */
  | 'string'
  /** A whole number of at least `min`. */
  | 'integer'
  /** A switch; in the environment 1/true/yes/on or 0/false/no/off. */
  | 'boolean'
  /** Repeatable flag; comma- or space-separated in the environment; a list (or one string) in a file. */
  | 'list'
  /** One flag with comma-separated values; a list or such a string in a file. */
  | 'csv';

export interface OptionSpec {
  readonly kind: OptionKind;
  /** How the help shows the value, e.g. `<port>`. */
  readonly value?: string;
  readonly help: string;
  readonly min?: number;
  /** Environment variables read after EVCAL_<NAME>, in order (DATABASE_URL for the storage). */
  readonly alsoEnv?: readonly string[];
  /** Left out of the help of commands other than serve. */
  readonly serveOnly?: boolean;
}

/** Every option of `evcal serve`; `storage` (and `config`) also serve the other commands. */
export const SERVE_OPTIONS = {
  host: { kind: 'string', value: '<host>', help: 'interface to listen on (default 127.0.0.1)', serveOnly: true },
  port: { kind: 'integer', value: '<port>', min: 0, help: 'port; 0 picks a free one (default 8080)', serveOnly: true },
  storage: {
    kind: 'string', value: '<url>', alsoEnv: ['DATABASE_URL'],
    help: 'where the calendar and its accounts are kept (see above); a\npostgres:// URL in DATABASE_URL is read after EVCAL_STORAGE',
  },
  timezone: { kind: 'string', value: '<zone>', help: 'the site time zone, an IANA name (default UTC)', serveOnly: true },
  user: {
    kind: 'list', value: '<id>:<role>:<token>', serveOnly: true,
    help: 'a fixed user, for tests and demos: "Authorization: Bearer <token>"\nacts as them, and so does HTTP Basic with the token as the password\n(any user name). Repeatable. Accounts kept in the storage are managed\nwith "evcal users" and "evcal tokens"',
  },
  seed: { kind: 'string', value: '<file>', help: 'load a dataset (JSON) before listening', serveOnly: true },
  'default-per-page': { kind: 'integer', value: '<n>', min: 1, help: 'items per page when a request gives none (default 10)', serveOnly: true },
  'max-per-page': { kind: 'integer', value: '<n>', min: 1, help: 'the largest per_page (default 50)', serveOnly: true },
  now: { kind: 'string', value: '<instant>', help: 'freeze the clock at this ISO 8601 instant (reproducible runs)', serveOnly: true },
  'cors-origin': {
    kind: 'list', value: '<origin>', serveOnly: true,
    help: 'let browser pages on this origin call the API (CORS); repeatable;\n"*" for any origin (default: CORS off)',
  },
  'rate-limit': { kind: 'integer', value: '<n>', min: 1, help: 'requests per minute per client (user, else address); over it: 429', serveOnly: true },
  'require-if-match': {
    kind: 'boolean', serveOnly: true,
    help: 'refuse changes to existing records without If-Match (428), so no\nclient overwrites a change it has not read (optimistic concurrency)',
  },
  languages: {
    kind: 'csv', value: '<list>', serveOnly: true,
    help: 'serve these languages (of en, de, fr, es), e.g. en,de,fr,es: the first\nat /cal/events/v1, each at /<language>/cal/events/v1',
  },
  'base-path': {
    kind: 'string', value: '<path>', serveOnly: true,
    help: 'mount the API under this path (default: none). With --base-path\n/wp-json --namespace tribe/events/v1 the API is where The Events\nCalendar serves it, so its clients only change the host; the form\n/?rest_route=/<namespace>/... is served too',
  },
  namespace: { kind: 'string', value: '<name>', help: 'the namespace of the routes (default cal/events/v1)', serveOnly: true },
  'trust-proxy': {
    kind: 'boolean', serveOnly: true,
    help: 'behind one reverse proxy you control: client addresses from the\nlast X-Forwarded-For entry, URLs from X-Forwarded-Proto and -Host',
  },
  'site-url': {
    kind: 'string', value: '<origin>', serveOnly: true,
    help: 'the public origin, e.g. https://cal.example.org: every URL the\nserver writes (API links, event pages, canonical URLs, the sitemap,\nfeeds) names it, whatever the request\'s Host says',
  },
  'log-level': {
    kind: 'string', value: '<level>', serveOnly: true,
    help: 'debug, info, warn or error (default info); info logs each request,\ndebug also the stack trace of an error that stops the server',
  },
  'shutdown-timeout': {
    kind: 'integer', value: '<seconds>', min: 0, serveOnly: true,
    help: 'on SIGTERM or SIGINT, how long requests in flight may take to\nfinish (default 10)',
  },
  'headers-timeout': {
    kind: 'integer', value: '<seconds>', min: 1, serveOnly: true,
    help: 'a client that has not sent its request headers after this long is\ncut off (408) (default 10)',
  },
  'request-timeout': {
    kind: 'integer', value: '<seconds>', min: 1, serveOnly: true,
    help: 'a client that has not sent its whole request (headers and body) after\nthis long is cut off (408) (default 30); answers may take longer',
  },
  'keep-alive-timeout': {
    kind: 'integer', value: '<seconds>', min: 1, serveOnly: true,
    help: 'how long a kept-alive connection may wait for its next request\n(default 5)',
  },
  'idle-timeout': {
    kind: 'integer', value: '<seconds>', min: 1, serveOnly: true,
    help: 'a connection on which nothing was sent or received for this long is\nclosed (default 60)',
  },
  'change-retention-days': {
    kind: 'integer', value: '<n>', min: 1, serveOnly: true,
    help: 'days the change log (/changes) keeps entries and tombstones; older\nsync tokens answer 410 (default 30)',
  },
  'idempotency-ttl': {
    kind: 'integer', value: '<seconds>', min: 1, serveOnly: true,
    help: 'how long the answer of a write sent with an Idempotency-Key is kept:\na repeat within it gets that answer again (default 86400, 24 hours)',
  },
  'webhook-timeout': {
    kind: 'integer', value: '<ms>', min: 1, serveOnly: true,
    help: 'a webhook attempt without an answer after this long fails and is\nretried (default 10000)',
  },
  'webhook-retries': {
    kind: 'string', value: '<list>', serveOnly: true,
    help: 'delays before the retries, e.g. 5s,5m,30m,2h,5h,10h,10h (the\ndefault); units ms, s, m, h',
  },
  'webhook-allow-private': {
    kind: 'boolean', serveOnly: true,
    help: 'deliver to private, loopback and link-local addresses too (a\nreceiver on this machine or network); refused by default (SSRF)',
  },
  'read-replica': {
    kind: 'list', value: '<postgres url>', alsoEnv: ['EVCAL_READ_REPLICAS'], serveOnly: true,
    help: 'a PostgreSQL hot standby of the storage to send anonymous reads to\n(lists, single reads, feeds, pages, /changes) while its lag is within\n--replica-max-lag; repeatable; EVCAL_READ_REPLICAS takes a comma-\nseparated list. Writers read their own writes (Evcal-Position)',
  },
  'replica-max-lag': {
    kind: 'string', value: '<seconds>', serveOnly: true,
    help: 'how far behind the primary a replica may be and still be read\n(default 5); beyond it, reads go to the primary',
  },
  demo: { kind: 'boolean', help: 'load a small demo calendar into an empty storage; without an\nadministrator, make one ("admin") and print its token once', serveOnly: true },
} as const satisfies Record<string, OptionSpec>;

export type ServeOptionName = keyof typeof SERVE_OPTIONS;
type Specs = Readonly<Record<string, OptionSpec>>;

/** A value and where it came from: `--port`, `EVCAL_PORT`, `evcal.toml: port`, or `default`. */
export interface Sourced<T> {
  readonly value: T;
  readonly source: string;
}

export type OptionValue = string | number | boolean | readonly string[];
export type ResolvedOptions = Partial<Record<string, Sourced<OptionValue>>>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** The environment variable of an option: EVCAL_ and its name in capitals. */
export function envName(name: string): string {
  return `EVCAL_${name.toUpperCase().replace(/-/g, '_')}`;
}

/** parseArgs' declaration of these options (and --config). */
export function argSpec(specs: Specs): NonNullable<ParseArgsConfig['options']> {
  const out: NonNullable<ParseArgsConfig['options']> = { config: { type: 'string' } };
  for (const [name, spec] of Object.entries(specs)) {
    out[name] = spec.kind === 'boolean' ? { type: 'boolean' } : spec.kind === 'list' ? { type: 'string', multiple: true } : { type: 'string' };
  }
  return out;
}

/**
 * The options' values, each from its flag, else its environment variables, else the config
 * file (`--config`, else EVCAL_CONFIG), else absent (the caller's default). The file is
 * checked against `fileSpecs` (all of serve's options: commands share one file).
 */
export function resolveOptions(
  specs: Specs, flags: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, fileSpecs: Specs = specs,
): ResolvedOptions {
  const configPath = typeof flags.config === 'string' ? flags.config : env.EVCAL_CONFIG || undefined;
  const file = configPath === undefined ? {} : readConfigFile(configPath, fileSpecs);
  const out: ResolvedOptions = {};
  for (const [name, spec] of Object.entries(specs)) {
    const flag = flags[name];
    if (flag !== undefined && !(Array.isArray(flag) && flag.length === 0)) {
      out[name] = { value: fromText(spec, flag as string | boolean | string[], `--${name}`), source: `--${name}` };
      continue;
    }
    const variable = [envName(name), ...(spec.alsoEnv ?? [])].find((e) => env[e] !== undefined && env[e] !== '');
    if (variable !== undefined) {
      out[name] = { value: fromText(spec, env[variable]!, variable), source: variable };
      continue;
    }
    if (file[name] !== undefined) out[name] = { value: file[name]!, source: `${basename(configPath!)}: ${name}` };
  }
  return out;
}

/** Reads and validates a config file (.json or .toml): every key must be an option, of its type. */
export function readConfigFile(path: string, specs: Specs): Record<string, OptionValue> {
  const name = basename(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`--config ${path}: cannot read the file (${(error as Error).message})`);
  }
  const format = extname(path).toLowerCase();
  let data: unknown;
  try {
    if (format === '.json') data = JSON.parse(text);
    else if (format === '.toml') data = parseToml(text);
    else throw new ConfigError(`--config ${path}: give a .json or .toml file`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${name}: not valid ${format === '.json' ? 'JSON' : 'TOML'}: ${(error as Error).message}`);
  }
  const result = v.safeParse(fileSchema(specs), data);
  if (!result.success) {
    const issue = result.issues[0];
    const key = issue.path?.[0]?.key;
    if (typeof key !== 'string') throw new ConfigError(`${name}: ${issue.message}`);
    if (!Object.hasOwn(specs, key)) throw new ConfigError(`${name}: unknown key "${key}" (known keys: ${Object.keys(specs).join(', ')})`);
    throw new ConfigError(`${name}: ${key} ${issue.message}`);
  }
  warnIfReadableByOthers(path, result.output);
  return result.output as Record<string, OptionValue>;
}

/** The option lines of a help text, generated from the table. */
export function optionsHelp(specs: Specs): string {
  const lines: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    const flag = `  --${name}${spec.value ? ` ${spec.value}` : ''}`;
    const help = spec.help.split('\n');
    const env = `[${[envName(name), ...(spec.alsoEnv ?? [])].join(', ')}]`;
    // The variable after the last line when it fits in 100 columns, else on a line of its own.
    if (29 + help.at(-1)!.length + 1 + env.length <= 100) help[help.length - 1] += ` ${env}`;
    else help.push(env);
    const [first, ...rest] = help;
    lines.push(flag.length < 29 ? `${flag.padEnd(29)}${first}` : `${flag}\n${' '.repeat(29)}${first}`);
    for (const line of rest) lines.push(`${' '.repeat(29)}${line}`);
  }
  return lines.join('\n');
}

// ---- helpers ----

function fromText(spec: OptionSpec, raw: string | boolean | readonly string[], label: string): OptionValue {
  switch (spec.kind) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (/^(1|true|yes|on)$/i.test(String(raw))) return true;
      if (/^(0|false|no|off)$/i.test(String(raw))) return false;
      throw new ConfigError(`${label} must be true or false (1/0, yes/no, on/off), got "${raw}"`);
    case 'integer': {
      const n = Number(raw);
      if (String(raw).trim() === '' || !Number.isInteger(n) || n < (spec.min ?? 0)) throw new ConfigError(`${label} must be an integer >= ${spec.min ?? 0}, got "${raw}"`);
      return n;
    }
    case 'list':
      return Array.isArray(raw) ? raw : String(raw).split(/[\s,]+/).filter(Boolean);
    default:
      return String(raw);
  }
}

function fileSchema(specs: Specs) {
  const entries: Record<string, v.GenericSchema> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const min = spec.min ?? 0;
    const schema = {
      string: v.string('must be a string'),
      integer: v.pipe(v.number(`must be an integer >= ${min}`), v.integer(`must be an integer >= ${min}`), v.minValue(min, `must be an integer >= ${min}`)),
      boolean: v.boolean('must be true or false'),
      list: v.union([v.array(v.string()), v.pipe(v.string(), v.transform((s) => [s]))], 'must be a list of strings'),
      csv: v.union([v.pipe(v.array(v.string()), v.transform((a) => a.join(','))), v.string()], 'must be a list of strings'),
    }[spec.kind];
    entries[name] = v.optional(schema);
  }
  return v.strictObject(entries, 'must be a table of options (a JSON object)');
}

/** Secrets in a file others may read: said on stderr, as ssh says of a key file. */
function warnIfReadableByOthers(path: string, values: Record<string, unknown>): void {
  const secret = values.user !== undefined || (typeof values.storage === 'string' && /\/\/[^/@]*:[^/@]*@/.test(values.storage));
  try {
    if (secret && (statSync(path).mode & 0o077) !== 0) {
      process.stderr.write(`evcal: warning: ${path} holds secrets and other users may read it; chmod 600 ${path}\n`);
    }
  } catch {
    // Read a moment ago: a stat failing now changes nothing.
  }
}
