// Dataset import and export (the format of ../shared/conformance/README.md "Dataset"): the
// same validation and normalisation as the create routes, without permission checks, ids
// kept. Export writes every field needed to import the calendar again unchanged.
import * as v from 'valibot';
import { isCalendarError } from '../domain/errors';
import { english } from '../domain/messages';
import type { EventOverrides, OrganizerRecord, Taxonomy, VenueRecord } from '../model/records';
import { recurrenceArg } from '../events/recurrence-args';
import { insertEvent } from '../events/series-write';
import { applyException } from '../events/series-occurrences';
import { MAX_ID, POST_STATUSES } from '../model/records';
import { toPositiveInt } from '../kernel/wire-schemas';
import type { Storage, StorageTransaction } from '../storage/storage';
import { beginCall, withStorage, type WriteCall } from '../kernel/call';
import { retryingConflicts } from '../kernel/write';
import type { CalendarConfig } from '../kernel/context';
import { decodeDataset, encodeDataset, type EncodedDataset } from './codec';
import { buildEvent, buildLinkedPost, buildTerm, datasetError, IMPORTER_CAPS, type ClaimId } from './record-import';
import { readingOnce } from './import-reads';
import { chunkedImport, type ImportChunks } from './import-chunks';

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
  /**
   * Commit in chunks rather than in one transaction (import-chunks.ts): other writers never
   * wait long behind the import, and an import stopped part-way resumes where it stopped when
   * run again with the same dataset. A record that fails validation then leaves the chunks
   * before it committed. `{}` takes the defaults (500 records or 200 ms a chunk).
   * @default one transaction
   */
  readonly chunks?: ImportChunks;
}

const SECTIONS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
/** Sequences and format of a dataset evcal wrote (see codec.ts). */
const METADATA = 'evcal';

/** One thing an import writes: a record, or a series with its exceptions. */
interface ImportUnit {
  readonly section: 'categories' | 'tags' | 'venues' | 'organizers' | 'events';
  readonly index: number;
  readonly raw: Record<string, unknown>;
  /** A series' exceptions (occurrences with changes of their own, as exportDataset writes them), with their index in `events`. */
  readonly exceptions: readonly { readonly raw: Record<string, unknown>; readonly index: number }[];
}

/**
 * Loads a dataset into `storage` in the order categories, tags, venues, organizers, events,
 * in one transaction or in chunks (`chunks`). Throws `invalid_dataset` naming the first bad record.
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
  const units = importUnits(sections);
  const total = SECTIONS.reduce((n, k) => n + sections[k].length, 0);
  const call = beginCall(config, { principal: { id: 0, capabilities: IMPORTER_CAPS } });
  const chunks = options.chunks && await chunkedImport(config.storage, units.map((u) => JSON.stringify([u.raw, u.exceptions.map((x) => x.raw)])), options.chunks, config.now);
  const claims = idClaims(units, chunks?.resumeAt ?? 0);
  const records = (unit: ImportUnit) => 1 + unit.exceptions.length;
  let at = chunks?.resumeAt ?? 0;
  let done = units.slice(0, at).reduce((n, u) => n + records(u), 0);
  if (at > 0) options.onProgress?.(done, total);
  do {
    const from = at;
    const doneBefore = done;
    // A chunk that lost a race with another writer is run again whole (nothing of it committed).
    at = await retryingConflicts(() => config.storage.transaction(async (storage) => {
      const tx = readingOnce(storage);
      const c = withStorage(call, tx);
      const claimId = await claims.begin(tx);
      const started = Date.now();
      done = doneBefore;
      let next = from;
      while (next < units.length) {
        const unit = units[next]!;
        await importUnit(c, tx, unit, claimId);
        next += 1;
        done += records(unit);
        options.onProgress?.(done, total);
        if (chunks?.full(from, next, started)) break;
      }
      // Records keep their revisions (their validators stay valid): later writes number above
      // them, from the commit that stored them on.
      const revisions = units.slice(from, next).flatMap((u) => [u.raw, ...u.exceptions.map((x) => x.raw)].map((r) => (Number.isInteger(r?.revision) ? (r.revision as number) : 0)));
      if (next === units.length) {
        await tx.sequences.bump('post', sequences.post);
        await tx.sequences.bump('term', sequences.term);
        revisions.push(sequences.change);
      }
      await tx.sequences.bump('change', revisions.reduce((m, r) => Math.max(m, r), 0));
      await chunks?.committing(tx, next);
      return next;
    }));
    claims.committed();
  } while (at < units.length);
  return {
    categories: sections.categories.length, tags: sections.tags.length, venues: sections.venues.length,
    organizers: sections.organizers.length, events: sections.events.length,
  };
}

/** What an import writes, in order: terms (parents first), venues, organizers, events (a series with its exceptions). */
function importUnits(sections: Required<Dataset>): ImportUnit[] {
  const units: ImportUnit[] = [];
  const each = (section: ImportUnit['section'], list: readonly Record<string, unknown>[]) => {
    for (const raw of list) units.push({ section, index: sections[section].indexOf(raw), raw, exceptions: [] });
  };
  each('categories', orderParentsFirst(sections.categories));
  each('tags', sections.tags);
  each('venues', sections.venues);
  each('organizers', sections.organizers);
  const isException = (raw: Record<string, unknown>) => raw !== null && typeof raw === 'object' && raw.occurrence !== undefined;
  const exceptions = sections.events.flatMap((raw, index) => (isException(raw) ? [{ raw, index }] : []));
  sections.events.forEach((raw, index) => {
    if (isException(raw)) return;
    const series = raw !== null && typeof raw === 'object' && raw.recurrence !== undefined && raw.recurrence !== null && raw.recurrence !== '';
    // Exceptions are applied once their series is stored with its occurrences: in its unit.
    units.push({ section: 'events', index, raw, exceptions: series ? exceptions.filter((x) => Number(x.raw.post_parent) === Number(raw.id)) : [] });
  });
  return units;
}

