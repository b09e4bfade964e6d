// Dataset import and export (the format of ../shared/conformance/README.md "Dataset"): the
// same validation and normalisation as the create routes, without permission checks, ids
// kept. Export writes every field needed to import the calendar again unchanged.
import * as v from 'valibot';
import { isCalendarError } from '../errors';
import { english } from '../messages';
import type { EventOverrides, OrganizerRecord, Taxonomy, VenueRecord } from '../model/records';
import { recurrenceArg } from '../operations/recurrence-args';
import { insertEvent } from '../operations/series-write';
import { applyException } from '../recurrence/occurrences';
import { MAX_ID, POST_STATUSES } from '../model/records';
import { toPositiveInt } from '../input/wire-schemas';
import type { Storage, StorageTransaction } from '../storage/storage';
import { beginCall, withStorage } from '../operations/call';
import type { CalendarConfig } from '../operations/context';
import { decodeDataset, encodeDataset, type EncodedDataset } from './codec';
import { buildEvent, buildLinkedPost, buildTerm, datasetError, IMPORTER_CAPS, type ClaimId } from './record-import';
import { readingOnce } from './import-reads';

/** A calendar as one JSON document. Every key is optional. */
export interface Dataset {
  categories?: Record<string, unknown>[];
  tags?: Record<string, unknown>[];
  venues?: Record<string, unknown>[];
  organizers?: Record<string, unknown>[];
  events?: Record<string, unknown>[];
}

export interface ImportSummary {
  readonly categories: number;
  readonly tags: number;
  readonly venues: number;
  readonly organizers: number;
  readonly events: number;
}

export interface ImportOptions {
  /** Called after each record, for progress displays. */
  readonly onProgress?: (done: number, total: number) => void;
}

const SECTIONS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
/** Sequences and format of a dataset evcal wrote (see codec.ts). */
const METADATA = 'evcal';

/**
 * Loads a dataset into `storage` in the order categories, tags, venues, organizers, events,
 * in one transaction. Throws `invalid_dataset` naming the first bad record.
 */
export async function importDataset(config: CalendarConfig, dataset: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  if (dataset === null || typeof dataset !== 'object' || Array.isArray(dataset)) throw datasetError('$', 'a dataset is a JSON object');
  const data = dataset as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    // A JSON file storage's accounts travel with the storage, not with the calendar: left alone.
    if (key === METADATA || key === 'accounts') continue;
    if (!(SECTIONS as readonly string[]).includes(key)) throw datasetError(key, `unknown section (expected ${SECTIONS.join(', ')})`);
    if (!Array.isArray(data[key])) throw datasetError(key, 'must be a list');
  }
  const sequences = decodeDataset({ [METADATA]: data[METADATA] }).sequences;
  const sections = Object.fromEntries(SECTIONS.map((k) => [k, (data[k] as Record<string, unknown>[] | undefined) ?? []])) as Required<Dataset>;
  const total = SECTIONS.reduce((n, k) => n + sections[k].length, 0);
  let done = 0;
  const tick = () => options.onProgress?.(++done, total);
  const call = beginCall(config, { principal: { id: 0, capabilities: IMPORTER_CAPS } });

  await config.storage.transaction(async (storage) => {
    const tx = readingOnce(storage);
    const c = withStorage(call, tx);
    const claimId = await idClaims(tx, sections);
    for (const taxonomy of ['category', 'tag'] as const) {
      const list = taxonomy === 'category' ? orderParentsFirst(sections.categories) : sections.tags;
      const section = taxonomy === 'category' ? 'categories' : 'tags';
      for (const [i, raw] of list.entries()) {
        const path = `${section}[${i}]`;
        const term = await buildTerm(c, taxonomy, raw, path, claimId('term', path));
        await (taxonomy === 'category' ? tx.categories : tx.tags).insert(term);
        tick();
      }
    }
    for (const kind of ['venue', 'organizer'] as const) {
      for (const [i, raw] of sections[`${kind}s`].entries()) {
        const path = `${kind}s[${i}]`;
        const record = await buildLinkedPost(c, kind, raw, path, claimId('post', path));
        await (kind === 'venue' ? tx.venues.insert(record as VenueRecord) : tx.organizers.insert(record as OrganizerRecord));
        tick();
      }
    }
    // Exceptions (occurrences with changes of their own, as exportDataset writes them) are
    // applied once their series is stored with its occurrences.
    const exceptions = sections.events.filter((raw) => raw !== null && typeof raw === 'object' && raw.occurrence !== undefined);
    for (const [i, raw] of sections.events.entries()) {
      if (exceptions.includes(raw)) continue;
      const path = `events[${i}]`;
      const record = await buildEvent(c, raw, path, claimId('post', path));
      if (raw.recurrence === undefined || raw.recurrence === null || raw.recurrence === '') {
        await tx.events.insert(record);
      } else {
        const idBase = (raw.recurrence as { id_base?: unknown }).id_base;
        const series = await insertEvent(c, record, { recurrence: v.parse(recurrenceArg.schema, raw.recurrence) }, typeof idBase === 'number' ? idBase : undefined)
          .catch((e: unknown) => {
            throw isCalendarError(e) ? datasetError(path, english(e.text)) : e;
          });
        for (const ex of exceptions.filter((x) => Number(x.post_parent) === series.id)) {
          const occurrence = ex.occurrence as { date?: unknown; overrides?: unknown };
          if (typeof occurrence.date !== 'string' || occurrence.overrides === null || typeof occurrence.overrides !== 'object') {
            throw datasetError(`events[${sections.events.indexOf(ex)}].occurrence`, 'an exception has a date and overrides');
          }
          await applyException(c, series, occurrence.date, occurrence.overrides as EventOverrides);
        }
      }
      tick();
    }
    await tx.sequences.bump('post', sequences.post);
    await tx.sequences.bump('term', sequences.term);
    // Records keep their revisions (their validators stay valid): later writes number above them.
    const revisions = SECTIONS.flatMap((k) => sections[k].map((r) => (Number.isInteger(r?.revision) ? (r.revision as number) : 0)));
    await tx.sequences.bump('change', revisions.reduce((m, r) => Math.max(m, r), sequences.change));
  });
  return {
    categories: sections.categories.length, tags: sections.tags.length, venues: sections.venues.length,
    organizers: sections.organizers.length, events: sections.events.length,
  };
}

