// Single reads asked again, read once: what `GET /events/{id}` answered (its JSON text and its
// validator), kept by the storage's change counter, the caller, the addresses and the complete
// raw arguments, as lists are (plan-cache.ts). A repeated read then costs one read of the
// change counter (one round trip on PostgreSQL, none on SQLite and memory), where reading and
// rendering it cost the event, its venues, organizers and terms and their counts. Any write
// changes the counter, so a kept read is never older than what reading it again would give;
// refusals (404, 401, a wrong password) are not kept. The texts share the lists' byte budget.
import type { WireArgs } from './args';
import { createPlanCache, keyOf, type PlanCache } from './plan-cache';
import type { Call } from './call';
import type { CalendarConfig, ListStability } from './context';
import { ALWAYS } from '../time/validity';
import { parsedLazily, type Representation } from './representation';

/**
 * A single read's answer as a binding sends it: a representation whose JSON text (UTF-8) is
 * always there (`value` is parsed from it when first asked for, an object of the caller's own).
 */
export interface KeptRead<B> extends Representation<B> {
  readonly bytes: Uint8Array;
  /**
   * What the validator was made at: the change counter read before the answer, for all time (a
   * single read does not read the clock). While `Calendar.listUnchanged(stable)` says so, the
   * same request gets the same answer, which a binding may send again without asking.
   */
  readonly stable: ListStability;
}

type Input = WireArgs;

/** The kept reads of one operation: `json` is `run`'s answer, kept; `get` the same, or `run`'s answer when nothing is kept. */
export interface KeptReads<B> {
  json(call: Call, input: Input, run: () => Promise<Representation<B>>): Promise<KeptRead<B>>;
  get(call: Call, input: Input, run: () => Promise<Representation<B>>): Promise<Representation<B>>;
}

export function keptReads<B>(config: CalendarConfig): KeptReads<B> {
  const reads: PlanCache<object, { validator: string; bytes: Uint8Array }> = createPlanCache(config.listCache);
  const keeps = config.listCache.plans > 0 && config.listCache.budget.bytes > 0;
  const json = async (call: Call, input: Input, run: () => Promise<Representation<B>>): Promise<KeptRead<B>> => {
    // Read first: the answer read after it is never older than the counter it is kept under.
    const lastChange = await call.storage.lastChange();
    const key = keyOf(call, lastChange, input);
    const read = async () => {
      // `value` only when there are no bytes: reading it may parse them.
      const answer = await run();
      return { validator: answer.validator, bytes: answer.bytes ?? utf8.encode(JSON.stringify(answer.value)) };
    };
    const kept = key === undefined ? await read() : await reads.read(key, read, (r) => r.bytes.byteLength);
    return parsedLazily(kept.bytes, kept.validator, { stable: { change: lastChange, from: ALWAYS.from, until: ALWAYS.until } });
  };
  return {
    json,
    // A calendar that keeps nothing (renderCache: 0) answers as it reads.
    get: async (call, input, run) => (keeps ? json(call, input, run) : run()),
  };
}

const utf8 = new TextEncoder();