/** Writes one unit: validated like the create routes, ids claimed as the dataset gives them. */
async function importUnit(c: WriteCall, tx: StorageTransaction, unit: ImportUnit, claimId: (kind: 'post' | 'term', path: string) => ClaimId): Promise<void> {
  const path = `${unit.section}[${unit.index}]`;
  const { raw } = unit;
  if (unit.section === 'categories' || unit.section === 'tags') {
    const taxonomy = unit.section === 'categories' ? 'category' : 'tag';
    const term = await buildTerm(c, taxonomy, raw, path, claimId('term', path));
    await (taxonomy === 'category' ? tx.categories : tx.tags).insert(term);
    return;
  }
  if (unit.section === 'venues' || unit.section === 'organizers') {
    const kind = unit.section === 'venues' ? 'venue' : 'organizer';
    const record = await buildLinkedPost(c, kind, raw, path, claimId('post', path));
    await (kind === 'venue' ? tx.venues.insert(record as VenueRecord) : tx.organizers.insert(record as OrganizerRecord));
    return;
  }
  const record = await buildEvent(c, raw, path, claimId('post', path));
  if (raw.recurrence === undefined || raw.recurrence === null || raw.recurrence === '') {
    await tx.events.insert(record);
    return;
  }
  const idBase = (raw.recurrence as { id_base?: unknown }).id_base;
  const series = await insertEvent(c, record, { recurrence: v.parse(recurrenceArg.schema, raw.recurrence) }, typeof idBase === 'number' ? idBase : undefined)
    .catch((e: unknown) => {
      throw isCalendarError(e) ? datasetError(path, english(e.text)) : e;
    });
  for (const ex of unit.exceptions) {
    const occurrence = ex.raw.occurrence as { date?: unknown; overrides?: unknown };
    if (typeof occurrence.date !== 'string' || occurrence.overrides === null || typeof occurrence.overrides !== 'object') {
      throw datasetError(`events[${ex.index}].occurrence`, 'an exception has a date and overrides');
    }
    await applyException(c, series, occurrence.date, occurrence.overrides as EventOverrides);
  }
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
 * `done`: the units an earlier run of a chunked import committed (their ids are claimed, and
 * stored by that run). `begin` starts each chunk's transaction (again, when one failed: what it
 * claimed is forgotten); `committed` after each commit.
 */
function idClaims(units: readonly ImportUnit[], done: number): {
  begin(tx: StorageTransaction): Promise<(kind: 'post' | 'term', path: string) => ClaimId>;
  committed(): void;
} {
  // Read as validation reads them ("12" is 12); an id it refuses fails the import anyway.
  const given = (list: readonly ImportUnit[], kind: 'post' | 'term') => list.flatMap((u) => {
    const id = toPositiveInt(u.raw?.id);
    const isTerm = u.section === 'categories' || u.section === 'tags';
    return id !== undefined && id <= MAX_ID && isTerm === (kind === 'term') ? [id] : [];
  });
  const claimed = { post: new Set(given(units.slice(0, done), 'post')), term: new Set(given(units.slice(0, done), 'term')) };
  const ids = { post: given(units.slice(done), 'post'), term: given(units.slice(done), 'term') };
  let stored: { post: Set<number>; term: Set<number> } | undefined;
  let first = true;
  let staged: ['post' | 'term', number][] = [];
  return {
    async begin(tx) {
      for (const [kind, id] of staged) claimed[kind].delete(id);
      staged = [];
      if (first) {
        const idsOf = (...found: ReadonlyArray<readonly { readonly id: number }[]>) => new Set(found.flat().map((r) => r.id));
        stored = {
          post: idsOf(await tx.events.getMany(ids.post), await tx.venues.getMany(ids.post), await tx.organizers.getMany(ids.post)),
          term: idsOf(await tx.categories.getMany(ids.term), await tx.tags.getMany(ids.term)),
        };
        for (const kind of ['post', 'term'] as const) {
          if (ids[kind].length > 0) await tx.sequences.bump(kind, ids[kind].reduce((m, id) => Math.max(m, id), 0));
        }
      }
      return (kind, path) => async (id) => {
        if (id === undefined) return tx.sequences.next(kind);
        if (claimed[kind].has(id) || stored![kind].has(id)) throw datasetError(`${path}.id`, `id ${id} is used twice`);
        claimed[kind].add(id);
        staged.push([kind, id]);
        return id;
      };
    },
    committed() {
      first = false;
      staged = [];
    },
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
