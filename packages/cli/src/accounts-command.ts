// `evcal users` and `evcal tokens`: the accounts kept in the storage, managed from the
// command line. A token is printed once, alone on stdout (so `$(evcal tokens create …)`
// captures it), with what it is on stderr; only its hash is stored.
import { createAccounts, isAccountError, type Accounts, type Storage, type TokenRecord, type UserRecord } from '@evcal/core';
import { checkAction, options, STORAGE_ARGS, storageOf, UsageError, type OptionValues } from './command-args';
import { openStorage, redact } from './storage-url';

export async function runUsers(args: readonly string[], help: string): Promise<number> {
  const [verb, ...rest] = args;
  const { values, positionals } = options(rest, { ...STORAGE_ARGS, role: { type: 'string' }, id: { type: 'string' }, json: { type: 'boolean' } }, true);
  if (verb === undefined || verb === '-h' || verb === '--help' || values.help) return usage(help, verb === undefined);
  checkAction(verb, ['add', 'list', 'set-role', 'remove']);
  return withAccounts(values, async (accounts) => {
    switch (verb) {
      case 'add': {
        const [name, ...extra] = positionals;
        if (name === undefined || extra.length || values.role === undefined) throw new UsageError('evcal users add <name> --role <role> [--id <n>]');
        const id = values.id === undefined ? undefined : Number(values.id);
        if (id !== undefined && !Number.isInteger(id)) throw new UsageError(`--id must be an integer, got "${values.id}"`);
        const user = await accounts.users.add({ name, role: values.role as string, ...(id !== undefined ? { id } : {}) });
        process.stdout.write(values.json ? `${JSON.stringify(userJson(user))}\n` : `added user ${user.id} ${JSON.stringify(user.name)} (${user.role})\n`);
        return 0;
      }
      case 'list': {
        const users = await accounts.users.list();
        process.stdout.write(values.json ? `${JSON.stringify(users.map(userJson))}\n` : table(['ID', 'NAME', 'ROLE', 'ADDED'], users.map((u) => [String(u.id), u.name, u.role, iso(u.created)])));
        return 0;
      }
      case 'set-role': {
        const [ref, role, ...extra] = positionals;
        if (ref === undefined || role === undefined || extra.length) throw new UsageError('evcal users set-role <user id or name> <role>');
        const user = await accounts.users.setRole(ref, role);
        process.stdout.write(`user ${user.id} ${JSON.stringify(user.name)} is now ${user.role}\n`);
        return 0;
      }
      case 'remove': {
        const [ref, ...extra] = positionals;
        if (ref === undefined || extra.length) throw new UsageError('evcal users remove <user id or name>');
        const { user, tokens } = await accounts.users.remove(ref);
        process.stdout.write(`removed user ${user.id} ${JSON.stringify(user.name)} and ${tokens} token${tokens === 1 ? '' : 's'}\n`);
        return 0;
      }
    }
  });
}

export async function runTokens(args: readonly string[], help: string, now: () => number = Date.now): Promise<number> {
  const [verb, ...rest] = args;
  const { values, positionals } = options(rest, {
    ...STORAGE_ARGS, user: { type: 'string' }, expires: { type: 'string' }, basic: { type: 'boolean' }, label: { type: 'string' }, json: { type: 'boolean' },
  }, true);
  if (verb === undefined || verb === '-h' || verb === '--help' || values.help) return usage(help, verb === undefined);
  checkAction(verb, ['create', 'list', 'revoke']);
  return withAccounts(values, async (accounts) => {
    switch (verb) {
      case 'create': {
        if (values.user === undefined || positionals.length) throw new UsageError('evcal tokens create --user <id or name> [--expires <when>] [--basic] [--label <text>]');
        const expires = values.expires === undefined ? null : expiryOf(values.expires as string, now());
        const created = await accounts.tokens.create({
          user: values.user as string, kind: values.basic ? 'application-password' : 'bearer', label: (values.label as string | undefined) ?? '', expires,
        });
        const { record, user } = created;
        if (values.json) {
          process.stdout.write(`${JSON.stringify({ ...tokenJson(record), token: created.token })}\n`);
          return 0;
        }
        const use = record.kind === 'bearer'
          ? 'send it as "Authorization: Bearer <token>"'
          : `send it as the password of HTTP Basic credentials with the user name ${JSON.stringify(user.name)}`;
        process.stderr.write(`Token ${record.id} for user ${user.id} ${JSON.stringify(user.name)} (${user.role}), ${record.kind}, `
          + `${record.expires === null ? 'does not expire' : `expires ${iso(record.expires)}`}; ${use}.\n`
          + 'It is shown this once and stored only as a hash: keep it in a secret store now.\n');
        process.stdout.write(`${created.token}\n`);
        return 0;
      }
      case 'list': {
        if (positionals.length) throw new UsageError('evcal tokens list [--user <id or name>]');
        const tokens = await accounts.tokens.list(values.user as string | undefined);
        const names = new Map((await accounts.users.list()).map((u) => [u.id, u.name]));
        process.stdout.write(values.json ? `${JSON.stringify(tokens.map(tokenJson))}\n` : table(
          ['ID', 'USER', 'KIND', 'LABEL', 'CREATED', 'EXPIRES'],
          tokens.map((t) => [t.id, `${t.userId} ${names.get(t.userId) ?? '?'}`, t.kind, t.label, iso(t.created), t.expires === null ? 'never' : iso(t.expires)]),
        ));
        return 0;
      }
      case 'revoke': {
        if (positionals.length === 0) throw new UsageError('evcal tokens revoke <token id>...');
        for (const id of positionals) {
          const token = await accounts.tokens.revoke(id);
          process.stdout.write(`revoked token ${token.id} of user ${token.userId}\n`);
        }
        return 0;
      }
    }
  });
}

/** `30d`, `12h`, `90m`, `2w`, `1y` from now; or an ISO 8601 date or instant; or `never`. */
export function expiryOf(text: string, now: number): number | null {
  if (text === 'never') return null;
  const relative = /^(\d+)\s*(m|h|d|w|y)$/.exec(text.trim());
  if (relative) return now + Number(relative[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_536_000_000 }[relative[2] as 'm']!;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) throw new UsageError(`--expires must be a duration (30d, 12h, 90m, 2w, 1y), a date or instant (2027-01-31, 2027-01-31T18:00:00Z) or never, got "${text}"`);
  return at;
}

// ---- helpers ----

async function withAccounts(values: OptionValues, fn: (accounts: Accounts) => Promise<number>): Promise<number> {
  const url = storageOf(values);
  if (url === 'memory' || url === 'memory:') throw new UsageError('accounts need a storage that keeps them: --storage json:<file>, sqlite:<file> or postgres://…');
  let storage: Storage;
  try {
    storage = await openStorage(url);
  } catch (error) {
    throw Object.assign(new Error(`storage ${redact(url)}: ${(error as Error).message}`), { code: 'storage' });
  }
  try {
    return await fn(createAccounts({ storage }));
  } catch (error) {
    if (isAccountError(error)) throw new UsageError(error.message);
    throw error;
  } finally {
    await storage.close();
  }
}

function usage(help: string, missing: boolean): number {
  process[missing ? 'stderr' : 'stdout'].write(help);
  return missing ? 2 : 0;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

function userJson(u: UserRecord) {
  return { id: u.id, name: u.name, role: u.role, created: iso(u.created) };
}

function tokenJson(t: TokenRecord) {
  return { id: t.id, user: t.userId, kind: t.kind, label: t.label, created: iso(t.created), expires: t.expires === null ? null : iso(t.expires) };
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}
