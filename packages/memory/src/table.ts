// A table of records by id, with a slug index, and the transaction views over it: a view
// collects its writes in an overlay that is applied to the table in one synchronous step on
// commit (so readers never see half a transaction) and dropped on rollback. Records are kept
// as compact copies (see compact.ts).
import { storageError } from '@evcal/core/adapter';
import { compact } from './compact';

const DELETED = Symbol('deleted');
type Change<R> = R | typeof DELETED;

export interface Row {
  /** Posts and terms have numeric ids, tokens string ones. */
  readonly id: number | string;
}

type Id<R extends Row> = R['id'];

export class Table<R extends Row> {
  readonly rows = new Map<Id<R>, R>();
  /** Slug → id, or the ids when several records share it (slugs are nearly always unique). */
  private readonly bySlug = new Map<string, Id<R> | Set<Id<R>>>();

  constructor(private readonly slugOf: (r: R) => string) {}

  /** Applies a transaction's changes; `onChange` sees each (before, after) pair. */
  apply(changes: ReadonlyMap<Id<R>, Change<R>>, onChange?: (before: R | undefined, after: R | undefined) => void): void {
    for (const [id, change] of changes) {
      const before = this.rows.get(id);
      if (before) this.unindex(before);
      if (change === DELETED) this.rows.delete(id);
      else {
        this.rows.set(id, change);
        this.index(change);
      }
      onChange?.(before, change === DELETED ? undefined : change);
    }
  }

  /** Replaces every row with `rows`. */
  reset(rows: Iterable<R>, onChange?: (before: R | undefined, after: R | undefined) => void): void {
    const changes = new Map<Id<R>, Change<R>>();
    for (const id of this.rows.keys()) changes.set(id, DELETED);
    for (const r of rows) changes.set(r.id, compact(r));
    this.apply(changes, onChange);
  }

  idsWithSlug(slug: string): Iterable<Id<R>> {
    const ids = this.bySlug.get(slug);
    return ids === undefined ? [] : ids instanceof Set ? ids : [ids];
  }

  private index(r: R): void {
    const slug = this.slugOf(r);
    if (slug === '') return;
    const ids = this.bySlug.get(slug);
    if (ids === undefined) this.bySlug.set(slug, r.id);
    else if (!(ids instanceof Set)) {
      if (ids !== r.id) this.bySlug.set(slug, new Set([ids, r.id]));
    } else ids.add(r.id);
  }

  private unindex(r: R): void {
    const slug = this.slugOf(r);
    const ids = this.bySlug.get(slug);
    if (ids === undefined) return;
    if (!(ids instanceof Set)) {
      if (ids === r.id) this.bySlug.delete(slug);
      return;
    }
    ids.delete(r.id);
    if (ids.size === 1) this.bySlug.set(slug, ids.values().next().value as Id<R>);
    else if (ids.size === 0) this.bySlug.delete(slug);
  }
}

/** A table as one transaction sees it: the committed rows with its own changes on top. */
export class TableView<R extends Row> {
  readonly changes = new Map<Id<R>, Change<R>>();
  /** Ids of the records in `changes` by slug, so slug lookups inside a large transaction stay cheap. */
  private readonly changedBySlug = new Map<string, Set<Id<R>>>();

  constructor(readonly table: Table<R>, private readonly slugOf: (r: R) => string) {}

  get(id: Id<R>): R | undefined {
    const change = this.changes.get(id);
    if (change === DELETED) return undefined;
    return change ?? this.table.rows.get(id);
  }

  getMany(ids: readonly Id<R>[]): R[] {
    const out: R[] = [];
    for (const id of new Set(ids)) {
      const r = this.get(id);
      if (r) out.push(r);
    }
    return out;
  }

  getBySlug(slug: string): R | undefined {
    if (slug === '') return undefined;
    let found: R | undefined;
    // The view's own records with this slug, then the committed ones it has not changed.
    for (const id of this.changedBySlug.get(slug) ?? []) {
      const change = this.changes.get(id);
      if (change !== undefined && change !== DELETED && (!found || change.id < found.id)) found = change;
    }
    for (const id of this.table.idsWithSlug(slug)) {
      if (this.changes.has(id)) continue;
      const r = this.table.rows.get(id)!;
      if (!found || r.id < found.id) found = r;
    }
    return found;
  }

  /** Each record this view changed: as committed (undefined when new) and as it is now (undefined when deleted). */
  *changed(): IterableIterator<readonly [R | undefined, R | undefined]> {
    for (const [id, change] of this.changes) yield [this.table.rows.get(id), change === DELETED ? undefined : change];
  }

  *values(): IterableIterator<R> {
    for (const [id, r] of this.table.rows) if (!this.changes.has(id)) yield r;
    for (const change of this.changes.values()) if (change !== DELETED) yield change;
  }

  insert(r: R): void {
    // Core never inserts an id in use (it holds the write lock): a caller racing outside core.
    if (this.get(r.id)) throw storageError('conflict', new Error(`evcal/memory: id ${r.id} exists`));
    this.change(r.id, compact(r));
  }

  replace(r: R): void {
    if (!this.get(r.id)) throw storageError('conflict', new Error(`evcal/memory: no record ${r.id}`));
    this.change(r.id, compact(r));
  }

  delete(id: Id<R>): void {
    if (this.get(id)) this.change(id, DELETED);
  }

  /** Forgets every change (after a commit). */
  clear(): void {
    this.changes.clear();
    this.changedBySlug.clear();
  }

  private change(id: Id<R>, change: Change<R>): void {
    const before = this.changes.get(id);
    if (before !== undefined && before !== DELETED) {
      const slug = this.slugOf(before);
      const ids = this.changedBySlug.get(slug);
      ids?.delete(id);
      if (ids?.size === 0) this.changedBySlug.delete(slug);
    }
    this.changes.set(id, change);
    if (change !== DELETED) {
      const slug = this.slugOf(change);
      if (slug === '') return;
      let ids = this.changedBySlug.get(slug);
      if (!ids) this.changedBySlug.set(slug, (ids = new Set()));
      ids.add(id);
    }
  }

  get dirty(): boolean {
    return this.changes.size > 0;
  }
}
