// migrateFromReference: a live site running The Events Calendar (or evcal in its layout) into
// this calendar's storage, over the site's REST API. Categories (parents first), tags,
// venues, organizers and events, ids kept unless asked otherwise; resumable and idempotent
// (records whose `modified` did not change are left alone); a dry run validates everything
// inside a transaction that is rolled back. Ends with a report and a verification pass.
import { createRecordBuilder, orderParentsFirst, type Calendar, type PostKind } from '@evcal/core';
import { MigrationError } from './migration-error';
import { emptyReport, KIND_OF, verify, type MigrationKind, type MigrationReport } from './migration-report';
import { IdState, writeBatch, type Outcome, type SourceItem, type WriterContext } from './record-writer';
import { createSourceClient, type FetchLike } from './source-client';
import { fetchSingle, listPages, PER_PAGE, probeSource } from './source-reader';
import { loadTargetIndex } from './target-index';
import { isRedacted, labelOf, type Json, type SourceKind } from './wire-records';

export interface MigrateOptions {
  /** The source's API root: `https://site/wp-json/tribe/events/v1`, or `https://site/?rest_route=/tribe/events/v1`. */
  readonly from: string;
  /**
   * HTTP Basic credentials, e.g. a WordPress user and one of their application passwords.
   * Without them only published records are read (anonymous callers see no others).
   */
  readonly credentials?: { readonly user: string; readonly password: string };
  /** Give every record a new id instead of keeping the source's. @default false */
  readonly newIds?: boolean;
  /** Read and validate everything, write nothing, report what would change. @default false */
  readonly dryRun?: boolean;
  /** Requests to the source in flight at once. @default 4 */
  readonly concurrency?: number;
  /** Further tries of a request answered 429 or 5xx. @default 5 */
  readonly retries?: number;
  /**
   * Also look for events hidden from listings, which no list of the reference shows: every
   * post id up to the largest one seen that is not otherwise known is asked for singly.
   * @default false
   */
  readonly findHidden?: boolean;
  /** @default globalThis.fetch */
  readonly fetch?: FetchLike;
  /** Stops the run between records; what was written stays, and a later run resumes. */
  readonly signal?: AbortSignal;
  /** Told after every record. */
  readonly onProgress?: (progress: MigrationProgress) => void;
}

export interface MigrationProgress {
  readonly kind: MigrationKind;
  /** Records of this kind handled so far. */
  readonly done: number;
  /** What the source says it has, when it says. */
  readonly total: number | undefined;
}

const KINDS: readonly SourceKind[] = ['category', 'tag', 'venue', 'organizer', 'event'];
const ROLLBACK = Symbol('dry run');

