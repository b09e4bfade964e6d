// What differs between the SQL dialects evcal supports, in one place.
import { MAX_ID } from '@evcal/core/adapter';
import { sql, type Expression, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export interface SqlDialect {
  readonly name: DialectName;
  /** `haystack` contains `needle` as a literal substring (no LIKE wildcards, no escaping). */
  contains(haystack: Expression<string>, needle: string): RawBuilder<boolean>;
  /**
   * Events (`e`) whose search_text contains every one of `words` (each of three characters or
   * more), found through the trigram index of migration 0006 (SQLite: and the events not yet
   * merged into it, migration 0012).
   */
  searchIndexed(words: readonly string[]): RawBuilder<boolean>;
  /** A text column in byte (code point) order, whatever the database collation. */
  binary(column: Expression<string>): RawBuilder<string>;
  /** The smaller of two numbers. */
  least(a: RawBuilder<number>, b: number): RawBuilder<number>;
  /** The larger of two numbers. */
  greatest(a: Expression<unknown>, b: number): RawBuilder<number>;
  /**
   * The "YYYY-MM-DD HH:MM:SS" UTC wall clock of an instant (ms, truncated to the second), or ''
   * (below every text) when the instant is NULL or outside 1970…9999: a lower bound in any case.
   */
  wallFloor(ms: Expression<number>): RawBuilder<string>;
}

/** 10000-01-01T00:00:00Z: wall clocks have four-digit years. */
const YEAR_10000 = 253_402_300_800_000;

export function sqlDialect(name: DialectName): SqlDialect {
  if (name === 'postgres') {
    return {
      name,
      contains: (h, n) => sql<boolean>`strpos(${h}, ${n}) > 0`,
      // LIKE is what pg_trgm's GIN index answers; the words are literal (\ escapes).
      searchIndexed: (words) => sql<boolean>`(${sql.join(words.map((w) => sql`e.search_text like ${`%${w.replace(/[\\%_]/g, '\\$&')}%`}`), sql` and `)})`,
      binary: (c) => sql<string>`${c} collate "C"`,
      least: (a, b) => sql<number>`least(${a}, ${b})`,
      greatest: (a, b) => sql<number>`greatest(${a}, ${b})`,
      wallFloor: (ms) => sql<string>`(case when ${ms} >= 0 and ${ms} < ${sql.lit(YEAR_10000)}
        then to_char(timestamp '1970-01-01 00:00:00' + (${ms}) / 1000 * interval '1 second', 'YYYY-MM-DD HH24:MI:SS') else '' end)`,
    };
  }
  return {
    name,
    contains: (h, n) => sql<boolean>`instr(${h}, ${n}) > 0`,
    // Each word a phrase of its trigrams, which the FTS5 table (detail=full, migration 0010)
    // matches from positions alone: exactly the events whose text contains the word. Inside
    // double quotes a query string is literal but for a doubled quote. Events written since
    // the index was last merged (pending, migration 0012) are read directly instead: the index
    // holds nothing or an older text for them (CROSS JOIN: SQLite then reads the few pending
    // rows first, never every event).
    searchIndexed: (words) => sql<boolean>`e.id in (select rowid from evcal_events_search where evcal_events_search match ${
      words.map((w) => `"${w.replaceAll('"', '""')}"`).join(' AND ')} and rowid not in (select event_id from evcal_search_pending)
      union all select sp.event_id from evcal_search_pending sp cross join evcal_events se on se.id = sp.event_id
      where ${sql.join(words.map((w) => sql`instr(se.search_text, ${w}) > 0`), sql` and `)})`,
    binary: (c) => sql<string>`${c} collate binary`,
    least: (a, b) => sql<number>`min(${a}, ${b})`,
    greatest: (a, b) => sql<number>`max(${a}, ${b})`,
    wallFloor: (ms) => sql<string>`(case when ${ms} >= 0 and ${ms} < ${sql.lit(YEAR_10000)}
      then strftime('%Y-%m-%d %H:%M:%S', (${ms}) / 1000, 'unixepoch') else '' end)`,
  };
}

/** Ids stored are 32-bit (core's MAX_ID); larger values name nothing and must not reach an integer comparison. */
export function storableIds(ids: readonly number[]): number[] {
  return ids.filter((id) => Number.isInteger(id) && id > 0 && id <= MAX_ID);
}

/** Event ids: posts' (32-bit) and occurrences' (bigint, below 2^53; migration 0009). */
export function storableEventIds(ids: readonly number[]): number[] {
  return ids.filter((id) => Number.isSafeInteger(id) && id > 0);
}
