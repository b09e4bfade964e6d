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
