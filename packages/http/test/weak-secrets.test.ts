// A missing secret never becomes a credential: the credential maps refuse, when they are built,
// a token that is empty, too short, or the text a missing variable leaves behind. The README's
// own example, `bearerTokens({ [process.env.ADMIN_TOKEN!]: admin })`, run without ADMIN_TOKEN,
// made `Authorization: Bearer undefined` an administrator.
import { describe, expect, it } from 'vitest';
import { createCalendar, createAccounts } from '@evcal/core';
import { createMemoryStorage } from '@evcal/memory';
import { accountCredentials, bearerTokens, createFetchHandler, MIN_SECRET_LENGTH } from '../src/index';

const admin = { id: 1, role: 'administrator' } as const;

describe('credential maps', () => {
  it('refuse the token a variable that is not set leaves, naming the entry and never its secret', () => {
    const unset = process.env.EVCAL_TEST_SURELY_NOT_SET;
    expect(unset).toBeUndefined();
    expect(() => bearerTokens({ [unset!]: admin })).toThrow(/bearerTokens: the token of user 1 \(administrator\) is the text "undefined"/);
    expect(() => bearerTokens({ [`${null}`]: admin })).toThrow(/"null"/);
    expect(() => accountCredentials(createAccounts({ storage: createMemoryStorage() }), { tokens: { [unset!]: admin } })).toThrow(/accountCredentials tokens: the token of user 1/);
  });

  it('refuse empty, blank and short tokens, and take a real one', async () => {
    expect(() => bearerTokens({ '': admin })).toThrow(/is empty/);
    expect(() => bearerTokens(new Map([['   ', admin]]))).toThrow(/is empty/);
    const short = 'x'.repeat(MIN_SECRET_LENGTH - 1);
    let message = '';
    try { bearerTokens({ [short]: admin }); } catch (e) { message = (e as Error).message; }
    expect(message).toMatch(new RegExp(`has ${MIN_SECRET_LENGTH - 1} characters, fewer than ${MIN_SECRET_LENGTH}`));
    expect(message).not.toContain(short);

    const calendar = createCalendar({ storage: createMemoryStorage(), timezone: 'UTC' });
    const handler = createFetchHandler(calendar, { authenticate: bearerTokens({ 'a-real-admin-token': admin }) });
    const post = (token: string) => handler(new Request('http://cal.test/cal/events/v1/events', {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Gig', start_date: '2031-05-06 20:00:00', end_date: '2031-05-06 23:00:00' }),
    }));
    expect((await post('a-real-admin-token')).status).toBe(201);
    expect((await post('undefined')).status).toBe(401);
  });
});
