// One source record into the target: which target record it is (the same id, or the post
// whose lineage names it, or the term with its slug), whether it changed, and the write
// through the dataset import's record builders, so it is validated and normalised exactly as
// an import is. Writes go in batches, one transaction each; a batch that fails in storage is
// written again record by record, so one bad record never takes others with it and none is
// ever half-written.
import {
  isCalendarError, type ClaimId, type CurrencyDefaults, type EventRecord, type PostKind, type RecordBuilder, type Storage, type Taxonomy,
  type Zone,
} from '@evcal/core';
import type { StorageTransaction } from '@evcal/core/adapter';
import type { AnyPost, TargetIndex } from './target-index';
import {
  embedded, eventInput, linkedIds, linkedPostInput, modifiedUtcOf, termIds, termInput, type IdMapper, type Json, type SourceKind,
} from './wire-records';

/** A record read from the source, ready to be written. */
export interface SourceItem {
  readonly kind: SourceKind;
  readonly wire: Json;
  /** Password-protected at the source: the record keeps a password (the source never shows its own). */
  readonly protected?: boolean;
  /** Why it is written although no list showed it (a venue linked from an event, a hidden event). */
  readonly foundVia?: string;
}

export type Outcome =
  | { readonly status: 'created' | 'updated' | 'unchanged' }
  | { readonly status: 'failed'; readonly reason: string };

export interface WriterContext {
  /** Builds records as an import does: the same validation and normalisation. */
  readonly builder: RecordBuilder;
  readonly storage: Storage;
  readonly index: TargetIndex;
  readonly ids: IdState;
  readonly newIds: boolean;
  readonly zone: Zone;
  readonly currency: CurrencyDefaults;
  /** Runs a batch of writes atomically (a dry run passes its one enclosing transaction). */
  transaction<T>(fn: (tx: StorageTransaction) => Promise<T>): Promise<T>;
  /** Told about each record handled, nested ones (an event's venue) first. */
  readonly onOutcome: (item: SourceItem, outcome: Outcome) => void;
  /** Told when a record is written with something left out or changed. */
  readonly onNote: (item: SourceItem, note: string) => void;
}

/**
 * Source id -> target id, for each id space; filled as records are matched or written. What a
 * transaction maps is pending until it commits, and forgotten if it rolls back.
 */
export class IdState implements IdMapper {
  private readonly committed = { post: new Map<number, number>(), term: new Map<number, number>() };
  private readonly pending = { post: new Map<number, number>(), term: new Map<number, number>() };
  term(id: number): number | undefined {
    return this.pending.term.get(id) ?? this.committed.term.get(id);
  }
  post(id: number): number | undefined {
    return this.pending.post.get(id) ?? this.committed.post.get(id);
  }
  set(space: 'post' | 'term', sourceId: number, targetId: number): void {
    this.pending[space].set(sourceId, targetId);
  }
  commit(): void {
    for (const space of ['post', 'term'] as const) {
      for (const [k, v] of this.pending[space]) this.committed[space].set(k, v);
      this.pending[space].clear();
    }
  }
  rollback(): void {
    this.pending.post.clear();
    this.pending.term.clear();
  }
}

/** Writes a batch in one transaction; on a storage failure, each record in a transaction of its own. */
export async function writeBatch(ctx: WriterContext, items: readonly SourceItem[]): Promise<void> {
  if (items.length === 0) return;
  const staged: (() => void)[] = [];
  try {
    await ctx.transaction(async (tx) => {
      for (const item of items) await writeOne(ctx, tx, item, staged);
    });
  } catch (error) {
    ctx.ids.rollback();
    if (items.length === 1 || isAbort(error)) throw error;
    for (const item of items) {
      await writeBatch(ctx, [item]).catch((e: unknown) => {
        if (isAbort(e)) throw e;
        ctx.ids.rollback();
        ctx.onOutcome(item, { status: 'failed', reason: `storage refused it: ${(e as Error).message}` });
      });
    }
    return;
  }
  ctx.ids.commit();
  for (const apply of staged) apply();
}

// ---- one record ----

