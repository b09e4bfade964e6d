// The `evcal` command: serve, import, export, migrate.
import { randomBytes } from 'node:crypto';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isValidZoneName } from '@evcal/core';
import { LANGUAGES } from '@evcal/http';
import { demoDataset } from './demo-dataset';
import { parseUser, serve, type ServeUser } from './serve';
import { DEFAULT_STORAGE, redact } from './storage-url';
import { describeIcsSummary, describeSkipped, describeSummary, exportStorage, importAnyFile, writeExport } from './transfer';
import { migrateCommand } from './migrate-command';
import { webhooksCommand } from './webhooks-command';

const HELP = `evcal — an event calendar over HTTP, compatible with The Events Calendar REST API v1

Usage:
  evcal serve [options]                         serve the API
  evcal import <dataset.json> [--storage <url>] load a dataset into a storage
  evcal import <calendar.ics> [--storage <url>] [--timezone <zone>]
                                                add the events of an iCalendar file; importing
                                                it again updates them (see docs/icalendar.md)
  evcal export [--storage <url>] [--output <file>]   write a storage's calendar as a dataset
  evcal migrate --from <API root URL> [--storage <url>] [options]
                                                move in from a live site running The Events
                                                Calendar (or another evcal), over its REST API
  evcal webhooks list [--storage <url>] [--json]
  evcal webhooks add <url> [--types <list>] [--description <text>] [--secret whsec_...]
  evcal webhooks enable|disable|remove <endpoint id> [--storage <url>]
                                                manage webhook endpoints (docs/webhooks.md);
                                                evcal serve on the storage delivers to them

Storage URLs (--storage), default ${DEFAULT_STORAGE}:
  memory                          in this process only
  json:<file>                     one JSON document on disk
  sqlite:<file>                   SQLite (WAL); created and migrated if needed
  postgres://user:pass@host/db?schema=<name>
                                  PostgreSQL; the schema is created and migrated if needed

Options of serve:
  --host <host>              interface to listen on (default 127.0.0.1)
  --port <port>              port; 0 picks a free one (default 8080)
  --storage <url>            where the calendar is kept (see above)
  --timezone <zone>          the site time zone, an IANA name (default UTC)
  --user <id>:<role>:<token> a user; requests with "Authorization: Bearer <token>" act as them,
                             and so do HTTP Basic credentials with the token as the password (as
                             WordPress application passwords are sent; the user name is not checked).
                             Repeatable. Roles: administrator, editor, author, contributor, subscriber
  --seed <file>              load a dataset (JSON) before listening
  --default-per-page <n>     items per page when a request gives none (default 10)
  --max-per-page <n>         the largest per_page (default 50)
  --now <instant>            freeze the clock at this ISO 8601 instant (reproducible runs)
  --cors-origin <origin>     let browser pages on this origin call the API (CORS); repeatable;
                             "*" for any origin (default: CORS off)
  --rate-limit <n>           requests per minute per client (user, else address); over it: 429
  --require-if-match         refuse changes to existing records without If-Match (428), so no
                             client overwrites a change it has not read (optimistic concurrency)
  --languages <list>         serve these languages (of ${LANGUAGES.join(', ')}), e.g. en,de,fr,es:
                             the first at /cal/events/v1, each at /<language>/cal/events/v1
  --base-path <path>         mount the API under this path (default: none). With
                             --base-path /wp-json --namespace tribe/events/v1 the API is where The
                             Events Calendar serves it, so its clients only change the host; the
                             plain-permalink form /?rest_route=/<namespace>/... is served too
  --namespace <name>         the namespace of the routes (default cal/events/v1)
  --demo                     load a small demo calendar into an empty storage, and print an
                             administrator token
  --change-retention-days <n>  days the change log (/changes) keeps entries and tombstones;
                             older sync tokens answer 410 (default 30)
  --webhook-timeout <ms>     a webhook attempt without an answer after this long fails and is
                             retried (default 10000)
  --webhook-retries <list>   delays before the retries, e.g. 5s,5m,30m,2h,5h,10h,10h (the
                             default); units ms, s, m, h
  --webhook-allow-private    deliver to private, loopback and link-local addresses too (a
                             receiver on this machine or network); refused by default (SSRF)
  -h, --help                 this help

Options of webhooks:
  --storage <url>            the storage (see above)
  --types <list>             add: the event types to deliver, comma-separated, e.g.
                             event.created,event.updated,event.trashed (default: every type)
  --description <text>       add: what the endpoint is for
  --secret <whsec_...>       add: the signing secret (default: a new random one, printed)
  --json                     print endpoints as JSON

Options of import (iCalendar files):
  --timezone <zone>          the zone of times the file gives without one (default: the file's
                             X-WR-TIMEZONE, else UTC)

Options of migrate (see docs/migrating.md):
  --from <url>               the source's API root: https://site/wp-json/tribe/events/v1, or
                             https://site/?rest_route=/tribe/events/v1 with plain permalinks
  --storage <url>            where the records go (see above)
  --user <name>              a WordPress user; with --password, reads drafts, pending, private
  --password <password>      one of that user's application passwords (HTTP Basic); or set
                             EVCAL_SOURCE_PASSWORD. Without credentials only published records
                             are read
  --new-ids                  give records new ids instead of keeping the source's (keeping them
                             keeps old links and client caches valid; it needs a target whose ids
                             are free)
  --dry-run                  read and validate everything, write nothing, report what would change
  --find-hidden              also look for events hidden from listings (the reference lists them
                             nowhere): one request per unknown post id up to the largest seen
  --concurrency <n>          requests to the source in flight at once (default 4)
  --timezone <zone>          the source site's time zone, for drafts whose UTC dates it leaves
                             out (default UTC)
  --json                     print the report as JSON
  Run it again to resume or to catch up: records whose "modified" did not change are left
  alone, new ones are added, changed ones updated. Exit status: 0 when everything was carried
  and verified, 1 when a record could not be stored or the verification failed, 2 for usage.

Examples:
  evcal serve --demo
  evcal serve --port 0 --timezone Europe/Rome --user 1:administrator:s3cret --seed calendar.json
  evcal serve --storage 'postgres://evcal:secret@db.internal/evcal?schema=calendar'
  evcal serve --base-path /wp-json --namespace tribe/events/v1 --storage sqlite:./data/site.db
  evcal export --storage sqlite:./data/evcal.db --output calendar.json
  evcal import calendar.json --storage 'postgres://evcal:secret@db.internal/evcal'
  evcal import calendar.ics --storage sqlite:./data/evcal.db
  curl http://127.0.0.1:8080/cal/events/v1/events.ics
  EVCAL_SOURCE_PASSWORD='abcd efgh ijkl mnop qrst uvwx' evcal migrate \
    --from https://events.example.org/wp-json/tribe/events/v1 --user admin --storage sqlite:./data/site.db
  curl http://127.0.0.1:8080/cal/events/v1/events
  evcal webhooks add https://hooks.example.org/evcal --types event.created,event.updated --storage sqlite:./data/evcal.db
  curl "http://127.0.0.1:8080/cal/events/v1/changes?since=<next_token>"
`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  const run = { serve: runServe, import: runImport, export: runExport, migrate: runMigrate, webhooks: runWebhooks }[command];
  if (!run) {
    process.stderr.write(`evcal: unknown command "${command}"\n\n${HELP}`);
    return 2;
  }
  try {
    return await run(rest);
  } catch (error) {
    // Usage mistakes and refusals are reported in one line; anything else is a bug, with its stack.
    const known = error instanceof UsageError || (error instanceof Error && 'code' in error) || error instanceof TypeError;
    process.stderr.write(`evcal ${command}: ${known || !(error instanceof Error) ? String((error as Error)?.message ?? error) : error.stack}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

class UsageError extends Error {}

type OptionSpec = NonNullable<ParseArgsConfig['options']>;
type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** Parses a command's options (and `--help`); unknown options are usage errors. */
function options(args: readonly string[], spec: OptionSpec, positionals = false): { values: OptionValues; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: [...args], strict: true, allowPositionals: positionals, options: { ...spec, help: { type: 'boolean', short: 'h' } } });
    return { values: parsed.values as OptionValues, positionals: parsed.positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function integer(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${value}"`);
  return n;
}

