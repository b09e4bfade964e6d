// Accounts: users found by id and by name (case-insensitively), tokens by id and by user,
// account writes as write transactions (counted, atomic, durable), and the accounts logic of
// core over the adapter: a role change or a revoked token is seen on the very next check,
// as every server sharing the storage must see it. And readiness.
import { createAccounts } from '@evcal/core';
import { describe, expect, it } from 'vitest';
import type { SuiteContext } from './context';
import { tokenRecord, userRecord } from './fixtures';

export function accountsGroup(ctx: SuiteContext): void {
  describe('accounts', () => {
    it('keeps users: by id, by name compared case-insensitively, listed by id; replaced and deleted', async () => {
      const s = await ctx.fresh();
      const ada = userRecord(7, { name: 'Ada Lovelace', role: 'administrator' });
      await s.users.insert(userRecord(12));
      await s.users.insert(ada);
      expect(await s.users.get(7)).toEqual(ada);
      expect(await s.users.get(8)).toBeUndefined();
      expect(await s.users.getByName('ada lovelace')).toEqual(ada);
      expect(await s.users.getByName('ADA LOVELACE')).toEqual(ada);
      expect(await s.users.getByName('Ada')).toBeUndefined();
      expect((await s.users.list()).map((u) => u.id)).toEqual([7, 12]);
      await s.users.replace({ ...ada, role: 'subscriber' });
      expect((await s.users.get(7))?.role).toBe('subscriber');
      await s.users.delete(7);
      expect(await s.users.get(7)).toBeUndefined();
      expect(await s.users.getByName('Ada Lovelace')).toBeUndefined();
    });

    it('refuses a user id in use and the replacement of a missing user', async () => {
      const s = await ctx.fresh();
      await s.users.insert(userRecord(1));
      await expect(s.users.insert(userRecord(1, { name: 'other' }))).rejects.toMatchObject({ code: 'conflict' });
      await expect(s.users.replace(userRecord(2))).rejects.toMatchObject({ code: 'conflict' });
    });

    it('keeps tokens: by id, per user and all by creation time, expiry included; deleted', async () => {
      const s = await ctx.fresh();
      const a = tokenRecord('00000000000a', 1, { created: 3, kind: 'application-password', label: 'phone app', expires: Date.UTC(2030, 0, 1) });
      const b = tokenRecord('00000000000b', 2, { created: 1 });
      const c = tokenRecord('00000000000c', 1, { created: 2 });
      for (const t of [a, b, c]) await s.tokens.insert(t);
      expect(await s.tokens.get('00000000000a')).toEqual(a);
      expect(await s.tokens.get('ffffffffffff')).toBeUndefined();
      expect((await s.tokens.list(1)).map((t) => t.id)).toEqual(['00000000000c', '00000000000a']);
      expect((await s.tokens.list()).map((t) => t.id)).toEqual(['00000000000b', '00000000000c', '00000000000a']);
      expect(await s.tokens.list(3)).toEqual([]);
      await s.tokens.delete('00000000000a');
      expect(await s.tokens.get('00000000000a')).toBeUndefined();
      await expect(s.tokens.insert(b)).rejects.toMatchObject({ code: 'conflict' });
    });

    it('writes accounts as write transactions: counted, and undone with a failed transaction', async () => {
      const s = await ctx.fresh();
      await s.users.insert(userRecord(1));
      expect(await s.lastChange()).toBe(1);
      await s.transaction(async (tx) => {
        await tx.users.replace(userRecord(1, { role: 'author' }));
        await tx.tokens.insert(tokenRecord('0000000000a1', 1));
      });
      expect(await s.lastChange()).toBe(2);
      if (!s.capabilities.transactions) return;
      await expect(s.transaction(async (tx) => {
        await tx.tokens.insert(tokenRecord('0000000000a2', 1));
        await tx.users.delete(1);
        expect(await tx.users.get(1)).toBeUndefined();
        throw new Error('boom');
      })).rejects.toThrow('boom');
      expect(await s.users.get(1)).toEqual(userRecord(1, { role: 'author' }));
      expect((await s.tokens.list()).map((t) => t.id)).toEqual(['0000000000a1']);
      expect(await s.lastChange()).toBe(2);
    });

    it('keeps accounts across a reopen (durable adapters)', async () => {
      let s = await ctx.fresh();
      if (!s.capabilities.durable) return;
      const user = userRecord(3, { name: 'Grace' });
      const token = tokenRecord('0000000000b1', 3, { kind: 'application-password', expires: Date.UTC(2031, 1, 2) });
      await s.users.insert(user);
      await s.tokens.insert(token);
      s = await ctx.reopen(s);
      expect(await s.users.getByName('grace')).toEqual(user);
      expect(await s.tokens.list(3)).toEqual([token]);
    });

    it('sees a role change, a revocation and a removed user on the next check (no cache)', async () => {
      const s = await ctx.fresh();
      const accounts = createAccounts({ storage: s });
      await accounts.users.add({ name: 'editor-one', role: 'editor', id: 5 });
      const bearer = await accounts.tokens.create({ user: 5 });
      const password = await accounts.tokens.create({ user: 'Editor-One', kind: 'application-password' });
      expect(await accounts.verifyBearer(bearer.token)).toEqual({ id: 5, role: 'editor' });
      expect(await accounts.verifyApplicationPassword('editor-one', password.token)).toEqual({ ok: true, principal: { id: 5, role: 'editor' } });
      await accounts.users.setRole(5, 'subscriber');
      expect(await accounts.verifyBearer(bearer.token)).toEqual({ id: 5, role: 'subscriber' });
      await accounts.tokens.revoke(bearer.record.id);
      expect(await accounts.verifyBearer(bearer.token)).toBeUndefined();
      await accounts.users.remove('editor-one');
      expect(await accounts.verifyApplicationPassword('editor-one', password.token)).toEqual({ ok: false, reason: 'unknown_user' });
      expect(await s.tokens.list()).toEqual([]);
    });

    it('is ready when open', async () => {
      const s = await ctx.fresh();
      expect(await s.readiness()).toEqual({ ready: true });
    });
  });
}
