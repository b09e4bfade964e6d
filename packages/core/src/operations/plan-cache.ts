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
import type { Call } from './call';

const DAY = 86_400_000;

export interface PlanCache {
  /** The plan kept for these arguments, or what `make` gives (kept when it says it may be). */
  plan<P extends object>(call: Call, list: string, lastChange: number, input: Readonly<Record<string, unknown>>, make: () => Promise<{ plan: P; keep: boolean }>): Promise<P>;
  /**
   * What `read` gives for a plan, read once while the plan is kept (concurrent callers share
   * the one read); plans that are not kept are read every time. `size` says how many bytes a
   * result holds, for the budget.
   */
  read<R>(plan: object, read: () => Promise<R>, size: (result: R) => number): Promise<R>;
}

export interface PlanCacheLimits {
  /** Plans kept at most; 0 keeps none (and no lists). */
  readonly plans: number;
  /** Bytes of kept lists at most; the least recently made go first. 0 keeps no lists. */
  readonly bytes: number;
}

interface Entry {
  readonly key: string;
  readonly plan: object;
  result?: Promise<unknown>;
  bytes: number;
}

/** A cache of plans and of the lists they read, within `limits`. */
export function createPlanCache(limits: PlanCacheLimits): PlanCache {
  const byKey = new Map<string, Entry>();
  const byPlan = new WeakMap<object, Entry>();
  let bytes = 0;

  const drop = (entry: Entry) => {
    byKey.delete(entry.key);
    byPlan.delete(entry.plan);
    bytes -= entry.bytes;
  };
  /** Forgets the oldest lists until the budget holds, keeping their plans. */
  const trim = (keep: Entry) => {
    for (const entry of byKey.values()) {
      if (bytes <= limits.bytes) return;
      if (entry === keep || entry.result === undefined) continue;
      entry.result = undefined;
      bytes -= entry.bytes;
      entry.bytes = 0;
    }
  };

  return {
    async plan(call, list, lastChange, input, make) {
      const key = keyOf(call, list, lastChange, input);
      const found = key === undefined ? undefined : byKey.get(key);
      if (found !== undefined) return found.plan as never;
      const { plan, keep } = await make();
      if (keep && key !== undefined && limits.plans > 0) {
        if (byKey.size >= limits.plans) drop(byKey.values().next().value!);
        const entry: Entry = { key, plan, bytes: 0 };
        byKey.set(key, entry);
        byPlan.set(plan, entry);
      }
      return plan;
    },

    read(plan, read, size) {
      const entry = byPlan.get(plan);
      if (entry === undefined || limits.bytes === 0) return read();
      if (entry.result !== undefined) return entry.result as ReturnType<typeof read>;
      const result = read();
      entry.result = result;
      result.then((r) => {
        if (entry.result !== result || byPlan.get(plan) !== entry) return;
        entry.bytes = size(r);
        bytes += entry.bytes;
        if (entry.bytes > limits.bytes) {
          entry.result = undefined;
          bytes -= entry.bytes;
          entry.bytes = 0;
        } else trim(entry);
      }, () => {
        // A failed read (a page past the end, the storage down) is not kept.
        if (entry.result === result) entry.result = undefined;
      });
      return result;
    },
  };
}

function keyOf(call: Call, list: string, lastChange: number, input: Readonly<Record<string, unknown>>): string | undefined {
  let args: string;
  try {
    args = JSON.stringify(input);
  } catch {
    return undefined; // not JSON-able (a BigInt, a cycle): not kept
  }
  const who = call.principal ? `${call.principal.id} ${call.principal.role ?? ''}` : '-';
  return `${list} ${lastChange} ${Math.floor(call.now / DAY)} ${who} ${call.links.siteUrl} ${call.links.apiRoot} ${args}`;
}
