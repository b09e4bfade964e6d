// What a migration did, per kind of record, what it could not carry and why, and the
// verification pass: the source's own totals against what the lists gave and what the target
// holds afterwards.
import type { Storage } from '@evcal/core';
import type { IdMapper, SourceKind } from './wire-records';

export type MigrationKind = 'categories' | 'tags' | 'venues' | 'organizers' | 'events';

export const KIND_OF = { category: 'categories', tag: 'tags', venue: 'venues', organizer: 'organizers', event: 'events' } as const satisfies Record<SourceKind, MigrationKind>;

export interface KindCounts {
  /** What the source says its list holds (X-TEC-Total), when it says. */
  sourceTotal: number | undefined;
  /** Records read: those listed, and those found elsewhere (`found`). */
  read: number;
  /** Records no list showed: linked from an event, or hidden from listings. */
  found: number;
  created: number;
  updated: number;
  /** Already in the target as the source has them (same `modified`). */
  unchanged: number;
  /** Not carried, by rule (e.g. password-protected without credentials); listed in `skipped`. */
  skipped: number;
  /** Refused by validation or storage; listed in `failed`. */
  failed: number;
  /** After the run, how many of the records read are in the target. */
  inTarget: number | undefined;
}

export interface RecordIssue {
  readonly kind: MigrationKind;
  /** The record's id at the source. */
  readonly sourceId: number;
  /** Its title or name. */
  readonly name: string;
  readonly reason: string;
}

export interface MigrationReport {
  /** The source's API root. */
  readonly from: string;
  readonly dryRun: boolean;
  readonly newIds: boolean;
  readonly kinds: Record<MigrationKind, KindCounts>;
  readonly skipped: RecordIssue[];
  readonly failed: RecordIssue[];
  /** Records written with something left out or changed, and why. */
  readonly notes: RecordIssue[];
  /** Undefined for a dry run, which leaves nothing to verify. */
  verification: { ok: boolean; problems: string[] } | undefined;
}

export function emptyReport(from: string, options: { dryRun?: boolean; newIds?: boolean }): MigrationReport {
  const counts = (): KindCounts => ({
    sourceTotal: undefined, read: 0, found: 0, created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0, inTarget: undefined,
  });
  return {
    from,
    dryRun: options.dryRun === true,
    newIds: options.newIds === true,
    kinds: { categories: counts(), tags: counts(), venues: counts(), organizers: counts(), events: counts() },
    skipped: [],
    failed: [],
    notes: [],
    verification: undefined,
  };
}

/**
 * Compares, per kind, the source's total with what its lists gave, and the records written or
 * matched with what the target holds now (read back from storage, not from this run's memory).
 */
export async function verify(
  report: MigrationReport, storage: Storage, migrated: ReadonlyMap<MigrationKind, readonly number[]>, ids: IdMapper,
): Promise<void> {
  const problems: string[] = [];
  for (const kind of Object.keys(report.kinds) as MigrationKind[]) {
    const counts = report.kinds[kind];
    const listed = counts.read - counts.found;
    if (counts.sourceTotal !== undefined && listed !== counts.sourceTotal) {
      problems.push(`${kind}: the source reports ${counts.sourceTotal} but its lists gave ${listed} (did it change during the run?)`);
    }
    const terms = kind === 'categories' || kind === 'tags';
    const targetIds = (migrated.get(kind) ?? []).map((id) => (terms ? ids.term(id) : ids.post(id))).filter((id): id is number => id !== undefined);
    const present = targetIds.length === 0 ? 0 : (await storage[kind].getMany(targetIds)).length;
    counts.inTarget = present;
    const expected = counts.created + counts.updated + counts.unchanged;
    if (present !== expected) problems.push(`${kind}: ${expected} migrated, but the target holds ${present} of them`);
  }
  report.verification = { ok: problems.length === 0, problems };
}