/** `scheme://host[:port]`, as browsers send it in `Origin`. */
function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/** `/wp-json`, `wp-json/` and `/wp-json/` all mean `/wp-json`; `/` means the root. */
function basePathOf(value: string): string {
  const path = `/${value.replace(/^\/+|\/+$/g, '')}`;
  if (!/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(path)) throw new UsageError(`--base-path must be a URL path such as /wp-json, got "${value}"`);
  return path === '/' ? '' : path;
}

function namespaceOf(value: string): string {
  const namespace = value.replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(namespace)) {
    throw new UsageError(`--namespace must be path segments such as tribe/events/v1, got "${value}"`);
  }
  return namespace;
}

async function runServe(args: readonly string[]): Promise<number> {
  const { values } = options(args, {
    host: { type: 'string' },
    port: { type: 'string' },
    storage: { type: 'string' },
    timezone: { type: 'string' },
    user: { type: 'string', multiple: true },
    seed: { type: 'string' },
    'default-per-page': { type: 'string' },
    'max-per-page': { type: 'string' },
    now: { type: 'string' },
    demo: { type: 'boolean' },
    'cors-origin': { type: 'string', multiple: true },
    'rate-limit': { type: 'string' },
    languages: { type: 'string' },
    'require-if-match': { type: 'boolean' },
    'base-path': { type: 'string' },
    namespace: { type: 'string' },
    'change-retention-days': { type: 'string' },
    'webhook-timeout': { type: 'string' },
    'webhook-retries': { type: 'string' },
    'webhook-allow-private': { type: 'boolean' },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const changeRetentionDays = integer('change-retention-days', values['change-retention-days'] as string | undefined, 1);
  const webhookTimeout = integer('webhook-timeout', values['webhook-timeout'] as string | undefined, 1);
  const retrySchedule = values['webhook-retries'] === undefined ? undefined : durations('webhook-retries', values['webhook-retries'] as string);
  const basePath = values['base-path'] === undefined ? undefined : basePathOf(values['base-path'] as string);
  const namespace = values.namespace === undefined ? undefined : namespaceOf(values.namespace as string);
  const now = values.now === undefined ? undefined : new Date(values.now as string);
  if (now && Number.isNaN(now.getTime())) throw new UsageError(`--now must be an ISO 8601 instant, got "${values.now}"`);
  let users: ServeUser[];
  try {
    users = ((values.user as string[] | undefined) ?? []).map(parseUser);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  let demoToken: string | undefined;
  if (values.demo && !users.some((u) => u.role === 'administrator')) {
    demoToken = process.env.EVCAL_ADMIN_TOKEN || randomBytes(18).toString('base64url');
    users.push({ id: 1, role: 'administrator', token: demoToken });
  }
  const port = integer('port', values.port as string | undefined, 0);
  const defaultPerPage = integer('default-per-page', values['default-per-page'] as string | undefined, 1);
  const maxPerPage = integer('max-per-page', values['max-per-page'] as string | undefined, 1);
  const rateLimit = integer('rate-limit', values['rate-limit'] as string | undefined, 1);
  const languages = values.languages === undefined ? undefined : (values.languages as string).split(',').map((l) => l.trim());
  for (const language of languages ?? []) {
    if (!LANGUAGES.includes(language)) throw new UsageError(`--languages ${values.languages}: no catalogue for "${language}" (one of ${LANGUAGES.join(', ')})`);
  }
  if (languages && new Set(languages).size !== languages.length) throw new UsageError(`--languages lists a language twice: ${values.languages}`);
  const corsOrigins = (values['cors-origin'] as string[] | undefined) ?? [];
  for (const origin of corsOrigins) {
    if (origin !== '*' && !isOrigin(origin)) throw new UsageError(`--cors-origin must be an origin such as https://app.example, or "*", got "${origin}"`);
  }
  const server = await serve({
    ...(values.host !== undefined ? { host: values.host as string } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(values.storage !== undefined ? { storage: values.storage as string } : {}),
    ...(values.timezone !== undefined ? { timezone: values.timezone as string } : {}),
    ...(values.seed !== undefined ? { seed: values.seed as string } : {}),
    ...(defaultPerPage !== undefined ? { defaultPerPage } : {}),
    ...(maxPerPage !== undefined ? { maxPerPage } : {}),
    ...(now !== undefined ? { now } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...(corsOrigins.length ? { corsOrigins } : {}),
    ...(languages ? { languages } : {}),
    ...(values['require-if-match'] ? { requireIfMatch: true } : {}),
    ...(basePath !== undefined ? { basePath } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(values.demo ? { dataset: demoDataset(now) } : {}),
    ...(changeRetentionDays !== undefined ? { changeRetentionDays } : {}),
    webhooks: {
      ...(webhookTimeout !== undefined ? { timeoutMs: webhookTimeout } : {}),
      ...(retrySchedule ? { retrySchedule } : {}),
      ...(values['webhook-allow-private'] ? { allowPrivateAddresses: true } : {}),
    },
    users,
  });
  // Handlers first: the line below tells supervisors the server is ready, and they may stop it at once.
  const stopped = new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      server.close().then(() => resolve(0), () => resolve(1));
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  const storage = redact((values.storage as string | undefined) ?? DEFAULT_STORAGE);
  process.stdout.write(`evcal listening on ${server.origin}\nAPI root: ${server.apiRoot}\nStorage: ${storage}\n`);
  for (const [language, root] of Object.entries(server.languageRoots)) process.stdout.write(`Language ${language}: ${root}\n`);
  if (demoToken) {
    process.stdout.write(`Demo calendar ready. Administrator token: ${demoToken}\n`
      + `  curl -H "Authorization: Bearer ${demoToken}" ${server.apiRoot}/events\n`);
  }
  return stopped;
}

async function runImport(args: readonly string[]): Promise<number> {
  const { values, positionals } = options(args, { storage: { type: 'string' }, timezone: { type: 'string' } }, true);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('give exactly one file, a dataset file or an iCalendar file: evcal import <dataset.json | calendar.ics> --storage <url>');
  const storage = (values.storage as string | undefined) ?? DEFAULT_STORAGE;
  const timezone = values.timezone as string | undefined;
  if (timezone !== undefined && !isValidZoneName(timezone)) throw new UsageError(`--timezone ${timezone}: not a time zone (an IANA name such as Europe/Rome, or UTC+2)`);
  const started = Date.now();
  const done = await importAnyFile({ file: positionals[0]!, storage, progress: process.stderr, ...(timezone ? { timezone } : {}) });
  const described = done.kind === 'ical' ? describeIcsSummary(done.summary) : describeSummary(done.summary);
  const skipped = done.kind === 'ical' ? describeSkipped(done.summary) : '';
  process.stderr.write(`imported ${described} into ${redact(storage)} in ${((Date.now() - started) / 1000).toFixed(1)} s${skipped}\n`);
  return 0;
}

async function runExport(args: readonly string[]): Promise<number> {
  const { values } = options(args, { storage: { type: 'string' }, output: { type: 'string', short: 'o' } });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const storage = (values.storage as string | undefined) ?? DEFAULT_STORAGE;
  const text = await exportStorage(storage);
  await writeExport(text, values.output as string | undefined);
  const data = JSON.parse(text) as Record<string, unknown[]>;
  process.stderr.write(`exported ${(['events', 'venues', 'organizers', 'categories', 'tags'] as const)
    .map((k) => `${data[k]?.length ?? 0} ${k}`).join(', ')} from ${redact(storage)}\n`);
  return 0;
}

async function runMigrate(args: readonly string[]): Promise<number> {
  const { values } = options(args, {
    from: { type: 'string' },
    storage: { type: 'string' },
    user: { type: 'string' },
    password: { type: 'string' },
    'new-ids': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    'find-hidden': { type: 'boolean' },
    concurrency: { type: 'string' },
    timezone: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (typeof values.from !== 'string' || values.from === '') throw new UsageError('give the source: evcal migrate --from <API root URL> --storage <url>');
  const password = (values.password as string | undefined) ?? process.env.EVCAL_SOURCE_PASSWORD;
  if (values.user === undefined && values.password !== undefined) throw new UsageError('--password needs --user');
  if (values.user !== undefined && !password) throw new UsageError('--user needs --password (or EVCAL_SOURCE_PASSWORD): an application password of that user');
  const concurrency = integer('concurrency', values.concurrency as string | undefined, 1);
  return migrateCommand({
    from: values.from,
    storage: (values.storage as string | undefined) ?? DEFAULT_STORAGE,
    ...(values.user !== undefined ? { user: values.user as string, password: password! } : {}),
    newIds: values['new-ids'] === true,
    dryRun: values['dry-run'] === true,
    findHidden: values['find-hidden'] === true,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(values.timezone !== undefined ? { timezone: values.timezone as string } : {}),
    json: values.json === true,
  });
}

const WEBHOOK_ACTIONS = ['list', 'add', 'remove', 'enable', 'disable'] as const;

async function runWebhooks(args: readonly string[]): Promise<number> {
  const { values, positionals } = options(args, {
    storage: { type: 'string' },
    types: { type: 'string' },
    description: { type: 'string' },
    secret: { type: 'string' },
    json: { type: 'boolean' },
  }, true);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const [action, target, ...extra] = positionals;
  if (!WEBHOOK_ACTIONS.includes(action as (typeof WEBHOOK_ACTIONS)[number])) {
    throw new UsageError(`give an action: evcal webhooks ${WEBHOOK_ACTIONS.join('|')} ...`);
  }
  const needs = action === 'add' ? 'the endpoint URL' : action === 'list' ? undefined : 'the endpoint id';
  if (needs && target === undefined) throw new UsageError(`evcal webhooks ${action}: give ${needs}`);
  if (extra.length || (!needs && target !== undefined)) throw new UsageError(`evcal webhooks ${action}: unexpected argument "${extra[0] ?? target}"`);
  return webhooksCommand({
    action: action as (typeof WEBHOOK_ACTIONS)[number],
    storage: (values.storage as string | undefined) ?? DEFAULT_STORAGE,
    ...(target !== undefined ? { target } : {}),
    ...(values.types !== undefined ? { types: (values.types as string).split(',').map((t) => t.trim()).filter(Boolean) } : {}),
    ...(values.description !== undefined ? { description: values.description as string } : {}),
    ...(values.secret !== undefined ? { secret: values.secret as string } : {}),
    json: values.json === true,
  });
}

/** `200ms,5s,5m,2h` in milliseconds. */
function durations(name: string, value: string): number[] {
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
  return value.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)(ms|s|m|h)\s*$/.exec(part);
    if (!m) throw new UsageError(`--${name} must be durations such as 5s,5m,2h, got "${value}"`);
    return Math.round(Number(m[1]) * unit[m[2] as keyof typeof unit]);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`evcal: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