/** Outcomes and index updates wait in `staged` until the transaction commits. */
async function writeOne(ctx: WriterContext, tx: StorageTransaction, item: SourceItem, staged: (() => void)[]): Promise<void> {
  const sourceId = Number(item.wire.id);
  try {
    if (item.kind === 'category' || item.kind === 'tag') await writeTerm(ctx, tx, item, sourceId, staged);
    else await writePost(ctx, tx, item, sourceId, staged);
  } catch (error) {
    if (!isCalendarError(error)) throw error;
    report(ctx, staged, item, { status: 'failed', reason: error.message.replace(/^Invalid dataset at [^:]*: /, '') });
  }
}

async function writeTerm(ctx: WriterContext, tx: StorageTransaction, item: SourceItem, sourceId: number, staged: (() => void)[]): Promise<void> {
  const taxonomy = item.kind as Taxonomy;
  const found = ctx.newIds ? ctx.index.termBySlug(taxonomy, String(item.wire.slug)) : ctx.index.term(sourceId)?.record;
  const other = !ctx.newIds ? ctx.index.term(sourceId) : undefined;
  if (other && other.taxonomy !== taxonomy) {
    return report(ctx, staged, item, { status: 'failed', reason: `id ${sourceId} is taken in the target by a ${other.taxonomy}; migrate into an empty storage or use --new-ids` });
  }
  const parent = taxonomy === 'category' ? Number(item.wire.parent ?? 0) : 0;
  if (parent !== 0 && ctx.ids.term(parent) === undefined) {
    return report(ctx, staged, item, { status: 'failed', reason: `its parent category ${parent} was not migrated` });
  }
  const raw = termInput(item.wire, taxonomy, ctx.ids);
  if (found && found.name === raw.name && found.slug === raw.slug && found.description === raw.description && found.parent === (raw.parent ?? 0)) {
    ctx.ids.set('term', sourceId, found.id);
    return report(ctx, staged, item, { status: 'unchanged' });
  }
  const term = await ctx.builder.term(tx, taxonomy, raw, `${taxonomy} ${sourceId}`, claim(tx, 'term', found?.id, ctx.newIds ? undefined : sourceId));
  const terms = taxonomy === 'category' ? tx.categories : tx.tags;
  await (found ? terms.replace(term) : terms.insert(term));
  ctx.ids.set('term', sourceId, term.id);
  staged.push(() => ctx.index.putTerm(taxonomy, term));
  report(ctx, staged, item, { status: found ? 'updated' : 'created' });
}

async function writePost(ctx: WriterContext, tx: StorageTransaction, item: SourceItem, sourceId: number, staged: (() => void)[]): Promise<void> {
  const kind = item.kind as PostKind;
  const wire = item.wire;
  const gid = typeof wire.global_id === 'string' ? wire.global_id : undefined;
  const lineage = Array.isArray(wire.global_id_lineage) ? wire.global_id_lineage.filter((x): x is string => typeof x === 'string') : gid ? [gid] : [];
  const found = ctx.newIds ? (gid ? ctx.index.postByGlobalId(gid) : undefined) : ctx.index.post(sourceId);
  const a = (k: PostKind) => `${k === 'venue' ? 'a' : 'an'} ${k}`;
  const foreign = found && (found.kind !== kind ? a(found.kind) : !ctx.newIds && !(gid && found.record.lineage?.includes(gid)) ? `${a(kind)} that did not come from this source` : undefined);
  if (foreign) {
    return report(ctx, staged, item, { status: 'failed', reason: `id ${sourceId} is taken in the target by ${foreign}; migrate into an empty storage or use --new-ids` });
  }
  if (kind === 'event') await ensureReferences(ctx, tx, item, staged);
  const existing = found?.record;
  const modifiedUtc = modifiedUtcOf(wire, ctx.zone);
  const refs = kind === 'event' ? eventInput(wire, ctx.ids, ctx.zone, ctx.currency) : undefined;
  if (existing && existing.modified === wire.modified && existing.modifiedUtc === modifiedUtc && sameLinks(existing, refs?.raw)) {
    ctx.ids.set('post', sourceId, existing.id);
    return report(ctx, staged, item, { status: 'unchanged' });
  }
  const raw = { ...(refs ? refs.raw : linkedPostInput(kind as 'venue' | 'organizer', wire, ctx.zone)), global_id_lineage: lineage };
  const id = claim(tx, 'post', existing?.id, ctx.newIds ? undefined : sourceId);
  const path = `${kind} ${sourceId}`;
  let record: AnyPost = kind === 'event' ? await ctx.builder.event(tx, raw, path, id) : await ctx.builder.linkedPost(tx, kind, raw, path, id);
  if (refs) {
    record = { ...(record as EventRecord), currencySymbol: refs.cost.symbol, currencyPosition: refs.cost.position, currencyCode: refs.cost.code };
    if (!refs.cost.exact) ctx.onNote(item, `its cost "${String(wire.cost)}" renders differently here (the site's default currency differs)`);
  } else {
    // Venues and organizers have no excerpt to write through the API, but the reference shows one.
    record = { ...record, excerpt: typeof wire.excerpt === 'string' ? wire.excerpt : '' };
  }
  if (item.protected) record = { ...record, password: existing?.password || newPassword() };
  const posts = kind === 'event' ? tx.events : kind === 'venue' ? tx.venues : tx.organizers;
  await (existing ? posts.replace(record as never) : posts.insert(record as never));
  const stored = record;
  ctx.ids.set('post', sourceId, stored.id);
  staged.push(() => ctx.index.putPost(kind, stored));
  report(ctx, staged, item, { status: existing ? 'updated' : 'created' });
}

