// The events of the storage: reads by id and slug with their links (one query for the rows, one
// for all their links), the list (one query for the page plus one count), and writes. Inside a
// PostgreSQL write transaction its reads lock what they return (row-locks.ts).
import type { EventCollection, EventQuery, EventRecord, PostStatus, Taxonomy } from '@evcal/core/adapter';
import { storageError } from '@evcal/core/adapter';
import { sql } from 'kysely';
import { effectiveSort, eventOrder, eventsOf, eventWhere, linkWalk } from './compile';
import { storableEventIds, storableIds, type SqlDialect } from './dialect';
import { EVENT_COLUMNS, eventRecord, eventRow, groupLinks, linkRows, type EventRow } from './rows';
import type { CountsRead, Db, Write } from './db';
import { countEvents } from './list-counts';
import { guard } from './sql-errors';
import type { CompiledStatements } from './compiled-statements';
import { inChunks, WRITE_CHUNK } from './chunks';
import { aliased, NO_SLUG, paged, unpaged } from './collection-queries';
import { checked, locked, lockToChange, setStatus, type LockMode, type RowLocks } from './row-locks';
import { FOLD_AFTER } from './transaction-state';
import { termCounts } from './term-counts';

export function eventCollection(db: Db, d: SqlDialect, write: Write, statements: CompiledStatements, countsRead: CountsRead, locks?: RowLocks): EventCollection {
  const own: LockMode = locks && 'own';
  const countByTerm = termCounts(db, statements);
  const shared: LockMode = locks && 'shared';
  /** Events with their links: one query for the rows, one for all their links. */
  const withLinks = async (rows: readonly EventRow[]): Promise<EventRecord[]> => {
    if (rows.length === 0) return [];
    const links = groupLinks(await inChunks(rows.map((r) => r.id), async (ids) => (await statements.run(db, `links.of:${ids.length}`, ids, () => db
      .selectFrom('evcal_event_links').select(['event_id', 'kind', 'ref_id', 'position']).where('event_id', 'in', ids))).rows));
    return rows.map((r) => eventRecord(r, links.get(Number(r.id))));
  };
  const writeLinks = async (tx: Db, event: EventRecord) => {
    // In key order: concurrent writers then lock the term counts the triggers update in the same order.
    const rows = linkRows(event).sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.ref_id - b.ref_id));
    if (rows.length) await statements.run(tx, `links.insert:${rows.length}`, rows.flatMap(Object.values), () => tx.insertInto('evcal_event_links').values(rows));
  };
  return {
    get: (id) => guard(async () => (await withLinks(await checked(await selectEvents(db, [id], statements, own), locks, own)))[0]),
    getMany: (ids) => guard(async () => withLinks(await checked(await selectEvents(db, ids, statements, shared), locks, shared))),
    getBySlug: (slug) => guard(async () => {
      if (slug === '') return undefined;
      // slug <> '' (implied): the slug index leaves empty slugs out. The '' is a literal (as in
      // every getBySlug): a partial index chosen for a bound value makes SQLite prepare the
      // statement again each time that parameter is bound (20 µs a lookup).
      if (d.name === 'sqlite') {
        // On SQLite the id first, from the slug index alone: a create asks for a slug nobody
        // has, and better-sqlite3 spends about 0.5 µs a selected column even when no row comes
        // back (26 against 7 µs). On PostgreSQL a second statement is a second round trip.
        const { rows } = await statements.run(db, 'events.idBySlug', [slug, 1], () => db.selectFrom('evcal_events').select('id')
          .where('slug', '=', slug).where('slug', '<>', NO_SLUG).orderBy('id').limit(1));
        return rows.length ? (await withLinks(await selectEvents(db, [Number(rows[0]!.id)], statements)))[0] : undefined;
      }
      const { rows } = await statements.run(db, `events.bySlug${own ?? ''}`, [slug, 1], () => locked(db.selectFrom('evcal_events').select(EVENT_COLUMNS)
        .where('slug', '=', slug).where('slug', '<>', NO_SLUG).orderBy('id').limit(1), own));
      return (await withLinks(await checked(rows, locks, own)))[0];
    }),
    insert: (event) => write(async (tx) => {
      const row = eventRow(event);
      await statements.run(tx, 'events.insert', Object.values(row), () => tx.insertInto('evcal_events').values(row));
      await writeLinks(tx, event);
    }, 'inserted'),
    replace: (event) => write(async (tx) => {
      const row = eventRow(event);
      const result = await statements.run(tx, 'events.replace', [...Object.values(row), event.id], () => tx.updateTable('evcal_events').set(row).where('id', '=', event.id));
      if (Number(result.numAffectedRows) === 0) throw storageError('conflict', new Error(`evcal/sql: no event ${event.id}`));
      await tx.deleteFrom('evcal_event_links').where('event_id', '=', event.id).execute();
      await writeLinks(tx, event);
    }, 'changed'),
    delete: (id) => write(async (tx) => {
      await tx.deleteFrom('evcal_event_links').where('event_id', '=', id).execute();
      await tx.deleteFrom('evcal_events').where('id', '=', id).execute();
    }, 'changed'),
    list: (query) => guard(async () => {
      const summing = countsRead();
      if (summing) await summing;
      if (query.search && !unpaged(query)) {
        // A search's matches are found once, for the page and its total together (a window
        // count): the index is read once. A page past the end has no row to carry the total.
        // Only the page's ids are sorted with the matches, then its rows are read.
        const page = await pageOfEvents(db, d, query, true);
        if (page.length > 0 || !query.offset) {
          const rows = new Map((await selectEvents(db, page.map((r) => Number(r.id)), statements)).map((r) => [Number(r.id), r]));
          return { items: await withLinks(page.map((r) => rows.get(Number(r.id))!)), total: page.length ? Number(page[0]!.matches) : 0 };
        }
        return { items: [], total: await countEvents(db, d, query) };
      }
      const [rows, total] = await Promise.all([pageOfEvents(db, d, query), unpaged(query) ? undefined : countEvents(db, d, query)]);
      return { items: await withLinks(rows), total: total ?? rows.length };
    }),
    // However many events it changes, the same counts each time (one venue's or term's): folded (FOLD_AFTER).
    unlink: (kind, id, revision) => write(async (tx) => {
      if (locks) {
        // PostgreSQL: the record taken off, locked against the writers that refer to it (they
        // hold it FOR KEY SHARE): those in flight commit first, and their links are read below.
        const table = kind === 'venue' ? 'evcal_venues' : kind === 'organizer' ? 'evcal_organizers' : 'evcal_terms';
        await tx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
      }
      const linked = await tx.selectFrom('evcal_event_links').select('event_id').distinct().where('kind', '=', kind).where('ref_id', '=', id).execute();
      const ids = linked.map((r) => Number(r.event_id)).sort((a, b) => a - b);
      if (ids.length === 0) return ids;
      // WRITE_CHUNK events a statement: SQLite keeps the pages each changes until it ends.
      await inChunks(ids, async (chunk) => {
        await lockToChange(tx, 'evcal_events', chunk, locks);
        await tx.updateTable('evcal_events').set({ revision }).where('id', 'in', chunk).execute();
        await tx.deleteFrom('evcal_event_links').where('kind', '=', kind).where('ref_id', '=', id).where('event_id', 'in', chunk).execute();
        return [];
      }, WRITE_CHUNK);
      return ids;
    }, undefined, FOLD_AFTER),
    setStatus: (ids, from, to, revision) => write((tx) => setStatus(tx, 'evcal_events', ids, from, to, revision, locks), 'changed', ids.length),
    countByTerm: (taxonomy: Taxonomy, ids: readonly number[], statuses: readonly PostStatus[]) => guard(async () => {
      await countsRead();
      const valid = storableIds(ids);
      const counts = new Map<number, number>(ids.map((id) => [id, 0]));
      for (const [id, n] of await countByTerm(taxonomy, valid, statuses)) counts.set(id, n);
      return counts;
    }),
  };
}

