// The calendar's storage, recording what every write transaction changes: each record
// created, updated, trashed or deleted becomes a change log entry (the occurrences a series
// write touches are named by the series' entry: occurrence-folding.ts), and a delivery for each
// enabled webhook endpoint that wants its type, written by the same transaction before it
// commits (so a change, its entry and its deliveries land together or not at all). After the
// commit the entries are told to the calendar's listeners. Every write core makes goes through
// here: operations, scheduled publishing, imports and migrations.
import { POST_STATUSES, type EventRecord, type OrganizerRecord, type PostRecord, type PostStatus, type Taxonomy, type TermRecord, type VenueRecord } from '../model/records';
import type { ChangeAction, ChangeEntry, ChangeKind, PostState, WebhookDelivery } from '../storage/change-store';
import type { EventCollection, LinkedPostCollection, Storage, StorageTransaction, TermCollection } from '../storage/storage';
import { changeEnvelope, eventType } from './change-envelope';
import { foldOccurrences, type EventChange, type PendingChange } from './occurrence-folding';

export interface ChangeRecorderOptions {
  /** The calendar's clock (epoch ms), for the entries' `at`. */
  now(): number;
  /**
   * Told the entries of each committed transaction that logged any, and how many webhook
   * deliveries it queued with them.
   */
  committed(entries: readonly ChangeEntry[], deliveries: number): void;
}

/** What a transaction wrote to its change log: its entries, and the webhook deliveries queued for them. */
interface Logged {
  readonly entries: readonly ChangeEntry[];
  readonly deliveries: number;
}

const NOTHING_LOGGED: Logged = { entries: [], deliveries: 0 };

type AnyRecord = EventRecord | VenueRecord | OrganizerRecord | TermRecord;

/** `storage`, with every write transaction recorded in its change log. */
export function recordingStorage(storage: Storage, options: ChangeRecorderOptions): Storage {
  const transaction: Storage['transaction'] = async (fn) => {
    let logged: Logged = NOTHING_LOGGED;
    const result = await storage.transaction(async (tx) => {
      const recorder = new TransactionRecorder(tx);
      const out = await fn(recorder.storage);
      logged = await recorder.flush(options.now());
      return out;
    });
    if (logged.entries.length) options.committed(logged.entries, logged.deliveries);
    return result;
  };
  /** A write outside a transaction is a transaction of its own (so it is recorded too). */
  const own = <K extends CollectionName>(name: K): Storage[K] => {
    const inner = storage[name] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const out: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(inner)) {
      out[method] = WRITES.has(method)
        ? (...args: unknown[]) => transaction((tx) => (tx[name] as unknown as typeof inner)[method]!(...args))
        : fn.bind(inner);
    }
    return out as unknown as Storage[K];
  };
  return {
    capabilities: storage.capabilities,
    events: own('events'),
    venues: own('venues'),
    organizers: own('organizers'),
    categories: own('categories'),
    tags: own('tags'),
    sequences: storage.sequences,
    changes: storage.changes,
    webhooks: storage.webhooks,
    // Idempotency records are not records of the calendar either.
    idempotency: storage.idempotency,
    // Accounts are not records of the calendar: not in the change log.
    users: storage.users,
    tokens: storage.tokens,
    readiness: () => storage.readiness(),
    lastChange: () => storage.lastChange(),
    ...(storage.changeNow ? { changeNow: storage.changeNow.bind(storage) } : {}),
    transaction,
    close: () => storage.close(),
  };
}

type CollectionName = 'events' | 'venues' | 'organizers' | 'categories' | 'tags';
const WRITES = new Set(['insert', 'replace', 'delete', 'unlink', 'setStatus']);
const KIND_OF: Record<CollectionName, ChangeKind> = { events: 'event', venues: 'venue', organizers: 'organizer', categories: 'category', tags: 'tag' };