/**
 * Terms, venues and organizers an event links but no list showed (a draft venue linked from
 * a published event, seen anonymously) are written from the copies embedded in the event.
 */
async function ensureReferences(ctx: WriterContext, tx: StorageTransaction, event: SourceItem, staged: (() => void)[]): Promise<void> {
  const eventId = Number(event.wire.id);
  const missing: SourceItem[] = [];
  for (const [kind, field] of [['category', 'categories'], ['tag', 'tags']] as const) {
    for (const term of embedded(event.wire[field])) {
      if (ctx.ids.term(term.id as number) === undefined) missing.push({ kind, wire: term, foundVia: `linked from event ${eventId}` });
    }
  }
  for (const [kind, field] of [['venue', 'venue'], ['organizer', 'organizer']] as const) {
    for (const post of embedded(event.wire[field])) {
      if (ctx.ids.post(post.id as number) === undefined) missing.push({ kind, wire: post, foundVia: `linked from event ${eventId}` });
    }
  }
  for (const item of missing) await writeOne(ctx, tx, item, staged);
  const lost = [...linkedIds(event.wire.venue), ...linkedIds(event.wire.organizer)].filter((id) => ctx.ids.post(id) === undefined)
    .concat([...termIds(event.wire.categories), ...termIds(event.wire.tags)].filter((id) => ctx.ids.term(id) === undefined));
  if (lost.length) ctx.onNote(event, `written without its links to ${lost.join(', ')}, which could not be migrated`);
}

function sameLinks(existing: AnyPost, raw: Json | undefined): boolean {
  if (!raw) return true;
  const e = existing as EventRecord;
  const same = (a: readonly number[], b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return same(e.categoryIds, raw.categories) && same(e.tagIds, raw.tags) && same(e.venueIds, raw.venue) && same(e.organizerIds, raw.organizer);
}

/** The target id: the matched record's, the source's (kept ids), or a new one. */
function claim(tx: StorageTransaction, kind: 'post' | 'term', existing: number | undefined, keep: number | undefined): ClaimId {
  return async () => {
    if (existing !== undefined) return existing;
    if (keep === undefined) return tx.sequences.next(kind);
    await tx.sequences.bump(kind, keep);
    return keep;
  };
}

function report(ctx: WriterContext, staged: (() => void)[], item: SourceItem, outcome: Outcome): void {
  staged.push(() => ctx.onOutcome(item, outcome));
}

function newPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (ch) => ({ '+': '-', '/': '_', '=': '' })[ch]!);
}

function isAbort(error: unknown): boolean {
  return (error as { name?: string })?.name === 'AbortError' || (error as { name?: string })?.name === 'TimeoutError';
}