function selectEvents(db: Db, ids: readonly number[], statements: CompiledStatements, lock?: LockMode): Promise<EventRow[]> {
  const valid = storableEventIds(ids);
  if (valid.length === 0) return Promise.resolve([]);
  return inChunks(valid, async (chunk) => (await statements.run(db, `events.get:${chunk.length}${lock ?? ''}`, chunk, () => locked(db
    .selectFrom('evcal_events').select(EVENT_COLUMNS).where('id', 'in', chunk), lock))).rows);
}

const PAGE_EVENT_COLUMNS = aliased('e', EVENT_COLUMNS);

function pageOfEvents(db: Db, d: SqlDialect, q: EventQuery): Promise<EventRow[]>;
function pageOfEvents(db: Db, d: SqlDialect, q: EventQuery, counted: true): Promise<{ id: number | string; matches: number | string }[]>;
/** A page of events; `counted`: the page's ids only, each with how many events match in all (`matches`). */
function pageOfEvents(db: Db, d: SqlDialect, q: EventQuery, counted = false): Promise<unknown[]> {
  const walk = counted ? undefined : linkWalk(q);
  if (walk) {
    // In the links' order: (start_local, event_id) is the list's (start_local, id).
    const query = db.selectFrom('evcal_event_links as ol').innerJoin('evcal_events as e', 'e.id', 'ol.event_id')
      .select(PAGE_EVENT_COLUMNS)
      .where('ol.kind', '=', walk.kind).where('ol.ref_id', '=', walk.id)
      .where(eventWhere(q, d, true, walk) as never)
      .orderBy((eb) => d.binary(eb.ref('ol.start_local')))
      .orderBy('ol.event_id');
    return paged(query, q, d).execute();
  }
  let query = eventsOf(db, q, d).where(eventWhere(q, d, true));
  for (const key of effectiveSort(q)) query = query.orderBy((eb) => eventOrder(eb, key, d, q.geo), key.direction);
  if (counted) return paged(query.select(['e.id', sql<number>`count(*) over ()`.as('matches')]), q, d).execute();
  return paged(query.select(PAGE_EVENT_COLUMNS), q, d).execute();
}