/** What a transaction did to one record: its state before the transaction and after it. */
interface Touched {
  readonly kind: ChangeKind;
  readonly id: number;
  before: AnyRecord | null;
  after: AnyRecord | null;
  /** Changed by `unlink`: the state after is read back before the entry is written. */
  reload: boolean;
  /**
   * Changed by `unlink` alone (its state before was its state after but for the link: status
   * and author alike), or by nothing but a linked venue's or organizer's visibility: either way
   * no term's count moved with it.
   */
  unlinkedOnly: boolean;
}

/** One write transaction, watched. */
class TransactionRecorder {
  readonly storage: StorageTransaction;
  private readonly touched = new Map<string, Touched>();
  /** Records as read in this transaction (null: read as absent), for the state before a write. */
  private readonly seen = new Map<string, AnyRecord | null>();

  constructor(private readonly tx: StorageTransaction) {
    const self: StorageTransaction = {
      // Read when used, not now: a storage may renumber a transaction until it hands its number out (Storage.transaction).
      get change() {
        return tx.change;
      },
      capabilities: tx.capabilities,
      events: this.watch('events') as EventCollection,
      venues: this.watch('venues') as LinkedPostCollection<VenueRecord>,
      organizers: this.watch('organizers') as LinkedPostCollection<OrganizerRecord>,
      categories: this.watch('categories') as TermCollection,
      tags: this.watch('tags') as TermCollection,
      sequences: tx.sequences,
      changes: tx.changes,
      webhooks: tx.webhooks,
      idempotency: tx.idempotency,
      users: tx.users,
      tokens: tx.tokens,
      readiness: () => tx.readiness(),
      lastChange: () => tx.lastChange(),
      // A transaction inside a transaction joins it.
      transaction: (fn) => fn(self),
      close: () => tx.close(),
    };
    this.storage = self;
  }

  /** Writes the log entries and deliveries of what the transaction changed; returns what it wrote. */
  async flush(now: number): Promise<Logged> {
    if (this.touched.size === 0) return NOTHING_LOGGED;
    await this.reload();
    await this.touchLinkingEvents();
    const changes: Array<PendingChange | EventChange> = [];
    for (const t of this.touched.values()) {
      const action = actionOf(t);
      if (!action) continue;
      const post = t.kind === 'event' || t.kind === 'venue' || t.kind === 'organizer';
      const change: PendingChange = {
        kind: t.kind, id: t.id, action, revision: (t.after ?? t.before)!.revision,
        before: post && t.before ? stateOf(t.before as PostRecord) : null,
        after: post && t.after ? stateOf(t.after as PostRecord) : null,
      };
      if (t.kind !== 'event') changes.push(change);
      else {
        const [before, after] = [t.before as EventRecord | null, t.after as EventRecord | null];
        changes.push({ change, record: (after ?? before)!, series: Boolean(before?.recurrence ?? after?.recurrence) });
      }
    }
    // A term's representation carries its count of published events: those whose count moved changed too.
    for (const taxonomy of ['category', 'tag'] as const) {
      const ids = this.recounted(taxonomy).filter((id) => !this.touched.has(`${taxonomy}:${id}`));
      if (ids.length === 0) continue;
      // The terms this transaction read already (a write's validation reads those it names) are not read again.
      const known: TermRecord[] = [];
      const missing: number[] = [];
      for (const id of ids) {
        const term = this.seen.get(`${taxonomy}:${id}`) as TermRecord | null | undefined;
        if (term) known.push(term);
        else missing.push(id);
      }
      const terms = missing.length ? [...known, ...(await (taxonomy === 'category' ? this.tx.categories : this.tx.tags).getMany(missing))] : known;
      for (const term of terms.sort((a, b) => a.id - b.id)) {
        changes.push({ kind: taxonomy, id: term.id, action: 'updated', revision: term.revision, before: null, after: null });
      }
    }
    if (changes.length === 0) return NOTHING_LOGGED;
    const change = this.tx.change;
    const folded = await foldOccurrences(changes, (ids) => this.tx.events.getMany(ids));
    const entries: ChangeEntry[] = folded.map((c, seq) => ({ ...c, change, seq, at: now }));
    await this.tx.changes.append(entries);
    return { entries, deliveries: await this.enqueue(entries) };
  }

