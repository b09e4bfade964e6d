// Declared arguments and the first steps of the reference's request pipeline (behaviour reference:
// "Request pipeline"): defaults, then the required check, then validation of every present
// argument. Operations declare their arguments once; @evcal/http documents them from the same
// declarations.
import * as v from 'valibot';
import { CalendarError, INVALID_PARAMETER, invalidParams, type ParamFailure } from '../domain/errors';
import { msg, type Message } from '../domain/messages';
import { NOT_OF_TYPE, ruleOf } from './wire-schemas';

export type { ArgContext } from './context';
export { newArgMemo, type ArgMemo, type MemoRecords } from './arg-memo';
import type { ArgContext } from './context';

/** One declared argument of an operation: TOut is what the operation receives, TIn what a caller may pass. */
export interface ArgSpec<TOut = unknown, TIn = unknown> {
  /** A present value must pass it; its output is what the operation receives. */
  readonly schema: v.GenericSchema<TIn, TOut>;
  readonly required?: boolean;
  /** Injected when the argument is absent; a function is evaluated per call. */
  readonly default?: unknown | ((ctx: ArgContext) => unknown);
  readonly description: string;
  /**
   * The JSON type named in "… is not of type …" messages when a value is of none of the
   * types the schema takes (a value of the right type breaking a bound gets the schema's rule).
   */
  readonly type?: 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';
  /** The rule a refused value broke (`{param}`, `{value}`), when the schema's own (wire-schemas `withRule`) is not the one to show. */
  readonly rule?: Message;
  /** Validation needing storage or the caller: a failure (message, or message and code), or undefined when valid. */
  readonly validate?: (value: TOut, ctx: ArgContext) => Promise<ArgFailure | undefined> | ArgFailure | undefined;
}

/** A failed `validate`: the message, or the message and the underlying error code. */
export type ArgFailure = Message | { readonly message: Message; readonly code: string };

export type ArgSpecs = Readonly<Record<string, ArgSpec<any, any>>>;

/** The parsed values of declared arguments. */
export type ArgValues<S extends ArgSpecs> = {
  -readonly [K in keyof S]?: S[K] extends ArgSpec<infer T, any> ? T : never;
};

/**
 * The arguments of a call as they arrive, not yet validated: a request's parameters (whatever
 * JSON the wire carries) or an app's typed input (`ArgInput`). Only `parseArgs` reads them; an
 * operation's handler works with what it returns (`ArgValues`: each schema's output type).
 */
export type WireArgs = Readonly<Record<string, unknown>>;

/** The values a caller may pass for declared arguments (each schema's input type, `v.InferInput`). */
export type ArgInput<S extends ArgSpecs> = {
  -readonly [K in keyof S]?: S[K] extends ArgSpec<any, infer I> ? I : unknown;
};

export function arg<TOut, TIn>(spec: ArgSpec<TOut, TIn>): ArgSpec<TOut, TIn> {
  return spec;
}

/**
 * Runs defaults, the required check and validation over `raw`. Throws `missing_params` or
 * `invalid_params` (names in declaration order) the way the reference does; returns the
 * parsed values of the present arguments and the names the caller actually sent.
 */
export async function parseArgs<S extends ArgSpecs>(
  specs: S, raw: WireArgs, ctx: ArgContext,
): Promise<{ values: ArgValues<S>; sent: ReadonlySet<string> }> {
  const { entries, required } = declared(specs);
  // The present arguments, in declaration order.
  const present: [name: string, spec: ArgSpec, value: unknown][] = [];
  const sent = new Set<string>();
  for (const [name, spec] of entries) {
    const value = raw[name];
    if (value !== undefined && value !== null) {
      present.push([name, spec, value]);
      sent.add(name);
    } else if (spec.default !== undefined) {
      present.push([name, spec, typeof spec.default === 'function' ? (spec.default as (c: ArgContext) => unknown)(ctx) : spec.default]);
    }
  }

  const missing = required.filter((name) => !present.some(([n, , value]) => n === name && value !== undefined));
  if (missing.length > 0) {
    throw new CalendarError('missing_params', msg('Missing parameter(s): {params}', { params: missing.join(', ') }), { details: { params: missing } });
  }

  const values: Record<string, unknown> = {};
  const failures: ParamFailure[] = [];
  for (const [name, spec, value] of present) {
    // No text may carry a NUL character (databases cannot store it, and no legitimate value has one).
    if (containsNul(value)) {
      failures.push({ param: name, message: msg('{param} must not contain the character U+0000 (NUL).', { param: name }) });
      continue;
    }
    const result = v.safeParse(spec.schema, value);
    if (!result.success) {
      failures.push(refusal(name, spec, value, result.issues));
      continue;
    }
    if (spec.validate) {
      const failure = await spec.validate(result.output, ctx);
      if (failure !== undefined) {
        failures.push('template' in failure ? { param: name, message: failure } : { param: name, ...failure });
        continue;
      }
    }
    values[name] = result.output;
  }
  if (failures.length > 0) throw invalidParams(failures);
  return { values: values as ArgValues<S>, sent };
}

/** Each declaration's entries and required names, listed once (an operation declares up to 50). */
const declarations = new WeakMap<ArgSpecs, { entries: [string, ArgSpec][]; required: string[] }>();

function declared(specs: ArgSpecs): { entries: [string, ArgSpec][]; required: string[] } {
  let found = declarations.get(specs);
  if (!found) {
    const entries = Object.entries(specs) as [string, ArgSpec][];
    found = { entries, required: entries.filter(([, spec]) => spec.required).map(([name]) => name) };
    declarations.set(specs, found);
  }
  return found;
}

/**
 * Why a value was refused, naming the rule: "… is not of type …" (the reference's words) when
 * it is of none of the types the schema takes, else the schema's rule (`ruleOf`), else the
 * reference's "Invalid parameter.".
 */
function refusal(name: string, spec: ArgSpec, value: unknown, issues: readonly v.BaseIssue<unknown>[]): ParamFailure {
  const wrongType = issues[0]?.kind === 'schema' || issues[0]?.message === NOT_OF_TYPE;
  if (wrongType && spec.type) return { param: name, message: msg('{param} is not of type {type}.', { param: name, type: spec.type }), code: 'rest_invalid_type' };
  const rule = spec.rule ?? ruleOf(spec.schema);
  if (!rule) return { param: name, message: INVALID_PARAMETER };
  return { param: name, message: { ...rule, values: { ...rule.values, param: name, value: shown(value) } } };
}

/** A value as a message shows it: text as sent (at most 100 characters), anything else as JSON. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 16 || value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}
