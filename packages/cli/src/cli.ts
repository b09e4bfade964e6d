// The `evcal` command: serve, import, export, migrate, users, tokens, webhooks.
import { isValidZoneName } from '@evcal/core';
import { runTokens, runUsers } from './accounts-command';
import { allowPrivateOf, checkAction, integer, options, STORAGE_ARGS, storageOf, UsageError } from './command-args';
import { debugRequested, describeError } from './command-errors';
import { COMMAND_HELP, COMMANDS, MAIN_HELP, version, type Command } from './help';
import { runServe } from './serve-command';
import { redact } from './storage-url';
import { nearest } from './suggest';
import { describeIcsSummary, describeSkipped, describeSummary, exportStorage, importAnyFile, writeExport } from './transfer';
import { migrateCommand } from './migrate-command';
import { webhooksCommand } from './webhooks-command';

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '-h' || command === '--help' || command === 'help') {
    const topic = rest[0];
    process.stdout.write(topic !== undefined && isCommand(topic) ? COMMAND_HELP[topic] : MAIN_HELP);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (command === undefined) {
    process.stderr.write(MAIN_HELP);
    return 2;
  }
  if (!isCommand(command)) {
    const near = nearest(command, COMMANDS);
    process.stderr.write(`evcal: unknown command "${command}"; ${near ? `did you mean "${near}"?` : `the commands are ${COMMANDS.join(', ')} (evcal --help)`}\n`);
    return 2;
  }
  const commands: Record<Command, (args: readonly string[]) => Promise<number>> = {
    serve: (args) => runServe(args, COMMAND_HELP.serve),
    users: (args) => runUsers(args, COMMAND_HELP.users),
    tokens: (args) => runTokens(args, COMMAND_HELP.tokens),
    import: runImport,
    export: runExport,
    migrate: runMigrate,
    webhooks: runWebhooks,
  };
  try {
    return await commands[command](rest);
  } catch (error) {
    process.stderr.write(`${describeError(`evcal ${command}`, error, debugRequested(rest))}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

async function runImport(args: readonly string[]): Promise<number> {
  const { values, positionals } = options(args, { ...STORAGE_ARGS, timezone: { type: 'string' } }, true);
  if (values.help) return help('import');
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
  if (values.help) return help('export');
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
  if (values.help) return help('migrate');
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
    json: { type: 'boolean' },
    'webhook-allow-private': { type: 'boolean' },
  }, true);
  if (values.help) return help('webhooks');
  const [action, target, ...extra] = positionals;
  checkAction(action, WEBHOOK_ACTIONS);
  const needs = action === 'add' ? 'the endpoint URL' : action === 'list' ? undefined : 'the endpoint id';
  if (needs && target === undefined) throw new UsageError(`evcal webhooks ${action}: give ${needs}`);
  if (extra.length || (!needs && target !== undefined)) throw new UsageError(`evcal webhooks ${action}: unexpected argument "${extra[0] ?? target}"`);
  return webhooksCommand({
    action,
    storage: storageOf(values),
    ...(target !== undefined ? { target } : {}),
    ...(values.types !== undefined ? { types: (values.types as string).split(',').map((t) => t.trim()).filter(Boolean) } : {}),
    ...(values.description !== undefined ? { description: values.description as string } : {}),
    ...(values.secret !== undefined ? { secret: values.secret as string } : {}),
    allowPrivateAddresses: allowPrivateOf(values),
    json: values.json === true,
  });
}

function help(command: Command): number {
  process.stdout.write(COMMAND_HELP[command]);
  return 0;
}

function isCommand(name: string): name is Command {
  return (COMMANDS as readonly string[]).includes(name);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${describeError('evcal', error, debugRequested(process.argv.slice(2)))}\n`);
    process.exit(1);
  },
);
