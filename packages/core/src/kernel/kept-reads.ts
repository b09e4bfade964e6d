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
import { jsonTextOf, validatorOf, withJsonText, withValidator, type Validated } from './validators';

/** A single read's answer as a binding sends it: its JSON text (UTF-8) and its validator. */
export interface KeptRead<B extends object> {
  readonly validator: string;
  /**
   * What the validator was made at: the change counter read before the answer, for all time (a
   * single read does not read the clock). While `Calendar.listUnchanged(stable)` says so, the
   * same request gets the same answer, which a binding may send again without asking.
   */
  readonly stable: ListStability;
  readonly json: Uint8Array;
  /** The answer as an object of the caller's own (parsed from `json`). */
  body(): Validated<B>;
}

type Input = WireArgs;

/** The kept reads of one operation: `json` is `run`'s answer, kept; `get` the same as an object of the caller's own. */
export interface KeptReads<B extends object> {
  json(call: Call, input: Input, run: () => Promise<Validated<B>>): Promise<KeptRead<B>>;
  get(call: Call, input: Input, run: () => Promise<Validated<B>>): Promise<Validated<B>>;
}

export function keptReads<B extends object>(config: CalendarConfig): KeptReads<B> {
  const reads: PlanCache<object, { validator: string; json: Uint8Array }> = createPlanCache(config.listCache);
  const keeps = config.listCache.plans > 0 && config.listCache.budget.bytes > 0;
  const json = async (call: Call, input: Input, run: () => Promise<Validated<B>>): Promise<KeptRead<B>> => {
    // Read first: the answer read after it is never older than the counter it is kept under.
    const lastChange = await call.storage.lastChange();
    const key = keyOf(call, lastChange, input);
    const read = async () => {
      const body = await run();
      return { validator: validatorOf(body)!, json: jsonTextOf(body) ?? utf8.encode(JSON.stringify(body)) };
    };
    const kept = key === undefined ? await read() : await reads.read(key, read, (r) => r.json.byteLength);
    return {
      validator: kept.validator,
      stable: { change: lastChange, from: ALWAYS.from, until: ALWAYS.until },
      json: kept.json,
      body: () => withValidator(withJsonText(JSON.parse(utf8Decoder.decode(kept.json)) as B, kept.json), kept.validator),
    };
  };
  return {
    json,
    // A calendar that keeps nothing (renderCache: 0) answers as it reads.
    get: async (call, input, run) => (keeps ? (await json(call, input, run)).body() : run()),
  };
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