export async function migrateFromReference(calendar: Calendar, options: MigrateOptions): Promise<MigrationReport> {
  const { config } = calendar;
  const storage = config.storage;
  if (options.dryRun && !storage.capabilities.transactions) {
    throw new MigrationError('http_error', 'a dry run needs a storage with transactions, to roll back what it tried');
  }
  const client = createSourceClient({
    from: options.from, credentials: options.credentials, signal: options.signal,
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  await probeSource(client);
  const index = await loadTargetIndex(storage);
  const report = emptyReport(client.root, options);
  const ids = new IdState();
  /** Source post ids known from lists and embedded copies, for the hidden-events probe. */
  const seenPosts = new Set<number>();
  const done = new Map<MigrationKind, number>();
  /** Source ids written or matched, per kind, for the verification pass. */
  const migrated = new Map<MigrationKind, number[]>(Object.values(KIND_OF).map((k) => [k, []]));

  const progress = (kind: MigrationKind) => options.onProgress?.({ kind, done: done.get(kind) ?? 0, total: report.kinds[kind].sourceTotal });
  const count = (item: SourceItem, status: Outcome['status'] | 'skipped') => {
    const kind = KIND_OF[item.kind];
    const counts = report.kinds[kind];
    counts.read++;
    if (item.foundVia) counts.found++;
    counts[status]++;
    if (status === 'created' || status === 'updated' || status === 'unchanged') migrated.get(kind)!.push(Number(item.wire.id));
    if (item.kind === 'venue' || item.kind === 'organizer' || item.kind === 'event') seenPosts.add(Number(item.wire.id));
    done.set(kind, (done.get(kind) ?? 0) + 1);
    progress(kind);
  };
  const issue = (item: SourceItem, reason: string) => ({
    kind: KIND_OF[item.kind], sourceId: Number(item.wire.id), name: labelOf(item.kind, item.wire),
    reason: item.foundVia ? `${reason} (${item.foundVia})` : reason,
  });
  const skip = (item: SourceItem, reason: string) => {
    report.skipped.push(issue(item, reason));
    count(item, 'skipped');
  };

  const run = async (transaction: WriterContext['transaction']) => {
    const ctx: WriterContext = {
      builder: createRecordBuilder(calendar),
      storage, index, ids, newIds: options.newIds === true, zone: config.zone, currency: config.currency, transaction,
      onOutcome: (item, outcome) => {
        if (outcome.status === 'failed') report.failed.push(issue(item, outcome.reason));
        count(item, outcome.status);
      },
      onNote: (item, note) => report.notes.push(issue(item, note)),
    };
    for (const kind of KINDS) {
      options.signal?.throwIfAborted();
      progress(KIND_OF[kind]);
      if (kind === 'category' || kind === 'tag') {
        const all: Json[] = [];
        for await (const page of listPages(client, kind)) {
          report.kinds[KIND_OF[kind]].sourceTotal ??= page.total;
          all.push(...page.items);
        }
        const ordered = kind === 'category' ? orderParentsFirst(all) : all;
        for (let i = 0; i < ordered.length; i += PER_PAGE) {
          options.signal?.throwIfAborted();
          await writeBatch(ctx, ordered.slice(i, i + PER_PAGE).map((wire) => ({ kind, wire })));
        }
        continue;
      }
      for await (const page of listPages(client, kind)) {
        options.signal?.throwIfAborted();
        report.kinds[KIND_OF[kind]].sourceTotal ??= page.total;
        for (const wire of page.items) seenPosts.add(Number(wire.id));
        await writeBatch(ctx, await unlocked(page.items.map((wire) => ({ kind, wire }))));
      }
    }
    if (options.findHidden) await findHidden(ctx);
  };

  /** Protected posts come redacted in lists; with credentials their full copy is read singly. */
  async function unlocked(items: SourceItem[]): Promise<SourceItem[]> {
    const out = await Promise.all(items.map(async (item): Promise<SourceItem | undefined> => {
      if (!isRedacted(item.kind as PostKind, item.wire)) return item;
      if (!client.authenticated) {
        skip(item, 'password-protected: its content needs --user and --password to be read');
        return undefined;
      }
      const single = await fetchSingle(client, item.kind, Number(item.wire.id), true);
      if (single.status === 200 && !isRedacted(item.kind as PostKind, single.body)) return { ...item, wire: single.body, protected: true };
      skip(item, `password-protected, and its full copy could not be read (${single.status})`);
      return undefined;
    }));
    return out.filter((x): x is SourceItem => x !== undefined);
  }

  /** Events hidden from listings: every unknown post id up to the largest seen, asked for singly. */
  async function findHidden(ctx: WriterContext) {
    const last = [...seenPosts].reduce((max, id) => Math.max(max, id), 0);
    const candidates = Array.from({ length: last }, (_, i) => i + 1).filter((id) => !seenPosts.has(id));
    for (let i = 0; i < candidates.length; i += PER_PAGE) {
      options.signal?.throwIfAborted();
      const found = await Promise.all(candidates.slice(i, i + PER_PAGE).map((id) => hiddenEvent(id)));
      await writeBatch(ctx, found.filter((x): x is SourceItem => x !== undefined));
    }
  }

  /** The event with this id if there is one the probe may carry; a protected one read in full, with credentials. */
  async function hiddenEvent(id: number): Promise<SourceItem | undefined> {
    const view = await fetchSingle(client, 'event', id, false);
    const item: SourceItem = { kind: 'event', wire: { ...view.body, id }, foundVia: 'hidden from listings' };
    if (view.status === 200) return item;
    // Without credentials every unpublished event answers 403 too: those are not carried anyway.
    if (view.status !== 403 || !client.authenticated) return undefined;
    if (view.body.code === 'event-password-protected') {
      const full = await fetchSingle(client, 'event', id, true);
      if (full.status === 200) return { ...item, wire: full.body, protected: true };
    }
    skip(item, `not readable through the API (${String(view.body.code)})`);
    return undefined;
  }

  if (options.dryRun) {
    try {
      await storage.transaction(async (tx) => {
        await run((fn) => fn(tx));
        throw ROLLBACK;
      });
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    }
  } else {
    await run((fn) => storage.transaction(fn));
    await verify(report, storage, migrated, ids);
  }
  return report;
}
