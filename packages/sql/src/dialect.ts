// What differs between the SQL dialects evcal supports, in one place.
import { MAX_ID } from '@evcal/core';
import { sql, type Expression, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export interface SqlDialect {
  readonly name: DialectName;
  /** `haystack` contains `needle` as a literal substring (no LIKE wildcards, no escaping). */
  contains(haystack: Expression<string>, needle: string): RawBuilder<boolean>;
  /** A text column in byte (code point) order, whatever the database collation. */
  binary(column: Expression<string>): RawBuilder<string>;
  /** The smaller of two numbers. */
  least(a: RawBuilder<number>, b: number): RawBuilder<number>;
  /** The larger of two numbers. */
  greatest(a: Expression<unknown>, b: number): RawBuilder<number>;
}

export function sqlDialect(name: DialectName): SqlDialect {
  if (name === 'postgres') {
    return {
      name,
      contains: (h, n) => sql<boolean>`strpos(${h}, ${n}) > 0`,
      binary: (c) => sql<string>`${c} collate "C"`,
      least: (a, b) => sql<number>`least(${a}, ${b})`,
      greatest: (a, b) => sql<number>`greatest(${a}, ${b})`,
    };
  }
  return {
    name,
    contains: (h, n) => sql<boolean>`instr(${h}, ${n}) > 0`,
    binary: (c) => sql<string>`${c} collate binary`,
    least: (a, b) => sql<number>`min(${a}, ${b})`,
    greatest: (a, b) => sql<number>`max(${a}, ${b})`,
  };
}

/** Ids stored are 32-bit (core's MAX_ID); larger values name nothing and must not reach an integer comparison. */
export function storableIds(ids: readonly number[]): number[] {
  return ids.filter((id) => Number.isInteger(id) && id > 0 && id <= MAX_ID);
}
