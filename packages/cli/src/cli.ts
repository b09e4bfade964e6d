// The `evcal` command.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { isCalendarError } from '@evcal/core';
import { demoDataset } from './demo-dataset';
import { parseUser, serve, type ServeUser } from './serve';
import { StorageUrlError } from './storage-url';

const HELP = `evcal — an event calendar over HTTP, compatible with The Events Calendar REST API v1

Usage:
  evcal serve [options]

Options of serve:
  --host <host>              interface to listen on (default 127.0.0.1)
  --port <port>              port; 0 picks a free one (default 8080)
  --storage <url>            memory (default), json:<file>; sqlite:<file> and postgres://… come later
  --timezone <zone>          the site time zone, an IANA name (default UTC)
  --user <id>:<role>:<token> a user; requests with "Authorization: Bearer <token>" act as them.
                             Repeatable. Roles: administrator, editor, author, contributor, subscriber
  --seed <file>              load a dataset (JSON) before listening
  --default-per-page <n>     items per page when a request gives none (default 10)
  --max-per-page <n>         the largest per_page (default 50)
  --now <instant>            freeze the clock at this ISO 8601 instant (reproducible runs)
  --demo                     load a small demo calendar and print an administrator token
  -h, --help                 this help

Examples:
  evcal serve --demo
  evcal serve --port 0 --timezone Europe/Rome --user 1:administrator:s3cret --seed calendar.json
  curl http://127.0.0.1:8080/cal/events/v1/events
`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'serve') {
    process.stderr.write(`evcal: unknown command "${command}"\n\n${HELP}`);
    return 2;
  }
  let values: ReturnType<typeof parseServeArgs>;
  try {
    values = parseServeArgs(rest);
  } catch (e) {
    process.stderr.write(`evcal serve: ${(e as Error).message}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  return runServe(values);
}

function parseServeArgs(args: readonly string[]) {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const int = (name: string, value: string | undefined, min: number) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got "${value}"`);
    return n;
  };
  const now = values.now === undefined ? undefined : new Date(values.now);
  if (now && Number.isNaN(now.getTime())) throw new Error(`--now must be an ISO 8601 instant, got "${values.now}"`);
  return {
    help: values.help === true,
    demo: values.demo === true,
    host: values.host,
    port: int('port', values.port, 0),
    storage: values.storage,
    timezone: values.timezone,
    users: (values.user ?? []).map(parseUser),
    seed: values.seed,
    defaultPerPage: int('default-per-page', values['default-per-page'], 1),
    maxPerPage: int('max-per-page', values['max-per-page'], 1),
    now,
  };
}

async function runServe(values: ReturnType<typeof parseServeArgs>): Promise<number> {
  const users: ServeUser[] = [...values.users];
  let demoToken: string | undefined;
  if (values.demo && !users.some((u) => u.role === 'administrator')) {
    demoToken = process.env.EVCAL_ADMIN_TOKEN || randomBytes(18).toString('base64url');
    users.push({ id: 1, role: 'administrator', token: demoToken });
  }
  let server;
  try {
    server = await serve({
      ...(values.host !== undefined ? { host: values.host } : {}),
      ...(values.port !== undefined ? { port: values.port } : {}),
      ...(values.storage !== undefined ? { storage: values.storage } : {}),
      ...(values.timezone !== undefined ? { timezone: values.timezone } : {}),
      ...(values.seed !== undefined ? { seed: values.seed } : {}),
      ...(values.defaultPerPage !== undefined ? { defaultPerPage: values.defaultPerPage } : {}),
      ...(values.maxPerPage !== undefined ? { maxPerPage: values.maxPerPage } : {}),
      ...(values.now !== undefined ? { now: values.now } : {}),
      ...(values.demo ? { dataset: demoDataset(values.now) } : {}),
      users,
    });
  } catch (e) {
    const message = e instanceof StorageUrlError || isCalendarError(e) || e instanceof Error ? (e as Error).message : String(e);
    process.stderr.write(`evcal serve: ${message}\n`);
    return 1;
  }
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
  process.stdout.write(`evcal listening on ${server.origin}\nAPI root: ${server.apiRoot}\n`);
  if (demoToken) {
    process.stdout.write(`Demo calendar loaded. Administrator token: ${demoToken}\n`
      + `  curl -H "Authorization: Bearer ${demoToken}" ${server.apiRoot}/events\n`);
  }
  return stopped;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`evcal: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
