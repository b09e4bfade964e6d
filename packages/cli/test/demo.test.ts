// `evcal serve --demo`, as `npm start` runs it: the demo's administrator is an account in the
// storage whose token, printed once when it is made, keeps working across restarts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempPath } from './support/processes';
import { needBuiltCli, startServe } from './support/serve-process';

needBuiltCli();

/** The token line the first start prints, and the command it names for a new one. */
const TOKEN_RE = /^ {2}(evcal_\S+)$/m;

async function createEvent(api: string, token: string): Promise<number> {
  const res = await fetch(`${api}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Poetry Slam', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 22:00:00' }),
  });
  return res.status;
}

describe('evcal serve --demo', { timeout: 60_000 }, () => {
  it('keeps its administrator and token across restarts, stored as a hash, printed only when made', async () => {
    const db = tempPath('demo.db');
    const storage = `sqlite:${db}`;

    const first = await startServe(['--demo', '--storage', storage]);
    await expect.poll(() => first.stderr(), { timeout: 20_000 }).toMatch(/A new one: npx @evcal\/cli tokens create --user admin --storage sqlite:/);
    const token = TOKEN_RE.exec(first.stderr())?.[1];
    expect(token).toBeDefined();
    expect(first.stderr()).toContain(`--storage ${storage}`);
    expect(await createEvent(first.api, token!)).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await startServe(['--demo', '--storage', storage]);
    await expect.poll(() => second.stderr(), { timeout: 20_000 }).toMatch(/user 1 "admin", whose token was printed when it was made/);
    expect(second.stderr()).not.toMatch(/evcal_/);
    expect(second.stderr()).toContain(`a new one: npx @evcal/cli tokens create --user admin --storage ${storage}`);
    // The first start's token still acts as the administrator.
    expect(await createEvent(second.api, token!)).toBe(201);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // An account like any other: listed by `evcal tokens`, and nowhere in the database's files in clear.
    const tokens = await runCli(['tokens', 'list', '--json', '--storage', storage]);
    expect(JSON.parse(tokens.stdout)).toEqual([expect.objectContaining({ user: 1, kind: 'bearer' })]);
    const users = await runCli(['users', 'list', '--json', '--storage', storage]);
    expect(JSON.parse(users.stdout)).toEqual([expect.objectContaining({ id: 1, name: 'admin', role: 'administrator' })]);
    const secret = token!.slice(token!.lastIndexOf('_') + 1);
    for (const file of readdirSync(dirname(db)).filter((f) => f.startsWith('demo.db'))) {
      expect(readFileSync(`${dirname(db)}/${file}`).includes(secret)).toBe(false);
    }
  });

  it('makes no account when --user gives an administrator', async () => {
    const server = await startServe(['--demo', '--user', '1:administrator:fixed-token']);
    expect(await createEvent(server.api, 'fixed-token')).toBe(201);
    expect(server.stderr()).not.toContain('Demo calendar ready');
  });
});
