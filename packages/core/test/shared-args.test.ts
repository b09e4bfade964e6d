// Arguments a binding shares between the requests to one address (`sharedArgs`): frozen to
// the last level, so that the list cache may serialise them once; lists planned from them are
// the lists planned from equal unshared arguments, and no operation writes into them.
import { describe, expect, it } from 'vitest';
import { sharedArgs } from '@evcal/core/binding';
import { admin, as, makeCalendar } from './helpers';

describe('sharedArgs', () => {
  it('freezes every level and returns the same object', () => {
    const args = { categories: ['jazz', 'folk'], per_page: '5', nested: { a: [1] } };
    const shared = sharedArgs(args);
    expect(shared).toBe(args);
    expect(Object.isFrozen(args)).toBe(true);
    expect(Object.isFrozen(args.categories)).toBe(true);
    expect(Object.isFrozen(args.nested.a)).toBe(true);
    expect(() => (args.categories as string[]).push('x')).toThrow(TypeError);
  });

  it('gives the lists equal unshared arguments give, across writes', async () => {
    const calendar = makeCalendar();
    const jazz = (await calendar.categories.create({ name: 'Jazz' }, as(admin))).value;
    const create = async (title: string, categories: number[]) => (await calendar.events.create(
      { title, status: 'publish', start_date: '2026-12-01 20:00:00', end_date: '2026-12-01 22:00:00', categories }, as(admin))).value;
    await create('First', [jazz.id]);
    await create('Other', []);
    const shared = sharedArgs({ categories: String(jazz.id), per_page: '5' });
    const titles = async (args: Record<string, unknown>) => (await calendar.events.list(args, as(admin))).body.events.map((e) => e.title);
    expect(await titles(shared)).toEqual(['First']);
    expect(await titles(shared)).toEqual(await titles({ categories: String(jazz.id), per_page: '5' }));
    // A write after the first plan: the same shared object, planned again under the new change number.
    await create('Second', [jazz.id]);
    expect(await titles(shared)).toEqual(['First', 'Second']);
    expect(await titles(shared)).toEqual(await titles({ categories: String(jazz.id), per_page: '5' }));
  });
});
