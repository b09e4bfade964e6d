// The help of `evcal` and of each of its commands: `evcal --help` lists the commands, and
// `evcal <command> --help` shows that command's options only, each section once.
import { readFileSync } from 'node:fs';
import { optionsHelp, SERVE_OPTIONS } from './options';
import { DEFAULT_STORAGE } from './storage-url';

export const COMMANDS = ['serve', 'import', 'export', 'migrate', 'users', 'tokens', 'webhooks'] as const;
export type Command = (typeof COMMANDS)[number];

const STORAGE_URLS = `Storage URLs (--storage, else EVCAL_STORAGE or DATABASE_URL, else --config; default
${DEFAULT_STORAGE}):
  memory                     in this process only
  json:<file>                one JSON document on disk
  sqlite:<file>              SQLite (WAL); created and migrated if needed
  postgres://user:pass@host/db?schema=<name>
                             PostgreSQL; the schema is created and migrated if needed`;

/** The options every command that works on a storage takes. */
const STORAGE_OPTIONS = `  --storage <url>            the storage (memory, json:<file>, sqlite:<file>, postgres://…);
                             default ${DEFAULT_STORAGE}, or EVCAL_STORAGE, DATABASE_URL
  --config <file>            take --storage from this JSON or TOML file (as evcal serve does)`;

const COMMON_OPTIONS = `  --log-level debug          on an error, print its stack trace too
  -h, --help                 this help`;

export const MAIN_HELP = `evcal — an event calendar over HTTP, compatible with The Events Calendar REST API v1

Usage: evcal <command> [options]

Commands:
  serve                      serve the API, the calendar page (/) and the API reference (/docs)
  import <file>              load a dataset (.json), or add the events of an iCalendar file (.ics)
  export                     write a storage's calendar as a dataset
  migrate --from <url>       move in from a live site running The Events Calendar
  users <action>             add, list, change and remove the accounts kept in the storage
  tokens <action>            create, list and revoke API tokens and application passwords
  webhooks <action>          add, list, enable, disable and remove webhook endpoints

"evcal <command> --help" shows a command's options. "evcal --version" prints the version.

${STORAGE_URLS}

Examples:
  evcal serve --demo
  evcal serve --port 0 --timezone Europe/Rome --seed calendar.json
  evcal users add ada --role editor && evcal tokens create --user ada --expires 90d
  evcal export --storage sqlite:./data/evcal.db --output calendar.json
`;

const SERVE_HELP = `Usage: evcal serve [options]

Serves the API at /cal/events/v1, the calendar page at / and the API reference at /docs. Each
option also comes from its environment variable [in brackets] or a config file (--config): a
flag wins over the variable, which wins over the file, which wins over the default.

${STORAGE_URLS}

Options:
  --config <file>            read options from a JSON or TOML file whose keys are the
                             option names (port = 8080, storage = "postgres://…",
                             user = ["1:editor:…"]) [EVCAL_CONFIG]
${optionsHelp(SERVE_OPTIONS)}
  -h, --help                 this help

GET /healthz answers 200 while the process runs; GET /readyz 200 when the storage answers and
is migrated, else 503. Logs are JSON lines on stdout (one per request at level info, with its
X-Request-Id). SIGTERM or SIGINT stops it gracefully.

Examples:
  evcal serve --demo
  evcal serve --port 0 --timezone Europe/Rome --user 1:administrator:s3cret --seed calendar.json
  DATABASE_URL='postgres://evcal:secret@db.internal/evcal?schema=calendar' evcal serve --config /etc/evcal/evcal.toml
  evcal serve --base-path /wp-json --namespace tribe/events/v1 --storage sqlite:./data/site.db
`;

const IMPORT_HELP = `Usage: evcal import <dataset.json | calendar.ics> [options]

A dataset (docs/datasets.md) is loaded into the storage as it is. The events of an iCalendar
file are added, and importing the file again updates them (docs/icalendar.md).

Options:
${STORAGE_OPTIONS}
  --timezone <zone>          .ics: the zone of times the file gives without one (default: the
                             file's X-WR-TIMEZONE, else UTC)
${COMMON_OPTIONS}

Examples:
  evcal import calendar.json --storage 'postgres://evcal:secret@db.internal/evcal'
  evcal import calendar.ics --storage sqlite:./data/evcal.db
`;

