// What one call's validation resolved (images, term filters, records), kept for the rest of
// the call: its rendering reuses them instead of reading them again.
import type { ImageRecord, OrganizerRecord, Taxonomy, TermRecord, VenueRecord } from '../model/records';

/** The records a call's validation read, by kind and id, for its rendering to reuse. */
export type MemoRecords = { venue: VenueRecord; organizer: OrganizerRecord; category: TermRecord; tag: TermRecord };

/** What validation resolved, kept for the rest of one call (see `newArgMemo`). */
export interface ArgMemo {
  /** Images by their reference (`number:12`, `string:https://…`); undefined: it names none. */
  readonly images: Map<string, ImageRecord | undefined>;
  /** The term ids a list filter named, by taxonomy (categories with their descendants). */
  readonly termFilters: Map<Taxonomy, number[]>;
  readonly records: { readonly [K in keyof MemoRecords]: Map<number, MemoRecords[K]> };
}

export function newArgMemo(): ArgMemo {
  return {
    images: new Map(),
    termFilters: new Map(),
    records: { venue: new Map(), organizer: new Map(), category: new Map(), tag: new Map() },
  };
}

/**
 * Records read (or written) earlier in the same call: a write's validation reads the venues,
 * organizers and terms it names, and a list's category filter every category; rendering the
 * answer need not read them again. Only within one call: a write's storage is one transaction,
 * where nothing else can change them, and a read's were read after the change number that
 * keys its answer, as the rest of its reads are.
 */
export function remember<K extends keyof MemoRecords>(memo: ArgMemo, kind: K, records: readonly MemoRecords[K][]): void {
  const kept: Map<number, MemoRecords[K]> = memo.records[kind];
  for (const r of records) kept.set(r.id, r);
}
