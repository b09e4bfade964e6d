// Lists asked again, parsed once and read once: a list's arguments parsed, validated and
// normalised, with its validator, kept by everything they were computed from (the raw
// arguments, the caller, the addresses, the storage's change counter and the day), so a
// repeated list or its 304 costs no parsing; and the list that plan read, kept beside it, so
// an unchanged list asked again is neither read nor rendered again.
//
// Only lists whose meaning follows the clock by the day at most are kept (a relative date such
// as `now` moves every millisecond). Any write changes the counter, so nothing kept goes stale:
// a plan and its list are only ever found again under the change number they were made at.
// That is the same argument that lets the list's validator answer 304: a kept list is what
// the request that shares its validator would read (or newer, when a write committed between
// reading the counter and reading the list; never older).
//
// Each list operation has a cache of its own (typed by its plan and its result); the bytes of
// the lists they keep share one budget per calendar.
import type { Call } from './context';
import type { ListBudget } from './list-budget';

const DAY = 86_400_000;

/** The day of an instant (epoch ms), as plans are kept by it: whole UTC days since 1970. */
export function dayOf(epochMs: number): number {
  return Math.floor(epochMs / DAY);
}

/** The plans of one list (P) and the lists they read (R). */
export interface PlanCache<P extends object, R> {
  /**
   * The plan kept for these arguments, or what `make` gives (kept when it says it may be), and
   * whether it may be kept (its meaning follows the clock by the day at most).
   */
  plan(call: Call, lastChange: number, input: Readonly<Record<string, unknown>>, make: () => Promise<{ plan: P; keep: boolean }>): Promise<{ plan: P; keep: boolean }>;
  /**
   * What `read` gives for a plan, read once while the plan is kept (concurrent callers share
   * the one read); plans that are not kept are read every time. `size` says how many bytes a
   * result holds, for the budget.
   */
  read(plan: P, read: () => Promise<R>, size: (result: R) => number): Promise<R>;
}

interface Entry<P, R> {
  readonly key: string;
  readonly plan: P;
  result: Promise<R> | undefined;
  bytes: number;
}

/** The cache of one list: at most `plans` plans (0 keeps none, and no lists), its lists within `budget`. */
export function createPlanCache<P extends object, R>(limits: { readonly plans: number; readonly budget: ListBudget }): PlanCache<P, R> {
  const byKey = new Map<string, Entry<P, R>>();
  const byPlan = new WeakMap<P, Entry<P, R>>();

  const drop = (entry: Entry<P, R>) => {
    byKey.delete(entry.key);
    byPlan.delete(entry.plan);
    limits.budget.release(entry);
  };

  return {
    async plan(call, lastChange, input, make) {
      const key = keyOf(call, lastChange, input);
      const found = key === undefined ? undefined : byKey.get(key);
      if (found !== undefined) return { plan: found.plan, keep: true };
      const made = await make();
      const { plan, keep } = made;
      if (keep && key !== undefined && limits.plans > 0) {
        const oldest = byKey.values().next();
        if (byKey.size >= limits.plans && !oldest.done) drop(oldest.value);
        const entry: Entry<P, R> = { key, plan, result: undefined, bytes: 0 };
        byKey.set(key, entry);
        byPlan.set(plan, entry);
      }
      return made;
    },

    read(plan, read, size) {
      const entry = byPlan.get(plan);
      if (entry === undefined || limits.budget.bytes === 0) return read();
      if (entry.result !== undefined) return entry.result;
      const result = read();
      entry.result = result;
      result.then((r) => {
        if (entry.result !== result || byPlan.get(plan) !== entry) return;
        entry.bytes = size(r);
        limits.budget.hold(entry);
      }, () => {
        // A failed read (a page past the end, the storage down) is not kept.
        if (entry.result === result) entry.result = undefined;
      });
      return result;
    },
  };
}

function keyOf(call: Call, lastChange: number, input: Readonly<Record<string, unknown>>): string | undefined {
  const args = argsText(input);
  if (args === undefined) return undefined;
  const who = call.principal ? `${call.principal.id} ${call.principal.role ?? ''}` : '-';
  return `${lastChange} ${dayOf(call.now)} ${who} ${call.links.siteUrl} ${call.links.apiRoot} ${args}`;
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
function argsText(input: Readonly<Record<string, unknown>>): string | undefined {
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
