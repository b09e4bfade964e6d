// Accounts in core: names and roles checked, tokens stored only as SHA-256 hashes, bearer
// tokens and application passwords (with or without their spaces), expiry, and the reasons
// Basic credentials fail, as the reference gives them.
import { createHash } from 'node:crypto';
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { createAccounts, createCalendar, datasetJsonBytes, decodeDataset, isAccountError } from '../src/index';

const setup = (now = () => Date.UTC(2030, 0, 1)) => {
  const storage = createMemoryStorage();
  return { storage, accounts: createAccounts({ storage, now }) };
};

describe('users', () => {
  it('adds users with the next free id or a given one; names are unique case-insensitively', async () => {
    const { accounts } = setup();
    expect(await accounts.users.add({ name: 'ada', role: 'administrator', id: 4 })).toMatchObject({ id: 4, name: 'ada' });
    expect(await accounts.users.add({ name: '  Grace Hopper ', role: 'editor' })).toMatchObject({ id: 5, name: 'Grace Hopper' });
    await expect(accounts.users.add({ name: 'ADA', role: 'editor' })).rejects.toMatchObject({ code: 'exists' });
    await expect(accounts.users.add({ name: 'bob', role: 'editor', id: 4 })).rejects.toMatchObject({ code: 'exists' });
    expect((await accounts.users.find('grace hopper'))?.id).toBe(5);
    expect((await accounts.users.find('5'))?.name).toBe('Grace Hopper');
  });

  it('refuses unknown roles and names that are empty, digits only or hold other characters', async () => {
    const { accounts } = setup();
    for (const [name, role] of [['x', 'owner'], ['', 'editor'], ['12', 'editor'], ['a<b', 'editor'], ['a'.repeat(61), 'editor']]) {
      const error = await accounts.users.add({ name: name!, role: role! }).catch((e: unknown) => e);
      expect(isAccountError(error) && error.code, `${name} ${role}`).toBe('invalid');
    }
    await expect(accounts.users.setRole('nobody', 'editor')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('tokens', () => {
  it('stores only the SHA-256 of a bearer token, which names its id', async () => {
    const { accounts, storage } = setup();
    await accounts.users.add({ name: 'ada', role: 'administrator' });
    const { token, record } = await accounts.tokens.create({ user: 'ada', label: 'deploy' });
    expect(token).toMatch(new RegExp(`^evcal_${record.id}_[A-Za-z0-9_-]{43}$`));
    expect(record.hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await storage.tokens.list())).not.toContain(token.slice(19));
    expect(await accounts.verifyBearer(token)).toEqual({ id: 1, role: 'administrator' });
    expect(await accounts.verifyBearer(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(await accounts.verifyBearer('evcal_000000000000_' + 'a'.repeat(43))).toBeUndefined();
    expect(await accounts.verifyBearer('not-a-token')).toBeUndefined();
  });

  it('makes application passwords as WordPress does, accepted with or without their spaces, for their user only', async () => {
    const { accounts } = setup();
    await accounts.users.add({ name: 'ada', role: 'author' });
    await accounts.users.add({ name: 'bob', role: 'author' });
    const { token } = await accounts.tokens.create({ user: 'ada', kind: 'application-password' });
    expect(token).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const ok = { ok: true, principal: { id: 1, role: 'author' } };
    expect(await accounts.verifyApplicationPassword('ada', token)).toEqual(ok);
    expect(await accounts.verifyApplicationPassword('ADA', token.replace(/ /g, ''))).toEqual(ok);
    expect(await accounts.verifyApplicationPassword('bob', token)).toEqual({ ok: false, reason: 'incorrect_password' });
    expect(await accounts.verifyApplicationPassword('carol', token)).toEqual({ ok: false, reason: 'unknown_user' });
    expect(await accounts.verifyApplicationPassword('carol@example.org', token)).toEqual({ ok: false, reason: 'unknown_email' });
    // An application password is not a bearer token, nor the other way round.
    const bearer = await accounts.tokens.create({ user: 'ada' });
    expect(await accounts.verifyBearer(token)).toBeUndefined();
    expect(await accounts.verifyApplicationPassword('ada', bearer.token)).toEqual({ ok: false, reason: 'incorrect_password' });
  });

  it('stops accepting a token once it expires, and refuses an expiry in the past', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { accounts } = setup(() => now);
    await accounts.users.add({ name: 'ada', role: 'editor' });
    const { token } = await accounts.tokens.create({ user: 'ada', expires: now + 60_000 });
    expect(await accounts.verifyBearer(token)).toBeDefined();
    now += 60_000;
    expect(await accounts.verifyBearer(token)).toBeUndefined();
    await expect(accounts.tokens.create({ user: 'ada', expires: now - 1 })).rejects.toMatchObject({ code: 'invalid' });
  });

  it('revokes by id and lists per user', async () => {
    const { accounts } = setup();
    await accounts.users.add({ name: 'ada', role: 'editor' });
    const a = await accounts.tokens.create({ user: 'ada' });
    await accounts.tokens.create({ user: 'ada', kind: 'application-password' });
    expect((await accounts.tokens.list('ada')).length).toBe(2);
    expect((await accounts.tokens.revoke(a.record.id)).id).toBe(a.record.id);
    await expect(accounts.tokens.revoke(a.record.id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await accounts.tokens.list()).map((t) => t.kind)).toEqual(['application-password']);
  });
});

describe('the accounts section of a stored calendar document', () => {
  it('is written by a storage that is one document, read back, and left out of imports and exports', async () => {
    const { accounts, storage } = setup();
    await accounts.users.add({ name: 'ada', role: 'editor' });
    const { token } = await accounts.tokens.create({ user: 'ada', expires: Date.UTC(2031, 0, 1) });
    const document = JSON.parse(new TextDecoder().decode(datasetJsonBytes(storage.snapshot())));
    expect(document.accounts.users).toEqual([{ id: 1, name: 'ada', role: 'editor', created: '2030-01-01T00:00:00.000Z' }]);
    expect(JSON.stringify(document)).not.toContain(token);
    const reopened = createMemoryStorage();
    reopened.load(decodeDataset(document));
    expect(await createAccounts({ storage: reopened, now: () => Date.UTC(2030, 0, 1) }).verifyBearer(token)).toEqual({ id: 1, role: 'editor' });
    const other = createMemoryStorage();
    await createCalendar({ storage: other }).importDataset(document);
    expect(await other.users.list()).toEqual([]);
    expect(await createCalendar({ storage }).exportDataset()).not.toHaveProperty('accounts');
  });
});
