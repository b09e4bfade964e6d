// In-memory storage: maps in the process, queries evaluated by the core reference engine over
// indexes of the committed events (event-index.ts). Transactions are serialised; each collects
// its writes and commits them in one synchronous step, so concurrent readers see either none
// or all of them. A write outside a transaction is a transaction of its own.
import {
  foldText, indexEventsByLink, runEventQuery, runLinkedPostQuery, runTermQuery, storageError, userNameKey,
  type EventCollection, type EventRecord, type IdempotencyRecord, type LinkedPostCollection, type OrganizerRecord, type PostStatus,
  type Storage, type StorageTransaction, type Taxonomy, type TermCollection, type TermQuery, type TermRecord, type TokenCollection,
  type TokenRecord, type UserCollection, type UserRecord, type VenueRecord,
} from '@evcal/core/adapter';
import { ChangeTables, ChangeView, type ChangesSnapshot } from './change-tables';
import { IdempotencyTable, IdempotencyView } from './idempotency-table';
import { EventIndex, tuning } from './event-index';
import { Table, TableView } from './table';
import { TermCounts } from './term-counts';

export interface MemoryStorageOptions {
  /** Called after every committed transaction, e.g. to persist a snapshot. */
  readonly onCommit?: (storage: MemoryStorage) => void | Promise<void>;
}

/** The state of a memory storage, readable for snapshots (the JSON file adapter uses it). */
export interface MemoryStorage extends Storage {
  /** Every record, as committed. */
  snapshot(): MemorySnapshot;
  /** Replaces every record (and the id sequences) with these. */
  load(snapshot: MemorySnapshot): void;
}

export interface MemorySnapshot {
  readonly events: readonly EventRecord[];
  readonly venues: readonly VenueRecord[];
  readonly organizers: readonly OrganizerRecord[];
  readonly categories: readonly TermRecord[];
  readonly tags: readonly TermRecord[];
  /** Accounts (absent: none). */
  readonly users?: readonly UserRecord[];
  readonly tokens?: readonly TokenRecord[];
  /** The id sequences, and `change`: the storage's last change number. */
  readonly sequences: { readonly post: number; readonly term: number; readonly change: number; readonly horizon?: number };
  /** The change log, webhook endpoints and outbox (absent: empty, with a new log id). */
  readonly changes?: ChangesSnapshot;
  /** The answers of writes sent with an idempotency key (absent: none). */
  readonly idempotency?: readonly IdempotencyRecord[];
}