/** The whole calendar as a dataset (every field, ids and sequences kept), records ordered by id. */
export async function exportDataset(storage: Storage): Promise<EncodedDataset> {
  const all = { sort: [{ field: 'id' as const, direction: 'asc' as const }] };
  const terms = (t: Taxonomy) => (t === 'category' ? storage.categories : storage.tags).list({ ...all, hideEmpty: false, countStatuses: [] });
  const [categories, tags, venues, organizers, events, post, term, change] = await Promise.all([
    terms('category'),
    terms('tag'),
    storage.venues.list({ ...all, statuses: POST_STATUSES }),
    storage.organizers.list({ ...all, statuses: POST_STATUSES }),
    storage.events.list({ ...all, records: 'stored', statuses: POST_STATUSES, excludeHidden: false }).then(async (stored) => {
      // The exceptions of series: occurrences changed on their own (the others are made again on import).
      const series = stored.items.filter((e) => e.recurrence);
      const exceptions = (await Promise.all(series.map(async (s) => (await storage.events.list({
        ...all, records: 'listed', statuses: POST_STATUSES, excludeHidden: false, parentId: s.id,
      })).items.filter((o) => o.occurrence?.overrides)))).flat();
      return { items: [...stored.items, ...exceptions] };
    }),
    storage.sequences.peek('post'),
    storage.sequences.peek('term'),
    storage.lastChange(),
  ]);
  return encodeDataset({
    categories: categories.items.map((t) => t.term),
    tags: tags.items.map((t) => t.term),
    venues: venues.items,
    organizers: organizers.items,
    events: events.items,
    sequences: { post, term, change },
  });
}

// ---- import ----

/**
 * How the records of a dataset claim their ids, read and reserved before the first is written:
 * which of the ids the dataset gives are stored already (one read per collection, not three per
 * record), and the sequences moved past the largest (once, not once per record: PostgreSQL keeps
 * every version of a row a transaction updates until it commits, so updating one row per record
 * made each update slower than the one before). A record then gets the id it gives, unless
 * that id is stored or was claimed before in the dataset, or the next id of its sequence.
 */
async function idClaims(tx: StorageTransaction, sections: Required<Dataset>): Promise<(kind: 'post' | 'term', path: string) => ClaimId> {
  // Read as validation reads them ("12" is 12); an id it refuses fails the import anyway.
  const given = (records: readonly Record<string, unknown>[]) => records.flatMap((r) => {
    const id = toPositiveInt(r?.id);
    return id !== undefined && id <= MAX_ID ? [id] : [];
  });
  const ids = {
    // Exceptions are occurrences of a series, which gives them their ids.
    post: given([...sections.venues, ...sections.organizers, ...sections.events.filter((r) => r?.occurrence === undefined)]),
    term: given([...sections.categories, ...sections.tags]),
  };
  const idsOf = (...found: ReadonlyArray<readonly { readonly id: number }[]>) => new Set(found.flat().map((r) => r.id));
  const stored = {
    post: idsOf(await tx.events.getMany(ids.post), await tx.venues.getMany(ids.post), await tx.organizers.getMany(ids.post)),
    term: idsOf(await tx.categories.getMany(ids.term), await tx.tags.getMany(ids.term)),
  };
  for (const kind of ['post', 'term'] as const) {
    if (ids[kind].length > 0) await tx.sequences.bump(kind, ids[kind].reduce((m, id) => Math.max(m, id), 0));
  }
  const claimed = { post: new Set<number>(), term: new Set<number>() };
  return (kind, path) => async (id) => {
    if (id === undefined) return tx.sequences.next(kind);
    if (claimed[kind].has(id) || stored[kind].has(id)) throw datasetError(`${path}.id`, `id ${id} is used twice`);
    claimed[kind].add(id);
    return id;
  };
}

/** Categories with parents before children (cycles and unknown parents are caught on insert). */
export function orderParentsFirst(list: Record<string, unknown>[]): Record<string, unknown>[] {
  const byId = new Map(list.map((c) => [Number(c.id), c]));
  const out: Record<string, unknown>[] = [];
  const placed = new Set<Record<string, unknown>>();
  const visiting = new Set<Record<string, unknown>>();
  const place = (c: Record<string, unknown>) => {
    if (placed.has(c) || visiting.has(c)) return;
    visiting.add(c);
    const parent = byId.get(Number(c.parent));
    if (parent) place(parent);
    placed.add(c);
    out.push(c);
  };
  list.forEach(place);
  return out;
}
