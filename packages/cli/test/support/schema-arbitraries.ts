// fast-check arbitraries derived from the JSON Schemas of an OpenAPI 3.0 document, as a
// schema-driven API fuzzer derives requests: values a schema allows, and values it forbids.
// Both are checked with ajv against the document itself, so a generator that strays (a
// pattern's lookaheads, which fast-check cannot generate, are dropped and the values
// filtered) never mislabels a value.
import Ajv, { type ValidateFunction } from 'ajv';
import fc from 'fast-check';

export type Schema = Record<string, any>;

/** An OpenAPI 3.0 document as ajv reads it: boolean exclusive bounds become numbers. */
export function forAjv<T>(doc: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v);
    for (const [flag, bound] of [['exclusiveMaximum', 'maximum'], ['exclusiveMinimum', 'minimum']] as const) {
      if (typeof out[flag] !== 'boolean') continue;
      if (out[flag]) out[flag] = out[bound];
      else delete out[flag];
      if (out[flag] !== undefined) delete out[bound];
    }
    return out;
  };
  return walk(doc) as T;
}

/** Schemas of one document: resolves references and validates values (the document is the ajv resource). */
export class DocSchemas {
  readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  /**
   * Path values are texts read as the schema's type (OpenAPI's deserialization: "5" is the
   * integer 5). Query values are not: every query parameter of /doc states its texts (a string
   * branch with a pattern); its typed branches are for JSON bodies, not for texts such as "1e1".
   */
  private readonly textAjv = new Ajv({ strict: false, allErrors: false, validateFormats: false, coerceTypes: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: Schema) {
    this.ajv.addSchema({ ...forAjv(doc), $id: 'evcal-doc' });
    this.textAjv.addSchema({ ...forAjv(doc), $id: 'evcal-doc' });
  }

  /** The validator of the schema at a JSON pointer of the document (`asText`: of a path value). */
  validator(pointer: string, asText = false): ValidateFunction {
    const key = `${asText}:${pointer}`;
    let v = this.compiled.get(key);
    if (!v) {
      v = (asText ? this.textAjv : this.ajv).getSchema(`evcal-doc#${pointer}`);
      if (!v) throw new Error(`no schema at ${pointer}`);
      this.compiled.set(key, v);
    }
    return v;
  }

  /** A schema with its top-level `$ref` and `allOf` of one resolved (the keywords this document uses). */
  resolve(schema: Schema): Schema {
    if (typeof schema.$ref === 'string') return this.resolve(this.at(schema.$ref.slice(1)));
    if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
      const { allOf, ...rest } = schema;
      return { ...this.resolve(allOf[0]), ...rest, description: undefined };
    }
    return schema;
  }

  at(pointer: string): Schema {
    return pointer.split('/').slice(1).reduce((node: any, part) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], this.doc);
  }
}

/** What a generator gives when it strayed outside its schema: the run is skipped (fc.pre), never looped on. */
export const STRAYED: unique symbol = Symbol('strayed');

/**
 * Values `schema` allows (a query or path value: `asText` makes every scalar the text a URL carries),
 * or STRAYED for a generated value the schema refuses (a pattern's dropped lookahead).
 */
export function validValue(schemas: DocSchemas, schema: Schema, valid: (x: unknown) => boolean, asText = false): fc.Arbitrary<unknown> {
  return raw(schemas, schema, asText).map((x) => (valid(x) ? x : STRAYED));
}

/**
 * Values `schema` forbids: of another JSON type, out of its bounds, off its pattern or enum.
 * `asText`: only texts (a query or path carries nothing else); `keep`: the values worth sending.
 * Undefined when no probe is forbidden.
 */
export function invalidValue(schemas: DocSchemas, schema: Schema, valid: (x: unknown) => boolean, asText = false, keep: (x: unknown) => boolean = () => true): fc.Arbitrary<unknown> | undefined {
  const s = schemas.resolve(schema);
  const near: unknown[] = ['', ' ', '0', '-1', '1.5', 'abc', 'x'.repeat(300), '1e400', 'NaN', 'true', '%2C', ',', '0,0', '\u00e9t\u00e9', '2026-13-45', 'Mars/Olympus', 'javascript:alert(1)'];
  if (!asText) near.push(0, -1, 1.5, 1e15, -598, true, false, null, {}, [], [0], [''], { id: 'x' }, 'x'.repeat(70));
  for (const bound of [s.minimum, s.maximum, ...(s.anyOf ?? []).flatMap((b: Schema) => [b.minimum, b.maximum])]) {
    if (typeof bound === 'number') near.push(bound - 1, bound + 1, ...(asText ? [String(bound - 1), String(bound + 1)] : []));
  }
  const anything = asText ? fc.string({ maxLength: 40 }) : fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));
  const off = near.filter((x) => !valid(x) && keep(x));
  // A schema that admits every probe (a free text) has nothing to forbid a query can carry.
  if (off.length === 0) return undefined;
  // A random value the schema allows is replaced by a forbidden probe: bounded, never a filter's loop.
  const random = fc.tuple(anything, fc.constantFrom(...off)).map(([x, probe]) => (valid(x) || !keep(x) ? probe : x));
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...off) }, { weight: 2, arbitrary: random });
}

// ---- helpers ----

function raw(schemas: DocSchemas, input: Schema, asText: boolean): fc.Arbitrary<unknown> {
  const s = schemas.resolve(input);
  if (s.not && Object.keys(s.not).length === 0 && Object.keys(s).filter((k) => k !== 'description').length === 1) return fc.constant(undefined);
  const text = (a: fc.Arbitrary<unknown>) => (asText ? a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))) : a);
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const branches = (s.anyOf ?? s.oneOf) as Schema[];
    return fc.oneof(...branches.map((b) => raw(schemas, { ...(s.type ? { type: s.type } : {}), ...b }, asText)));
  }
  if (Array.isArray(s.enum)) return text(fc.constantFrom(...s.enum));
  switch (s.type) {
    case 'boolean': return text(fc.boolean());
    case 'integer': return text(fc.integer({ min: Math.max(s.minimum ?? -1e6, -1e6), max: Math.min(s.maximum ?? 1e6, 1e6) }));
    case 'number': return text(fc.oneof(
      fc.double({ min: Math.max(s.minimum ?? -1e6, -1e6), max: Math.min(s.maximum ?? 1e6, 1e6), noNaN: true }),
      fc.integer({ min: Math.max(s.minimum ?? -1e6, -1e6), max: Math.min(s.maximum ?? 1e6, 1e6) }),
    ));
    case 'string': {
      if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(withoutLookaheads(s.pattern))).filter((x) => x.length <= (s.maxLength ?? Infinity));
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 30), unit: 'grapheme-ascii' });
    }
    case 'array': return asText
      ? fc.array(raw(schemas, s.items ?? {}, true), { minLength: s.minItems ?? 0, maxLength: 3 }).map((items) => items.join(','))
      : fc.array(raw(schemas, s.items ?? {}, false), { minLength: s.minItems ?? 0, maxLength: 3 });
    case 'object': return fc.constant({});
    default: return text(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()));
  }
}

/** A pattern without its lookahead groups (fast-check cannot generate them; values are filtered by the whole pattern after). */
function withoutLookaheads(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (pattern.startsWith('(?!', i) || pattern.startsWith('(?=', i)) {
      let depth = 0;
      for (let j = i; j < pattern.length; j++) {
        if (pattern[j] === '\\') { j++; continue; }
        if (pattern[j] === '(') depth++;
        if (pattern[j] === ')' && --depth === 0) { i = j; break; }
      }
      continue;
    }
    out += pattern[i];
  }
  return out;
}