const slugOf = (r: { slug: string }) => r.slug;
/** Users are found by name, through the slug index; tokens by id only. */
const userKeyOf = (u: UserRecord) => userNameKey(u.name);
const noKey = () => '';
const byCreation = (a: TokenRecord, b: TokenRecord) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A storage that keeps everything in this process. */
export function createMemoryStorage(options: MemoryStorageOptions = {}): MemoryStorage {
  const tables = {
    events: new Table<EventRecord>(slugOf),
    venues: new Table<VenueRecord>(slugOf),
    organizers: new Table<OrganizerRecord>(slugOf),
    categories: new Table<TermRecord>(slugOf),
    tags: new Table<TermRecord>(slugOf),
    users: new Table<UserRecord>(userKeyOf),
    tokens: new Table<TokenRecord>(noKey),
  };
  const sequences = { post: 0, term: 0, change: 0, horizon: 0 };
  const changeTables = new ChangeTables();
  const idempotencyTable = new IdempotencyTable();
  const counts = new TermCounts();
  const eventIndex = new EventIndex(tables.events.rows);
  const onEventChange = (before: EventRecord | undefined, after: EventRecord | undefined) => {
    counts.update(before, after);
    eventIndex.update(before, after);
  };
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  type Views = { [K in keyof typeof tables]: TableView<(typeof tables)[K] extends Table<infer R> ? R : never> };

  type Sequences = typeof sequences;
  const commit = (views: Views, changeView: ChangeView, keys: IdempotencyView, seq: Sequences) => {
    if (views.events.changes.size > tuning.bulkChanges) eventIndex.invalidate();
    tables.events.apply(views.events.changes, onEventChange);
    tables.venues.apply(views.venues.changes);
    tables.organizers.apply(views.organizers.changes);
    tables.categories.apply(views.categories.changes);
    tables.tags.apply(views.tags.changes);
    tables.users.apply(views.users.changes);
    tables.tokens.apply(views.tokens.changes);
    sequences.post = Math.max(sequences.post, seq.post);
    sequences.term = Math.max(sequences.term, seq.term);
    sequences.change = seq.change;
    sequences.horizon = Math.max(sequences.horizon, seq.horizon);
    changeView.commit();
    keys.commit();
  };

  /**
   * A storage over transaction views. Outside a transaction (`tx` undefined) the views hold no
   * changes and every write runs as a transaction of its own.
   */
  const storageOver = (views: Views, changeView: ChangeView, keys: IdempotencyView, seq: Sequences, tx: { change: number } | undefined): Storage => {
    const write = <T>(apply: () => T, own: (t: StorageTransaction) => Promise<T>): Promise<T> => {
      if (closed) return Promise.reject(storageError('unavailable', new Error('evcal/memory: storage is closed')));
      if (!tx) return root.transaction(own);
      try {
        return Promise.resolve(apply());
      } catch (error) {
        return Promise.reject(error);
      }
    };
    const eventsInView = () => views.events.values();
    /**
     * The events a term query reads: counts look at every event, but a query counting no
     * status (as term lookups by slug, id or name do) gives every term 0 whatever the events,
     * and then only the event of `eventId` matters.
     */
    const eventsForTermQuery = (query: TermQuery): Iterable<EventRecord> => {
      if (query.countStatuses.length > 0) return eventsInView();
      if (query.eventId === undefined) return [];
      const event = views.events.get(query.eventId);
      return event ? [event] : [];
    };

    const events: EventCollection = {
      get: async (id) => views.events.get(id),
      getMany: async (ids) => views.events.getMany(ids),
      getBySlug: async (slug) => views.events.getBySlug(slug),
      insert: (r) => write(() => views.events.insert(r), (t) => t.events.insert(r)),
      replace: (r) => write(() => views.events.replace(r), (t) => t.events.replace(r)),
      delete: (id) => write(() => views.events.delete(id), (t) => t.events.delete(id)),
      list: async (query) => {
        const ctx = { venue: (id: number) => views.venues.get(id) };
        // The indexes follow the committed events; a transaction that wrote events reads its own view.
        return views.events.dirty ? runEventQuery(eventsInView(), query, ctx) : eventIndex.list(query, ctx);
      },
      unlink: (kind, id, revision) => write(() => {
        const field = ({ venue: 'venueIds', organizer: 'organizerIds', category: 'categoryIds', tag: 'tagIds' } as const)[kind];
        const changed: number[] = [];
        for (const e of [...eventsInView()]) {
          if (!e[field].includes(id)) continue;
          views.events.replace({ ...e, [field]: e[field].filter((x) => x !== id), revision });
          changed.push(e.id);
        }
        return changed.sort((a, b) => a - b);
      }, (t) => t.events.unlink(kind, id, revision)),
      setStatus: (ids, from, to, revision) => write(
        () => setStatus(views.events, ids, from, to, revision),
        (t) => t.events.setStatus(ids, from, to, revision),
      ),
      countByTerm: async (taxonomy: Taxonomy, ids: readonly number[], statuses: readonly PostStatus[]) =>
        counts.get(taxonomy, ids, statuses, views.events.changed()),
    };

    const linked = <R extends VenueRecord | OrganizerRecord>(kind: 'venue' | 'organizer', view: TableView<R>): LinkedPostCollection<R> => ({
      get: async (id) => view.get(id),
      getMany: async (ids) => view.getMany(ids),
      getBySlug: async (slug) => view.getBySlug(slug),
      insert: (r) => write(() => view.insert(r), (t) => (t[`${kind}s`] as unknown as LinkedPostCollection<R>).insert(r)),
      replace: (r) => write(() => view.replace(r), (t) => (t[`${kind}s`] as unknown as LinkedPostCollection<R>).replace(r)),
      delete: (id) => write(() => view.delete(id), (t) => t[`${kind}s`].delete(id)),
      setStatus: (ids, from, to, revision) => write(
        () => setStatus(view, ids, from, to, revision),
        (t) => (t[`${kind}s`] as unknown as LinkedPostCollection<R>).setStatus(ids, from, to, revision),
      ),
      list: async (query) => {
        const needsEvents = query.eventId !== undefined || query.hasEvents !== undefined || query.withEvents !== undefined;
        const eventsOf = needsEvents ? indexEventsByLink(eventsInView()) : () => [];
        return runLinkedPostQuery(kind, view.values(), query, eventsOf);
      },
    });

    const terms = (taxonomy: Taxonomy, view: TableView<TermRecord>): TermCollection => {
      const own = (t: Storage) => (taxonomy === 'category' ? t.categories : t.tags);
      return {
      get: async (id) => view.get(id),
      getMany: async (ids) => view.getMany(ids),
      getBySlug: async (slug) => view.getBySlug(slug),
      findByName: async (name) => {
        const folded = foldText(name.trim());
        return [...view.values()].filter((t) => foldText(t.name) === folded).sort((a, b) => a.id - b.id);
      },
      insert: (r) => write(() => view.insert(r), (t) => own(t).insert(r)),
      replace: (r) => write(() => view.replace(r), (t) => own(t).replace(r)),
      delete: (id) => write(() => view.delete(id), (t) => own(t).delete(id)),
      list: async (query) => runTermQuery(taxonomy, [...view.values()], eventsForTermQuery(query), query),
      };
    };

    const users: UserCollection = {
      get: async (id) => views.users.get(id),
      getByName: async (name) => views.users.getBySlug(userNameKey(name)),
      list: async () => [...views.users.values()].sort((a, b) => a.id - b.id),
      insert: (r) => write(() => views.users.insert(r), (t) => t.users.insert(r)),
      replace: (r) => write(() => views.users.replace(r), (t) => t.users.replace(r)),
      delete: (id) => write(() => views.users.delete(id), (t) => t.users.delete(id)),
    };
    const tokens: TokenCollection = {
      get: async (id) => views.tokens.get(id),
      list: async (userId) => [...views.tokens.values()].filter((t) => userId === undefined || t.userId === userId).sort(byCreation),
      insert: (r) => write(() => views.tokens.insert(r), (t) => t.tokens.insert(r)),
      delete: (id) => write(() => views.tokens.delete(id), (t) => t.tokens.delete(id)),
    };

    const self: Storage = {
      capabilities: { transactions: true, durable: false },
      events,
      venues: linked('venue', views.venues),
      organizers: linked('organizer', views.organizers),
      categories: terms('category', views.categories),
      tags: terms('tag', views.tags),
      users,
      tokens,
      sequences: {
        next: (kind) => write(() => ++seq[kind], (t) => t.sequences.next(kind)),
        bump: (kind, id) => write(() => {
          seq[kind] = Math.max(seq[kind], id);
        }, (t) => t.sequences.bump(kind, id)),
        peek: async (kind) => seq[kind],
      },
      changes: {
        append: (entries) => write(() => changeView.append(entries), (t) => t.changes.append(entries)),
        read: async (from, limit) => changeTables.read(from, limit),
        state: async () => changeTables.state,
        prune: (cutoff) => write(() => changeView.prune(cutoff), (t) => t.changes.prune(cutoff)),
      },
      webhooks: {
        listEndpoints: async () => changeView.listEndpoints(),
        getEndpoint: async (id) => changeView.endpoint(id),
        insertEndpoint: (e) => write(() => changeView.insertEndpoint(e), (t) => t.webhooks.insertEndpoint(e)),
        replaceEndpoint: (e) => write(() => changeView.replaceEndpoint(e), (t) => t.webhooks.replaceEndpoint(e)),
        deleteEndpoint: (id) => write(() => changeView.deleteEndpoint(id), (t) => t.webhooks.deleteEndpoint(id)),
        enqueue: (list) => write(() => changeView.enqueue(list), (t) => t.webhooks.enqueue(list)),
        claim: (o) => write(() => changeView.claim(o.now, o.leasedUntil, o.limit), (t) => t.webhooks.claim(o)),
        settle: (key, outcome, attempt) => write(() => changeView.settle(key, outcome, attempt), (t) => t.webhooks.settle(key, outcome, attempt)),
        statuses: async () => changeView.statuses(),
        wake: (now) => write(() => changeView.wake(now), (t) => t.webhooks.wake(now)),
        deliveries: async (endpointId, limit) => changeView.deliveriesOf(endpointId, limit),
        prune: (cutoff) => write(() => changeView.pruneFailed(cutoff), (t) => t.webhooks.prune(cutoff)),
      },
      idempotency: {
        get: async (scope, key) => keys.get(scope, key),
        insert: (r) => write(() => keys.insert(r), (t) => t.idempotency.insert(r)),
        delete: (scope, key) => write(() => keys.delete(scope, key), (t) => t.idempotency.delete(scope, key)),
        prune: (now, limit) => write(() => keys.prune(now, limit), (t) => t.idempotency.prune(now, limit)),
      },
      lastChange: async () => sequences.change,
      changeNow: () => sequences.change,
      readiness: async () => (closed ? { ready: false, reason: 'unreachable', detail: 'the storage is closed' } : { ready: true }),
      // A transaction inside a transaction joins it.
      transaction: (fn) => (tx ? fn(self as StorageTransaction) : root.transaction(fn)),
      close: async () => root.close(),
    };
    return tx ? Object.assign(self, { change: tx.change }) : self;
  };

  const freshViews = (): Views => ({
    events: new TableView(tables.events, slugOf),
    venues: new TableView(tables.venues, slugOf),
    organizers: new TableView(tables.organizers, slugOf),
    categories: new TableView(tables.categories, slugOf),
    tags: new TableView(tables.tags, slugOf),
    users: new TableView(tables.users, userKeyOf),
    tokens: new TableView(tables.tokens, noKey),
  });

  const direct = storageOver(freshViews(), new ChangeView(changeTables), new IdempotencyView(idempotencyTable), sequences, undefined);

  const root: MemoryStorage = {
    ...direct,
    async transaction(fn) {
      if (closed) throw storageError('unavailable', new Error('evcal/memory: storage is closed'));
      const run = queue.then(async () => {
        const views = freshViews();
        const changeView = new ChangeView(changeTables);
        const keys = new IdempotencyView(idempotencyTable);
        const seq = { ...sequences, change: sequences.change + 1 };
        const result = await fn(storageOver(views, changeView, keys, seq, { change: seq.change }) as StorageTransaction);
        // A transaction that wrote nothing changes nothing, the counter included; one that
        // only claimed or settled deliveries takes no change number.
        const wrote = Object.values(views).some((v) => v.dirty) || changeView.dirty || keys.dirty || seq.post !== sequences.post || seq.term !== sequences.term
          || seq.change > sequences.change + 1 || seq.horizon !== sequences.horizon;
        if (!wrote && !changeView.housekeeping) return result;
        commit(views, changeView, keys, wrote ? seq : { ...seq, change: sequences.change });
        await options.onCommit?.(root);
        return result;
      });
      // Later transactions wait for this one whether it succeeds or fails.
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      await queue;
      closed = true;
    },
    snapshot: () => ({
      events: [...tables.events.rows.values()],
      venues: [...tables.venues.rows.values()],
      organizers: [...tables.organizers.rows.values()],
      categories: [...tables.categories.rows.values()],
      tags: [...tables.tags.rows.values()],
      users: [...tables.users.rows.values()],
      tokens: [...tables.tokens.rows.values()],
      sequences: { ...sequences },
      changes: changeTables.snapshot(),
      idempotency: idempotencyTable.snapshot(),
    }),
    load(snapshot) {
      eventIndex.invalidate();
      tables.events.reset(snapshot.events, onEventChange);
      tables.venues.reset(snapshot.venues);
      tables.organizers.reset(snapshot.organizers);
      tables.categories.reset(snapshot.categories);
      tables.tags.reset(snapshot.tags);
      tables.users.reset(snapshot.users ?? []);
      tables.tokens.reset(snapshot.tokens ?? []);
      sequences.post = snapshot.sequences.post;
      sequences.term = snapshot.sequences.term;
      sequences.change = snapshot.sequences.change;
      sequences.horizon = snapshot.sequences.horizon ?? 0;
      changeTables.load(snapshot.changes);
      idempotencyTable.load(snapshot.idempotency);
    },
  };
  return root;
}

/** The posts of `view` among `ids` whose status is `from`, moved to `to` (PostCollection.setStatus). */
function setStatus<R extends EventRecord | VenueRecord | OrganizerRecord>(
  view: TableView<R>, ids: readonly number[], from: PostStatus, to: PostStatus, revision: number,
): number[] {
  const changed: number[] = [];
  for (const post of view.getMany(ids)) {
    if (post.status !== from) continue;
    view.replace({ ...post, status: to, revision });
    changed.push(post.id);
  }
  return changed.sort((a, b) => a - b);
}
