// Lists asked again, parsed once: a list's arguments parsed, validated and normalised, with its
// validator, kept by everything they were computed from (the raw arguments, the caller, the
// addresses, the storage's change counter and the day), so a repeated list or its 304 costs no
// parsing. Only lists whose meaning follows the clock by the day at most are kept (a relative
// date such as `now` moves every millisecond); any write changes the counter, so nothing read
// from storage while parsing (terms named by slug) goes stale.
import type { Call } from './call';

const DAY = 86_400_000;

/** The plans of one list (P: its plan). */
export interface PlanCache<P> {
  /** The plan kept for these arguments, or what `make` gives (kept when it says it may be). */
  plan(call: Call, lastChange: number, input: Readonly<Record<string, unknown>>, make: () => Promise<{ plan: P; keep: boolean }>): Promise<P>;
}

/** A cache of at most `entries` plans of one list; 0 keeps none. */
export function createPlanCache<P>(entries: number): PlanCache<P> {
  const kept = new Map<string, P>();
  return {
    async plan(call, lastChange, input, make) {
      const key = keyOf(call, lastChange, input);
      const found = key === undefined ? undefined : kept.get(key);
      if (found !== undefined) return found;
      const { plan, keep } = await make();
      if (keep && key !== undefined && entries > 0) {
        if (kept.size >= entries) kept.delete(kept.keys().next().value!);
        kept.set(key, plan);
      }
      return plan;
    },
  };
}

function keyOf(call: Call, lastChange: number, input: Readonly<Record<string, unknown>>): string | undefined {
  let args: string;
  try {
    args = JSON.stringify(input);
  } catch {
    return undefined; // not JSON-able (a BigInt, a cycle): not kept
  }
  const who = call.principal ? `${call.principal.id} ${call.principal.role ?? ''}` : '-';
  return `${lastChange} ${Math.floor(call.now / DAY)} ${who} ${call.links.siteUrl} ${call.links.apiRoot} ${args}`;
}