const EXPORT_HELP = `Usage: evcal export [options]

Writes the storage's calendar as a dataset (docs/datasets.md), which evcal import and
evcal serve --seed read.

Options:
${STORAGE_OPTIONS}
  -o, --output <file>        write to this file (default: stdout)
${COMMON_OPTIONS}

Example:
  evcal export --storage sqlite:./data/evcal.db --output calendar.json
`;

const MIGRATE_HELP = `Usage: evcal migrate --from <API root URL> [options]

Moves in from a live site running The Events Calendar (or another evcal), over its REST API
(docs/migrating.md). Run it again to resume or to catch up: records whose "modified" did not
change are left alone, new ones are added, changed ones updated.

Options:
  --from <url>               the source's API root: https://site/wp-json/tribe/events/v1, or
                             https://site/?rest_route=/tribe/events/v1 with plain permalinks
${STORAGE_OPTIONS}
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
${COMMON_OPTIONS}

Exit status: 0 when everything was carried and verified, 1 when a record could not be stored
or the verification failed, 2 for usage.

Example:
  EVCAL_SOURCE_PASSWORD='abcd efgh ijkl mnop qrst uvwx' evcal migrate \\
    --from https://events.example.org/wp-json/tribe/events/v1 --user admin --storage sqlite:./data/site.db
`;

const USERS_HELP = `Usage: evcal users <action> [options]

The accounts kept in the storage (docs/operations.md); roles are WordPress's: administrator,
editor, author, contributor, subscriber.

Actions:
  add <name> --role <role> [--id <n>]   add a user (the next free id unless --id)
  list                                  every user
  set-role <user> <role>                change a user's role (a user: an id or a name)
  remove <user>                         remove a user and every token of theirs

Options:
${STORAGE_OPTIONS}
  --json                     print the users as JSON
${COMMON_OPTIONS}

Example:
  evcal users add ada --role editor --storage sqlite:./data/evcal.db
`;

const TOKENS_HELP = `Usage: evcal tokens <action> [options]

API tokens, kept in the storage only as hashes: a token is printed once, when it is made, alone
on stdout (so TOKEN=$(evcal tokens create …) captures it). A revoked token is refused from the
next request on, by every server sharing the storage.

Actions:
  create --user <user> [--expires 90d|2027-01-31|never] [--basic] [--label <text>]
                             a bearer token, or with --basic an application password for HTTP
                             Basic with the user's name (as WordPress clients send)
  list [--user <user>]       ids, users, kinds, labels, expiry (never the tokens)
  revoke <token id>...       revoke tokens

Options:
${STORAGE_OPTIONS}
  --json                     print JSON
${COMMON_OPTIONS}

Example:
  evcal tokens create --user ada --basic --expires 1y --storage sqlite:./data/evcal.db
`;

const WEBHOOKS_HELP = `Usage: evcal webhooks <action> [options]

Webhook endpoints kept in the storage; evcal serve on the storage delivers signed messages to
them (docs/webhooks.md).

Actions:
  list                       every endpoint, with its last attempt and error and the
                             deliveries waiting
  add <url>                  register an endpoint, printing its signing secret
  enable <id> | disable <id> | remove <id>

Options:
${STORAGE_OPTIONS}
  --types <list>             add: the event types to deliver, comma-separated, e.g.
                             event.created,event.updated,event.trashed (default: every type)
  --description <text>       add: what the endpoint is for
  --secret <whsec_...>       add: the signing secret (default: a new random one, printed)
  --webhook-allow-private    add: accept a loopback, private or link-local address (a
                             receiver on this machine or network); evcal serve must be given
                             it too to deliver there [EVCAL_WEBHOOK_ALLOW_PRIVATE]
  --json                     print endpoints as JSON
${COMMON_OPTIONS}

Example:
  evcal webhooks add https://hooks.example.org/evcal --types event.created,event.updated
`;

/** Each command's help. */
export const COMMAND_HELP: Readonly<Record<Command, string>> = {
  serve: SERVE_HELP,
  import: IMPORT_HELP,
  export: EXPORT_HELP,
  migrate: MIGRATE_HELP,
  users: USERS_HELP,
  tokens: TOKENS_HELP,
  webhooks: WEBHOOKS_HELP,
};

/** The version of @evcal/cli, from its package.json (beside src/ and dist/ alike). */
export function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
