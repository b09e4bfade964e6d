// Unpaged lists and reads by id of more rows than one statement may bind: SQLite refuses more
// than 32,766 variables and PostgreSQL more than 65,535 parameters. Found by the year-list
// benchmark: 44,000 scheduled events became due at once, and every request answered 500
// ("too many SQL variables") while the scheduler read them with their links.
import { sql } from 'kysely';
import { eventRecord, termRecord } from '@evcal/storage-test-suite';
import { describe, expect, it } from 'vitest';
import { openPostgres, openSqlite, POSTGRES_URL, type OpenedDatabase } from './databases';

const storages: Array<[string, () => Promise<OpenedDatabase>, number, boolean]> = [
  ['sqlite', () => openSqlite(), 33_000, true],
  ['postgres', () => openPostgres(), 66_000, Boolean(POSTGRES_URL)],
];

for (const [name, open, copies, available] of storages) {
  describe.skipIf(!available)(`${name}: more rows than one statement binds`, { timeout: 180_000 }, () => {
    it('lists them unpaged with their links, and reads them by id', async () => {
      const opened = await open();
      try {
        const { storage, db } = opened;
        await storage.transaction(async (tx) => {
          await tx.categories.insert(termRecord(7, { name: 'Music', slug: 'music' }));
          await tx.events.insert(eventRecord(1, { status: 'future', slug: 'scheduled', categoryIds: [7] }));
        });
        // Copies of event 1 and its links made by the database itself (ids 2…copies+1).
        const numbers = name === 'sqlite'
          ? sql`(with recursive s(i) as (select 1 union all select i + 1 from s where i < ${copies}) select i from s)`
          : sql`(select generate_series(1, ${copies}) as i)`;
        const qualified = (table: string) => sql.table(opened.schema ? `${opened.schema}.${table}` : table);
        const copy = async (table: string, idColumn: string) => {
          const columns = name === 'sqlite'
            ? (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows.map((r) => r.name)
            : (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = ${opened.schema} and table_name = ${table} order by ordinal_position`.execute(db)).rows.map((r) => r.name);
          const value = (c: string) => (c === idColumn ? sql`e.${sql.ref(c)} + n.i` : c === 'slug' ? sql`e.slug || '-' || n.i` : sql`e.${sql.ref(c)}`);
          await sql`insert into ${qualified(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
            select ${sql.join(columns.map(value))} from ${qualified(table)} e, ${numbers} n where e.${sql.ref(idColumn)} = 1`.execute(db);
        };
        // PostgreSQL runs the counting triggers row by row (minutes for 66,000 links); the lists
        // read here need no counts, so the copy goes in without them.
        const triggers = async (on: boolean) => {
          if (name !== 'postgres') return;
          for (const table of ['evcal_events', 'evcal_event_links']) await sql`alter table ${qualified(table)} ${sql.raw(on ? 'enable' : 'disable')} trigger user`.execute(db);
        };
        await triggers(false);
        await copy('evcal_events', 'id');
        await copy('evcal_event_links', 'event_id');
        await triggers(true);


        const page = await storage.events.list({ records: 'stored', statuses: ['future'], excludeHidden: false, sort: [{ field: 'id', direction: 'asc' }] });
        expect(page.items).toHaveLength(copies + 1);
        expect(page.items.at(-1)).toMatchObject({ id: copies + 1, slug: `scheduled-${copies}`, categoryIds: [7] });
        expect(page.items.every((e) => e.categoryIds.length === 1)).toBe(true);

        const ids = page.items.map((e) => e.id);
        const read = await storage.events.getMany(ids);
        expect(read.map((e) => e.id).sort((a, b) => a - b)).toEqual(ids);
        expect(await storage.categories.getMany(Array.from({ length: copies }, (_, i) => i + 7))).toHaveLength(1);
      } finally {
        await opened.storage.close();
      }
    });
  });
}