  /** A delivery of each entry to each enabled endpoint that wants its type; answers how many. */
  private async enqueue(entries: readonly ChangeEntry[]): Promise<number> {
    const endpoints = (await this.tx.webhooks.listEndpoints()).filter((e) => e.enabled);
    if (endpoints.length === 0) return 0;
    const { id: logId } = await this.tx.changes.state();
    const deliveries: WebhookDelivery[] = [];
    for (const entry of entries) {
      const type = eventType(entry);
      const payload = JSON.stringify(changeEnvelope(entry));
      for (const endpoint of endpoints) {
        if (endpoint.types.length > 0 && !endpoint.types.includes(type)) continue;
        deliveries.push({
          endpointId: endpoint.id, change: entry.change, seq: entry.seq, messageId: `msg_${logId}_${entry.change}_${entry.seq}`,
          // Due at once (the sender's clock is the real one; the calendar's may be set).
          // An exception's deliveries keep their order with its series'.
          recordKey: `${entry.kind}:${entry.series ?? entry.id}`, type, payload, state: 'pending', attempts: 0, nextAttemptAt: 0,
          leasedUntil: null, lastAttemptAt: null, lastStatus: null, lastError: null,
        });
      }
    }
    if (deliveries.length) await this.tx.webhooks.enqueue(deliveries);
    return deliveries.length;
  }

  /**
   * An event's representation names its venues and organizers as its reader may see them: when
   * one's visibility moved (its status, author or password), the events linking it changed for
   * some readers, though not one of their fields did. They are recorded as changed, so that a
   * reader following the feed reads them again (a venue published again is named again).
   */
  private async touchLinkingEvents(): Promise<void> {
    const moved = { venueIds: [] as number[], organizerIds: [] as number[] };
    for (const t of this.touched.values()) {
      if ((t.kind !== 'venue' && t.kind !== 'organizer') || !t.before || !t.after) continue;
      const [before, after] = [t.before as PostRecord, t.after as PostRecord];
      if (before.status === after.status && before.authorId === after.authorId && before.password === after.password) continue;
      (t.kind === 'venue' ? moved.venueIds : moved.organizerIds).push(t.id);
    }
    for (const [filter, ids] of Object.entries(moved) as ['venueIds' | 'organizerIds', number[]][]) {
      if (ids.length === 0) continue;
      for (const records of ['listed', 'series'] as const) {
        const { items } = await this.tx.events.list({
          records, statuses: POST_STATUSES, excludeHidden: false, [filter]: ids, sort: [{ field: 'id', direction: 'asc' }],
        });
        for (const event of items) {
          if (this.touched.has(`event:${event.id}`)) continue;
          this.touched.set(`event:${event.id}`, { kind: 'event', id: event.id, before: event, after: event, reload: false, unlinkedOnly: true });
        }
      }
    }
  }

  /** The terms of `taxonomy` whose count of published events the transaction changed. */
  private recounted(taxonomy: Taxonomy): number[] {
    const moved = new Set<number>();
    const counted = (e: AnyRecord | null) => {
      const event = e as EventRecord | null;
      return event && event.status === 'publish' ? (taxonomy === 'category' ? event.categoryIds : event.tagIds) : [];
    };
    for (const t of this.touched.values()) {
      // Events changed only by unlink lost the term being removed, which the transaction changes itself.
      if (t.kind !== 'event' || t.unlinkedOnly) continue;
      const before = new Set(counted(t.before));
      const after = new Set(counted(t.after));
      for (const id of before) if (!after.has(id)) moved.add(id);
      for (const id of after) if (!before.has(id)) moved.add(id);
    }
    return [...moved];
  }

  private async reload(): Promise<void> {
    const stale = [...this.touched.values()].filter((t) => t.reload);
    const ids = stale.map((t) => t.id);
    if (ids.length === 0) return;
    const current = new Map((await this.tx.events.getMany(ids)).map((e) => [e.id, e]));
    for (const t of stale) {
      t.after = current.get(t.id) ?? null;
      if (t.unlinkedOnly) t.before = t.after;
    }
  }

