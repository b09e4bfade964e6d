// events.countByTerm calls made in one turn (an event's categories and tags, counted side by
// side to render it) are read in one statement (term-counts.ts): on PostgreSQL each statement
// is a round trip, and every write that answers with its event renders one.
import { afterEach, describe, expect, it } from 'vitest';
import { eventRecord, termRecord } from '@evcal/storage-test-suite';
import { openPostgres, openSqlite, POSTGRES_URL, type OpenedDatabase } from './databases';

const opened: OpenedDatabase[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.storage.close();
});

const counting = (q: string) => /from ("\w+"\.)?"evcal_term_counts"/.test(q);

describe.each([
  ['sqlite', () => openSqlite()],
  ...(POSTGRES_URL ? [['postgres', () => openPostgres()] as const] : []),
] as const)('%s: term counts', (_name, open) => {
  it('reads the counts asked for together in one statement, each taxonomy its own', async () => {
    const o = await open();
    opened.push(o);
    const { storage } = o;
    for (const id of [1, 2]) await storage.categories.insert(termRecord(id));
    for (const id of [3, 4]) await storage.tags.insert(termRecord(id));
    await storage.events.insert(eventRecord(1, { categoryIds: [1], tagIds: [3, 4] }));
    await storage.events.insert(eventRecord(2, { categoryIds: [1, 2], tagIds: [3] }));
    await storage.events.insert(eventRecord(3, { categoryIds: [2], tagIds: [4], status: 'draft' }));
    o.queries.length = 0;
    const [categories, tags, drafts] = await Promise.all([
      storage.events.countByTerm('category', [1, 2, 9], ['publish']),
      storage.events.countByTerm('tag', [3, 4], ['publish']),
      // Other statuses: a statement of their own.
      storage.events.countByTerm('tag', [3, 4], ['draft']),
    ]);
    expect([...categories]).toEqual([[1, 2], [2, 1], [9, 0]]);
    expect([...tags]).toEqual([[3, 2], [4, 1]]);
    expect([...drafts]).toEqual([[3, 0], [4, 1]]);
    expect(o.queries.filter(counting)).toHaveLength(2);
  });
});
