// What an import reads over and over: each event names categories, tags, a venue and organizers
// that the records before it wrote, and validating it read each of them again (on PostgreSQL
// six round trips of an event's thirteen). An import runs in write transactions, and what a
// write transaction reads by id cannot be deleted under it, nor changed when read with `get`
// (Storage.transaction): only its own writes change it, and those go through here and make it
// read again.
import type { StorageTransaction } from '../storage/storage';

/** The collections whose records an import reads by id once. */
const REMEMBERED = ['categories', 'tags', 'venues', 'organizers'] as const;

/** Methods of those collections that only read (anything else may write: it forgets). */
const READS = new Set<PropertyKey>(['list', 'getBySlug', 'findByName']);

/**
 * `tx`, reading each category, tag, venue and organizer by id at most once (`get`, `getMany`)
 * until the transaction writes to that collection again. Everything else is `tx`'s own.
 */
export function readingOnce(tx: StorageTransaction): StorageTransaction {
  const collections = new Map<PropertyKey, unknown>(REMEMBERED.map((name) => [name, remembering(tx[name])]));
  const self: StorageTransaction = new Proxy(tx, {
    get(target, key) {
      if (collections.has(key)) return collections.get(key);
      // A transaction inside this one joins it: through here, so its reads are remembered too.
      if (key === 'transaction') return <T>(fn: (inner: StorageTransaction) => Promise<T>) => target.transaction(() => fn(self));
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return self;
}

interface ById {
  readonly id: number;
}

interface Collection<R extends ById> {
  get(id: number): Promise<R | undefined>;
  getMany(ids: readonly number[]): Promise<readonly R[]>;
}

function remembering<R extends ById, C extends Collection<R>>(collection: C): C {
  /** What a read by id found, `undefined` for no record. */
  const known = new Map<number, R | undefined>();
  const get = async (id: number): Promise<R | undefined> => {
    if (known.has(id)) return known.get(id);
    const found = await collection.get(id);
    known.set(id, found);
    return found;
  };
  const getMany = async (ids: readonly number[]): Promise<readonly R[]> => {
    const missing = [...new Set(ids.filter((id) => !known.has(id)))];
    if (missing.length > 0) {
      const found = await collection.getMany(missing);
      for (const id of missing) known.set(id, undefined);
      for (const record of found) known.set(record.id, record);
    }
    return [...new Set(ids)].flatMap((id) => known.get(id) ?? []);
  };
  return new Proxy(collection, {
    get(target, key) {
      if (key === 'get') return get;
      if (key === 'getMany') return getMany;
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (READS.has(key)) return value.bind(target);
      // A write: what it changed is read again (all of it, whatever it names).
      return (...args: unknown[]) => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).finally(() => known.clear());
    },
  });
}
