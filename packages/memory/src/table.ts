// A table of records by id, with a slug index, and the transaction views over it: a view
// collects its writes in an overlay that is applied to the table in one synchronous step on
// commit (so readers never see half a transaction) and dropped on rollback.

const DELETED = Symbol('deleted');
type Change<R> = R | typeof DELETED;

export interface Row {
  readonly id: number;
}

export class Table<R extends Row> {
  readonly rows = new Map<number, R>();
  private readonly bySlug = new Map<string, Set<number>>();

  constructor(private readonly slugOf: (r: R) => string) {}

  /** Applies a transaction's changes; `onChange` sees each (before, after) pair. */
  apply(changes: ReadonlyMap<number, Change<R>>, onChange?: (before: R | undefined, after: R | undefined) => void): void {
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
    const changes = new Map<number, Change<R>>();
    for (const id of this.rows.keys()) changes.set(id, DELETED);
    for (const r of rows) changes.set(r.id, r);
    this.apply(changes, onChange);
  }

  idsWithSlug(slug: string): ReadonlySet<number> | undefined {
    return this.bySlug.get(slug);
  }

  private index(r: R): void {
    const slug = this.slugOf(r);
    if (slug === '') return;
    let ids = this.bySlug.get(slug);
    if (!ids) this.bySlug.set(slug, (ids = new Set()));
    ids.add(r.id);
  }

  private unindex(r: R): void {
    const ids = this.bySlug.get(this.slugOf(r));
    ids?.delete(r.id);
    if (ids?.size === 0) this.bySlug.delete(this.slugOf(r));
  }
}

/** A table as one transaction sees it: the committed rows with its own changes on top. */
export class TableView<R extends Row> {
  readonly changes = new Map<number, Change<R>>();

  constructor(readonly table: Table<R>, private readonly slugOf: (r: R) => string) {}

  get(id: number): R | undefined {
    const change = this.changes.get(id);
    if (change === DELETED) return undefined;
    return change ?? this.table.rows.get(id);
  }

  getMany(ids: readonly number[]): R[] {
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
    for (const change of this.changes.values()) {
      if (change !== DELETED && this.slugOf(change) === slug && (!found || change.id < found.id)) found = change;
    }
    for (const id of this.table.idsWithSlug(slug) ?? []) {
      if (this.changes.has(id)) continue;
      const r = this.table.rows.get(id)!;
      if (!found || r.id < found.id) found = r;
    }
    return found;
  }

  *values(): IterableIterator<R> {
    for (const [id, r] of this.table.rows) if (!this.changes.has(id)) yield r;
    for (const change of this.changes.values()) if (change !== DELETED) yield change;
  }

  insert(r: R): void {
    if (this.get(r.id)) throw new Error(`evcal/memory: id ${r.id} exists`);
    this.changes.set(r.id, r);
  }

  replace(r: R): void {
    if (!this.get(r.id)) throw new Error(`evcal/memory: no record ${r.id}`);
    this.changes.set(r.id, r);
  }

  delete(id: number): void {
    if (this.get(id)) this.changes.set(id, DELETED);
  }

  get dirty(): boolean {
    return this.changes.size > 0;
  }
}