  /** A collection whose reads are remembered and whose writes are recorded. */
  private watch(name: CollectionName): unknown {
    const inner = this.tx[name] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const kind = KIND_OF[name];
    const key = (id: number) => `${kind}:${id}`;
    const remember = (records: readonly AnyRecord[]) => {
      for (const r of records) if (!this.touched.has(key(r.id))) this.seen.set(key(r.id), r);
    };
    const before = async (id: number): Promise<AnyRecord | null> => {
      const k = key(id);
      const t = this.touched.get(k);
      if (t) return t.after;
      if (this.seen.has(k)) return this.seen.get(k)!;
      return ((await inner.get!(id)) as AnyRecord | undefined) ?? null;
    };
    const record = (id: number, was: AnyRecord | null, after: AnyRecord | null, reload = false) => {
      const k = key(id);
      const t = this.touched.get(k);
      if (t) {
        t.after = after;
        t.reload = t.reload || reload;
      } else this.touched.set(k, { kind, id, before: was, after, reload, unlinkedOnly: reload });
      this.seen.delete(k);
    };
    const out: Record<string, unknown> = { ...inner };
    for (const [method, fn] of Object.entries(inner)) out[method] = fn.bind(inner);
    Object.assign(out, {
      get: async (id: number) => {
        const r = (await inner.get!(id)) as AnyRecord | undefined;
        if (r) remember([r]);
        else if (!this.touched.has(key(id))) this.seen.set(key(id), null);
        return r;
      },
      getMany: async (ids: readonly number[]) => {
        const rs = (await inner.getMany!(ids)) as readonly AnyRecord[];
        remember(rs);
        return rs;
      },
      getBySlug: async (slug: string) => {
        const r = (await inner.getBySlug!(slug)) as AnyRecord | undefined;
        if (r) remember([r]);
        return r;
      },
      insert: async (r: AnyRecord) => {
        const was = this.touched.get(key(r.id))?.after ?? null;
        await inner.insert!(r);
        record(r.id, was, r);
      },
      replace: async (r: AnyRecord) => {
        const was = await before(r.id);
        await inner.replace!(r);
        record(r.id, was, r);
      },
      delete: async (id: number) => {
        const was = await before(id);
        await inner.delete!(id);
        if (was) record(id, was, null);
      },
    });
    if (inner.setStatus) {
      // The states before are read in one go (those not read yet); after, each is its state before with the new status.
      out.setStatus = async (ids: readonly number[], from: PostStatus, to: PostStatus, revision: number) => {
        const unread = ids.filter((id) => !this.touched.has(key(id)) && !this.seen.has(key(id)));
        if (unread.length) remember((await inner.getMany!(unread)) as readonly AnyRecord[]);
        const changed = (await inner.setStatus!(ids, from, to, revision)) as readonly number[];
        for (const id of changed) {
          const was = await before(id);
          record(id, was, was && ({ ...was, status: to, revision } as AnyRecord));
        }
        return changed;
      };
    }
    if (name === 'events') {
      // A series write lists its occurrences before rewriting them: their states before come from that read, not one read each.
      out.list = async (query: unknown) => {
        const page = (await inner.list!(query)) as { items: readonly AnyRecord[] };
        remember(page.items);
        return page;
      };
      out.unlink = async (linkKind: 'venue' | 'organizer' | Taxonomy, id: number, revision: number) => {
        const ids = (await inner.unlink!(linkKind, id, revision)) as readonly number[];
        for (const eventId of ids) record(eventId, null, this.touched.get(key(eventId))?.after ?? null, true);
        return ids;
      };
    }
    return out;
  }
}

/** What happened to a record over the transaction, if anything. */
function actionOf(t: Touched): ChangeAction | undefined {
  if (!t.before) return t.after ? 'created' : undefined;
  if (!t.after) return 'deleted';
  const status = (r: AnyRecord) => (r as PostRecord).status;
  if (t.kind !== 'category' && t.kind !== 'tag' && status(t.after) === 'trash' && status(t.before) !== 'trash') return 'trashed';
  return 'updated';
}

function stateOf(post: PostRecord): PostState {
  return { status: post.status, authorId: post.authorId };
}
