// The `evcal` command: serve, import, export, migrate.
import { isValidZoneName } from '@evcal/core';
import { runTokens, runUsers } from './accounts-command';
import { allowPrivateOf, integer, options, STORAGE_ARGS, storageOf, UsageError } from './command-args';
import { optionsHelp, SERVE_OPTIONS } from './options';
import { runServe } from './serve-command';
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
  evcal users|tokens <command> [--storage <url>]  manage accounts and API tokens (below)
  evcal webhooks list [--storage <url>] [--json]
  evcal webhooks add <url> [--types <list>] [--description <text>] [--secret whsec_...]
                     [--webhook-allow-private]
  evcal webhooks enable|disable|remove <endpoint id> [--storage <url>]
                                                manage webhook endpoints (docs/webhooks.md);
                                                evcal serve on the storage delivers to them;
                                                list shows each one's last attempt and error
                                                and the deliveries waiting
  evcal migrate --from <API root URL> [--storage <url>] [options]
                                                move in from a live site running The Events
                                                Calendar (or another evcal), over its REST API

Storage URLs (--storage), default ${DEFAULT_STORAGE}:
  memory                          in this process only
  json:<file>                     one JSON document on disk
  sqlite:<file>                   SQLite (WAL); created and migrated if needed
  postgres://user:pass@host/db?schema=<name>
                                  PostgreSQL; the schema is created and migrated if needed

Options of serve (each also from its environment variable, or from a config file):
  --config <file>            read options from a JSON or TOML file whose keys are the
                             option names (port = 8080, storage = "postgres://…",
                             user = ["1:editor:…"]); a value is taken from its flag, else
                             its environment variable, else the file, else the default
                             [EVCAL_CONFIG]
${optionsHelp(SERVE_OPTIONS)}
  -h, --help                 this help
  GET /healthz answers 200 while the process runs; GET /readyz 200 when the storage answers
  and is migrated, else 503. Logs are JSON lines on stdout (one per request at level info,
  with its X-Request-Id). SIGTERM or SIGINT stops it gracefully.

Accounts (kept in the storage; tokens only as hashes; see docs/operations.md):
  evcal users add <name> --role <role> [--id <n>]   add a user (roles: administrator, editor,
                                                author, contributor, subscriber)
  evcal users list | set-role <user> <role> | remove <user>
  evcal tokens create --user <id or name> [--expires 90d|2027-01-31|never] [--basic]
                      [--label <text>]          a token, printed once: a bearer token, or with
                                                --basic an application password for HTTP Basic
                                                with the user's name (as WordPress clients send)
  evcal tokens list [--user <user>]             ids, users, kinds, expiry (never the tokens)
  evcal tokens revoke <token id>...             refused from the next request on, on every
                                                server sharing the storage
  Each takes --storage <url> (or EVCAL_STORAGE, DATABASE_URL, --config) and --json.

Options of webhooks:
  --storage <url>            the storage (see above; or EVCAL_STORAGE, DATABASE_URL, --config)
  --types <list>             add: the event types to deliver, comma-separated, e.g.
                             event.created,event.updated,event.trashed (default: every type)
  --description <text>       add: what the endpoint is for
  --secret <whsec_...>       add: the signing secret (default: a new random one, printed)
  --webhook-allow-private    add: accept a loopback, private or link-local address (a
                             receiver on this machine or network); evcal serve must be given
                             it too to deliver there [EVCAL_WEBHOOK_ALLOW_PRIVATE]
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
  evcal serve --port 0 --timezone Europe/Rome --user 1:administrator:change-me-please --seed calendar.json
  DATABASE_URL='postgres://evcal:secret@db.internal/evcal?schema=calendar' evcal serve --config /etc/evcal/evcal.toml
  evcal users add ada --role editor && evcal tokens create --user ada --basic --expires 1y
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
  const commands: Record<string, (args: readonly string[]) => Promise<number>> = {
    serve: (args) => runServe(args, HELP),
    users: (args) => runUsers(args, HELP),
    tokens: (args) => runTokens(args, HELP),
    import: runImport,
    export: runExport,
    migrate: runMigrate,
    webhooks: runWebhooks,
  };
  const run = Object.hasOwn(commands, command) ? commands[command] : undefined;
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

async function runImport(args: readonly string[]): Promise<number> {
  const { values, positionals } = options(args, { ...STORAGE_ARGS, timezone: { type: 'string' } }, true);
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('give exactly one file, a dataset file or an iCalendar file: evcal import <dataset.json | calendar.ics> --storage <url>');
  const storage = storageOf(values);
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
  const { values } = options(args, { ...STORAGE_ARGS, output: { type: 'string', short: 'o' } });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const storage = storageOf(values);
  const text = await exportStorage(storage);
  await writeExport(text, values.output as string | undefined);
  const data = JSON.parse(text) as Record<string, unknown[]>;
  process.stderr.write(`exported ${(['events', 'venues', 'organizers', 'categories', 'tags'] as const)
    .map((k) => `${data[k]?.length ?? 0} ${k}`).join(', ')} from ${redact(storage)}\n`);
  return 0;
}

async function runMigrate(args: readonly string[]): Promise<number> {
  const { values } = options(args, {
    ...STORAGE_ARGS,
    from: { type: 'string' },
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
    storage: storageOf(values),
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
    ...STORAGE_ARGS,
    types: { type: 'string' },
    description: { type: 'string' },
    secret: { type: 'string' },
    'webhook-allow-private': { type: 'boolean' },
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
    storage: storageOf(values),
    ...(target !== undefined ? { target } : {}),
    ...(values.types !== undefined ? { types: (values.types as string).split(',').map((t) => t.trim()).filter(Boolean) } : {}),
    ...(values.description !== undefined ? { description: values.description as string } : {}),
    ...(values.secret !== undefined ? { secret: values.secret as string } : {}),
    allowPrivateAddresses: allowPrivateOf(values),
    json: values.json === true,
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`evcal: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
