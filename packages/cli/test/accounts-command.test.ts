// `evcal users` and `evcal tokens` refusals, and the forms --expires takes.
import { describe, expect, it } from 'vitest';
import { expiryOf } from '../src/accounts-command';
import { ensureBuilt, runCli } from './support/processes';

describe('--expires', () => {
  const now = Date.UTC(2030, 0, 1, 12);
  it.each<[string, number | null]>([
    ['90m', now + 90 * 60_000],
    ['12h', now + 12 * 3_600_000],
    ['30d', now + 30 * 86_400_000],
    ['2w', now + 14 * 86_400_000],
    ['1y', now + 365 * 86_400_000],
    ['2031-02-03', Date.UTC(2031, 1, 3)],
    ['2031-02-03T18:30:00Z', Date.UTC(2031, 1, 3, 18, 30)],
    ['never', null],
  ])('%s', (text, expected) => {
    expect(expiryOf(text, now)).toBe(expected);
  });

  it.each(['tomorrow', '30 days', '-1d', '2031-13-45x'])('refuses %s', (text) => {
    expect(() => expiryOf(text, now)).toThrow(/--expires/);
  });
});

describe('evcal users and tokens refuse', { timeout: 30_000 }, () => {
  ensureBuilt();
  it.each<[string[], RegExp]>([
    [['users', 'add', 'ada', '--role', 'editor', '--storage', 'memory'], /a storage that keeps them/],
    [['users', 'add', 'ada', '--storage', 'sqlite::memory:'], /users add <name> --role <role>/],
    [['users', 'add', 'ada', '--role', 'wizard', '--storage', 'sqlite::memory:'], /unknown role "wizard"/],
    [['users', 'frobnicate', '--storage', 'sqlite::memory:'], /unknown action "frobnicate"/],
    [['tokens', 'create', '--user', 'nobody', '--storage', 'sqlite::memory:'], /no user "nobody"/],
    [['tokens', 'revoke', 'abcdefabcdef', '--storage', 'sqlite::memory:'], /no token "abcdefabcdef"/],
  ])('%j', async (args, message) => {
    const res = await runCli(args);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });
});
