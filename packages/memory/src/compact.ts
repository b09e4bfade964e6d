// Compact copies of the records a table keeps. Records built with object spread (as core
// builds them) each get a hidden class of their own in V8: about 1 KB of shape metadata per
// record, more than the record's own fields. A copy made by an object literal with the same
// keys in the same order shares one shape with every other record of that key set; arrays are
// copied to their exact length; short strings (statuses, zones, wall-clock dates) are shared
// through the engine's string table. The copy is equal to the record, key order included.

type Factory = (values: readonly unknown[], value: (v: unknown) => unknown) => Record<string, unknown>;

const factories = new Map<string, Factory | null>();
/** Strings up to this length are shared: they repeat (dates, zones, statuses), titles rarely fit. */
const SHARED_STRING_MAX = 24;
const pool = new Map<string, string>();
const POOL_MAX = 65_536;

/** The engine's single copy of a short string (property keys are interned by V8). */
function shared(s: string): string {
  let found = pool.get(s);
  if (found === undefined) {
    const holder: Record<string, number> = { [s]: 0 };
    for (const key in holder) found = key;
    found ??= s;
    // The pool only speeds up lookups; the engine's table keeps nothing alive, so dropping
    // the pool when it grows large is safe.
    if (pool.size >= POOL_MAX) pool.clear();
    pool.set(found, found);
  }
  return found;
}

function compactValue(v: unknown): unknown {
  if (typeof v === 'string') return v.length <= SHARED_STRING_MAX ? shared(v) : v;
  if (Array.isArray(v)) return v.slice();
  return v;
}

function factoryFor(keys: readonly string[]): Factory | null {
  const signature = keys.join('\u0000');
  let factory = factories.get(signature);
  if (factory === undefined) {
    factory = null;
    // "__proto__" in a literal sets the prototype instead of a property.
    if (!keys.includes('__proto__') && keys.length <= 200) {
      try {
        const fields = keys.map((k, i) => `${JSON.stringify(k)}: value(values[${i}])`).join(', ');
        factory = new Function('values', 'value', `return { ${fields} };`) as Factory;
      } catch {
        factory = null; // no code generation here (e.g. a strict CSP): keep records as given
      }
    }
    if (factories.size < 64) factories.set(signature, factory);
  }
  return factory;
}

/** A copy of a plain record with a shared shape, or the record itself when it cannot be copied exactly. */
export function compact<R extends object>(record: R): R {
  if (record === null || typeof record !== 'object' || Object.getPrototypeOf(record) !== Object.prototype) return record;
  const keys = Object.keys(record);
  if (Object.getOwnPropertySymbols(record).length > 0 || Object.getOwnPropertyNames(record).length !== keys.length) return record;
  const factory = factoryFor(keys);
  return factory ? (factory(Object.values(record), compactValue) as R) : record;
}
