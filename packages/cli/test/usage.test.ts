// How `evcal` answers the person typing: a short help per command, its version, a mistyped
// command, action or option answered in one line naming the nearest one (exit 2), and a
// failure told in one line without a stack trace unless --log-level debug asks for it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, tempPath } from './support/processes';

ensureBuilt();

/** Non-blank lines that appear more than once: a section printed twice. */
function repeatedLines(text: string): string[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.filter((l, i) => lines.indexOf(l) !== i);
}

const STACK = /\n\s+at [^\n]+:\d+:\d+/;

describe('evcal --help', () => {
  it('lists every command once, each section once, without any command\'s options', async () => {
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    for (const command of ['serve', 'import', 'export', 'migrate', 'users', 'tokens', 'webhooks']) {
      expect(res.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(repeatedLines(res.stdout)).toEqual([]);
    for (const flag of ['--webhook-retries', '--new-ids', '--find-hidden', '--description']) expect(res.stdout).not.toContain(flag);
  });

  // Each command's help has its own options and none of another command's.
  it.each<[string, string[], string[]]>([
    ['serve', ['--port', '--host', '--storage', '--demo', '--log-level', '--webhook-retries'], ['--from', '--new-ids', '--types', '--output', '--basic']],
    ['import', ['--storage', '--timezone'], ['--port', '--from', '--types', '--output', '--demo']],
    ['export', ['--storage', '--output'], ['--port', '--from', '--timezone', '--types']],
    ['migrate', ['--from', '--new-ids', '--dry-run', '--storage'], ['--port', '--types', '--output', '--demo']],
    ['users', ['add <name> --role', 'set-role', '--storage'], ['--port', '--from', '--types', '--basic']],
    ['tokens', ['create --user', '--basic', 'revoke', '--storage'], ['--port', '--from', '--types', '--role']],
    ['webhooks', ['add <url>', '--types', '--secret', '--storage'], ['--port', '--from', '--output', '--basic']],
  ])('evcal %s --help shows that command\'s options only', async (command, present, absent) => {
    const res = await runCli([command, '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith(`Usage: evcal ${command}`)).toBe(true);
    for (const text of present) expect(res.stdout).toContain(text);
    for (const text of absent) expect(res.stdout).not.toContain(text);
    expect(repeatedLines(res.stdout)).toEqual([]);
    expect((await runCli(['help', command])).stdout).toBe(res.stdout);
  });

  it('evcal --version prints the version of @evcal/cli', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const res = await runCli(['--version']);
    expect(res).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('a mistyped command, action or option', () => {
  it.each<[string[], string]>([
    [['serv'], 'unknown command "serv"; did you mean "serve"?'],
    [['improt', 'x.json'], 'unknown command "improt"; did you mean "import"?'],
    [['serve', '--prot', '8080'], 'evcal serve: unknown option --prot; did you mean --port?'],
    [['serve', '--stroage', 'memory'], 'evcal serve: unknown option --stroage; did you mean --storage?'],
    [['export', '--ouput', 'x.json'], 'evcal export: unknown option --ouput; did you mean --output?'],
    [['users', 'ad', 'ada', '--role', 'editor'], 'evcal users: unknown action "ad"; did you mean "add"?'],
    [['tokens', 'revok', 'abc'], 'evcal tokens: unknown action "revok"; did you mean "revoke"?'],
    [['webhooks', 'lst'], 'evcal webhooks: unknown action "lst"; did you mean "list"?'],
  ])('%j: one line naming the nearest, exit 2', async (args, line) => {
    const res = await runCli(args);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(`${line.startsWith('evcal') ? '' : 'evcal: '}${line}\n`);
  });

  it('a word near nothing known: one line listing the commands', async () => {
    const res = await runCli(['frobnicate']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('evcal: unknown command "frobnicate"; the commands are serve, import, export, migrate, users, tokens, webhooks (evcal --help)\n');
  });
});

describe('what a user did wrong is told in one line, without a stack trace', () => {
  const missing = () => tempPath('no-such-file.json');
  it.each<[string, () => string[], RegExp]>([
    ['an unknown storage scheme', () => ['serve', '--port', '0', '--storage', 'redis://127.0.0.1'], /^evcal serve: unknown storage "redis:\/\/127\.0\.0\.1"/],
    ['a --seed file that does not exist', () => ['serve', '--port', '0', '--storage', 'memory', '--seed', missing()], /^evcal serve: ENOENT: no such file/],
    ['a file to import that does not exist', () => ['import', missing(), '--storage', 'memory'], /^evcal import: ENOENT: no such file/],
    ['a flag without its value', () => ['serve', '--port'], /^evcal serve: Option '--port <value>' argument missing/],
    ['a bad flag value', () => ['serve', '--port', 'abc'], /^evcal serve: --port must be an integer/],
    ['an unknown storage for accounts', () => ['users', 'list', '--storage', 'mongodb://x'], /^evcal users: storage mongodb:\/\/x: unknown storage/],
  ])('%s', async (_name, args, line) => {
    const res = await runCli(args());
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(line);
    expect(res.stderr).not.toMatch(STACK);
    expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--log-level debug (or EVCAL_LOG_LEVEL=debug) shows the stack', async () => {
    const flag = await runCli(['serve', '--port', '0', '--storage', 'redis://127.0.0.1', '--log-level', 'debug']);
    expect(flag.stderr).toMatch(/^evcal serve: StorageUrlError: unknown storage/);
    expect(flag.stderr).toMatch(STACK);
    const env = await runCli(['import', tempPath('no-such-file.json'), '--storage', 'memory'], { env: { EVCAL_LOG_LEVEL: 'debug' } });
    expect(env.stderr).toMatch(STACK);
  });
});
