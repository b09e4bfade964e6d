// What the collections' queries share: the empty slug as a literal, columns on an aliased table,
// and a list's paging (LIMIT and OFFSET, and whether a count is needed at all).
import { sql } from 'kysely';
import type { SqlDialect } from './dialect';

/** The empty slug as a literal in the SQL text (see events' getBySlug). */
export const NO_SLUG = sql<string>`''`;

/** The columns records are read from, on the aliased table of a list. */
export const aliased = <C extends string, A extends string>(alias: A, columns: readonly C[]) => columns.map((c) => `${alias}.${c}` as `${A}.${C}`);

/** A query without paging returns every match: its total is the number of rows, no count needed. */
export function unpaged(p: { limit?: number; offset?: number }): boolean {
  return p.limit === undefined && !p.offset;
}

/** LIMIT and OFFSET (SQLite needs a LIMIT for an OFFSET). */
export function paged<Q extends { limit(n: number): Q; offset(n: number): Q }>(query: Q, p: { limit?: number; offset?: number }, d: SqlDialect): Q {
  let q = query;
  if (p.limit !== undefined) q = q.limit(p.limit);
  else if (p.offset && d.name === 'sqlite') q = q.limit(-1);
  if (p.offset) q = q.offset(p.offset);
  return q;
}
