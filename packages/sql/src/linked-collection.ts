// Venues and organizers (the posts events link to): reads by id and slug, locked inside a
// PostgreSQL write transaction (row-locks.ts), writes, and the list (one query plus one count).
import type { LinkedPostCollection, LinkedPostQuery, OrganizerRecord, VenueRecord } from '@evcal/core/adapter';
import { storageError } from '@evcal/core/adapter';
import { sql, type Kysely } from 'kysely';
import { linkedPostWhere } from './compile';
import { storableIds, type SqlDialect } from './dialect';
import { ORGANIZER_COLUMNS, organizerRecord, organizerRow, VENUE_COLUMNS, venueRecord, venueRow, type OrganizerRow, type VenueRow } from './rows';
import type { EvcalDatabase, VenuesTable } from './schema';
import type { Db, Write } from './db';
import { guard } from './sql-errors';
import type { CompiledStatements } from './compiled-statements';
import { inChunks } from './chunks';
import { aliased, NO_SLUG, paged, unpaged } from './collection-queries';
import { checked, locked, setStatus, type LockMode, type RowLocks } from './row-locks';

export function linkedCollection<R extends VenueRecord | OrganizerRecord>(
  kind: 'venue' | 'organizer', db: Db, d: SqlDialect, write: Write, statements: CompiledStatements, locks?: RowLocks,
): LinkedPostCollection<R> {
  const own: LockMode = locks && 'own';
  const shared: LockMode = locks && 'shared';
  const table = kind === 'venue' ? 'evcal_venues' : 'evcal_organizers';
  const toRecord = (row: VenueRow | OrganizerRow) => (kind === 'venue' ? venueRecord(row as VenueRow) : organizerRecord(row as OrganizerRow)) as R;
  const columns = kind === 'venue' ? VENUE_COLUMNS : ORGANIZER_COLUMNS;
  const toRow = (r: R) => (kind === 'venue' ? venueRow(r as VenueRecord) : organizerRow(r as OrganizerRecord));
  const select = () => (db as Kysely<EvcalDatabase>).selectFrom(table as 'evcal_venues').select(columns as typeof VENUE_COLUMNS);
  return {
    get: (id) => guard(async () => {
      const [valid] = storableIds([id]);
      if (valid === undefined) return undefined;
      const [row] = await checked(await locked(select().where('id', '=', valid), own).execute(), locks, own);
      return row && toRecord(row);
    }),
    getMany: (ids) => guard(async () => {
      const valid = storableIds(ids);
      return valid.length
        ? (await checked(await inChunks(valid, async (chunk) => (await statements.run(db, `${kind}.get:${chunk.length}${shared ?? ''}`, chunk,
          () => locked(select().where('id', 'in', chunk), shared))).rows), locks, shared)).map(toRecord)
        : [];
    }),
    getBySlug: (slug) => guard(async () => {
      if (slug === '') return undefined;
      const [row] = await checked(await locked(select().where('slug', '=', slug).where('slug', '<>', NO_SLUG).orderBy('id').limit(1), own).execute(), locks, own);
      return row && toRecord(row);
    }),
    insert: (record) => write(async (tx) => {
      await tx.insertInto(table as 'evcal_venues').values(toRow(record) as VenuesTable).execute();
    }),
    replace: (record) => write(async (tx) => {
      const result = await tx.updateTable(table as 'evcal_venues').set(toRow(record) as VenuesTable).where('id', '=', record.id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw storageError('conflict', new Error(`evcal/sql: no ${kind} ${record.id}`));
    }),
    delete: (id) => write(async (tx) => {
      await tx.deleteFrom(table).where('id', '=', id).execute();
    }),
    setStatus: (ids, from, to, revision) => write((tx) => setStatus(tx, table, ids, from, to, revision, locks)),
    list: (query: LinkedPostQuery) => guard(async () => {
      const from = () => (db as Kysely<EvcalDatabase>).selectFrom(`${table} as p` as 'evcal_venues as p').where(linkedPostWhere(kind, query, d) as never);
      let page = from().select(aliased('p', columns as typeof VENUE_COLUMNS));
      for (const key of query.sort) page = page.orderBy(key.field === 'id' ? 'p.id' : d.binary(sql.ref('p.date')), key.direction);
      const [rows, count] = await Promise.all([
        paged(page, query, d).execute(),
        unpaged(query) ? undefined : from().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toRecord), total: count ? Number(count.n) : rows.length };
    }),
  };
}
