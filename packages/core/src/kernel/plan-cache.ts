// Lists asked again, parsed once and read once. Two things are kept:
//
// - A list's plan (its arguments parsed, validated and normalised, its query and validator),
//   kept by everything it was computed from: the raw arguments (all of them, as JSON text),
//   the caller, the addresses and the storage's change counter; and found again only while
//   the clock is within the interval over which its dates read the same (validity.ts): for
//   ever when they are absolute, the UTC day for the default window, the second for `now`. A
//   repeated list or its 304 then costs no parsing.
// - What a plan read, kept by the complete text its validator is made from (the change
//   counter, the normalised query with every date resolved to its instant, the values, the
//   caller and the addresses), so an unchanged list asked again is neither read nor rendered
//   again, also when its plan was not kept: `start_date=now` (a plan for the second) asked again
//   later the same day finds the list of its day.
//
// Any write changes the counter, so nothing kept goes stale: a plan and its list are only ever
// found again under the change number they were made at, and a relative date is resolved
// before its list is looked up. That is the same argument that lets the list's validator
// answer 304: a kept list is what the request that shares its validator would read (or newer,
// when a write committed between reading the counter and reading the list; never older).
//
// Each list operation has a cache of its own (typed by its plan and its result); the bytes of
// the lists they keep share one budget per calendar.
import type { WireArgs } from './args';
import { holdsAt, type Validity } from '../time/validity';
import type { Call } from './context';
import type { Held, ListBudget } from './list-budget';

/** The plans of one list (P) and the lists they read (R). */
export interface PlanCache<P extends object, R> {
  /**
   * The plan kept for these arguments and still valid now, or what `make` gives (kept for the
   * interval it holds), and that interval.
   */
  plan(call: Call, lastChange: number, input: WireArgs, make: () => Promise<Planned<P>>): Promise<Planned<P>>;
  /**
   * What `read` gives for the list whose validator is made from `key` (the change counter and
   * the complete normalised query), read once while it is kept (concurrent callers share the
   * one read). `size` says how many bytes a result holds, for the budget.
   */
  read(key: string, read: () => Promise<R>, size: (result: R) => number): Promise<R>;
}

/** A plan and the instants over which it holds. */
export interface Planned<P> {
  readonly plan: P;
  readonly validity: Validity;
}

/** The cache of one list: at most `plans` plans and as many lists (0 keeps none), its lists within `budget`. */
export function createPlanCache<P extends object, R>(limits: { readonly plans: number; readonly budget: ListBudget }): PlanCache<P, R> {
  const plans = new Map<string, Planned<P>>();
  const results = new Map<string, Held & { result: Promise<R> }>();

  return {
    async plan(call, lastChange, input, make) {
      const key = keyOf(call, lastChange, input);
      const found = key === undefined ? undefined : plans.get(key);
      if (found !== undefined && holdsAt(found.validity, call.now)) return found;
      const made = await make();
      if (key !== undefined && limits.plans > 0 && made.validity.until > call.now + 1) {
        plans.delete(key);
        if (plans.size >= limits.plans) plans.delete(plans.keys().next().value!);
        plans.set(key, made);
      }
      return made;
    },

    read(key, read, size) {
      if (limits.plans === 0 || limits.budget.bytes === 0) return read();
      const kept = results.get(key);
      if (kept !== undefined) return kept.result;
      const result = read();
      const entry = {
        result,
        bytes: 0,
        forget: () => {
          if (results.get(key) === entry) results.delete(key);
        },
      };
      if (results.size >= limits.plans) {
        const oldest = results.values().next().value!;
        limits.budget.release(oldest);
        oldest.forget();
      }
      results.set(key, entry);
      result.then((r) => {
        if (results.get(key) !== entry) return;
        entry.bytes = size(r);
        limits.budget.hold(entry);
      }, () => {
        // A failed read (a page past the end, the storage down) is not kept.
        entry.forget();
      });
      return result;
    },
  };
}

/** What a plan (or a kept read) is kept by: the change counter, the caller, the addresses and the raw arguments; undefined when they are not JSON. */
export function keyOf(call: Call, lastChange: number, input: WireArgs): string | undefined {
  const args = argsText(input);
  if (args === undefined) return undefined;
  const who = call.principal ? `${call.principal.id} ${call.principal.role ?? ''}` : '-';
  return `${lastChange} ${who} ${call.links.siteUrl} ${call.links.apiRoot} ${args}`;
}

/**
 * Arguments a binding shares between every request to one address: frozen to the last level,
 * so their JSON text is computed once (see `argsText`). Returns the same object.
 */
export function sharedArgs<T extends object>(args: T): Readonly<T> {
  deepFreeze(args);
  shared.add(args);
  return args;
}

const shared = new WeakSet<object>();
const argTexts = new WeakMap<object, string>();

/** Arguments as JSON text; shared ones (sharedArgs) serialised once. */
function argsText(input: WireArgs): string | undefined {
  const known = shared.has(input) ? argTexts.get(input) : undefined;
  if (known !== undefined) return known;
  let text: string;
  try {
    text = JSON.stringify(input);
  } catch {
    return undefined; // not JSON-able (a BigInt, a cycle): not kept
  }
  if (shared.has(input)) argTexts.set(input, text);
  return text;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
