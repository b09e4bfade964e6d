// Dataset records built one at a time, for importers that store each record their own way:
// @evcal/migrate inserts or replaces what these build, in transactions it runs itself, and
// decides how ids are claimed. The validation and normalisation are importDataset's (the
// create routes' rules, without permission checks), so an imported and a migrated record
// are the same record.
import type { EventRecord, OrganizerRecord, Taxonomy, TermRecord, VenueRecord } from '../model/records';
import type { StorageTransaction } from '../storage/storage';
import { beginCall, withStorage } from '../kernel/call';
import type { CalendarConfig } from '../kernel/context';
import { buildEvent, buildLinkedPost, buildTerm, IMPORTER_CAPS, type ClaimId } from './record-import';

export type { ClaimId };

/**
 * Builds stored records from dataset records (the format of docs/datasets.md), reading what
 * they refer to through `tx`. Nothing is written: the caller stores the record. A bad record
 * throws a `CalendarError` (`invalid_dataset`) whose message starts `Invalid dataset at <path>:`.
 */
export interface RecordBuilder {
  term(tx: StorageTransaction, taxonomy: Taxonomy, raw: Record<string, unknown>, path: string, claim: ClaimId): Promise<TermRecord>;
  linkedPost(
    tx: StorageTransaction, kind: 'venue' | 'organizer', raw: Record<string, unknown>, path: string, claim: ClaimId,
  ): Promise<VenueRecord | OrganizerRecord>;
  /** An event; its terms, venues, organizers and parent must exist already. */
  event(tx: StorageTransaction, raw: Record<string, unknown>, path: string, claim: ClaimId): Promise<EventRecord>;
}

/** A builder for one run of an importer: one clock reading and the importer's trust (every capability). */
export function createRecordBuilder(calendar: { readonly config: CalendarConfig }): RecordBuilder {
  const call = beginCall(calendar.config, { principal: { id: 0, capabilities: IMPORTER_CAPS } });
  return {
    term: (tx, taxonomy, raw, path, claim) => buildTerm(withStorage(call, tx), taxonomy, raw, path, claim),
    linkedPost: (tx, kind, raw, path, claim) => buildLinkedPost(withStorage(call, tx), kind, raw, path, claim),
    event: (tx, raw, path, claim) => buildEvent(withStorage(call, tx), raw, path, claim),
  };
}
