// The recurrence horizon: series without COUNT or UNTIL have their occurrences stored up to an
// instant the storage keeps (`sequences.peek('horizon')`), which moves forward as time passes
// (createCalendar rolls it before operations, `evcal serve` also on a timer) and when a list
// reaches past it. Series with an end are stored whole, whatever the horizon.
import { POST_STATUSES, type EventRecord } from '../model/records';
import type { EventQuery } from '../query/query-types';
import type { Call, CalendarConfig, HorizonKeeper } from '../kernel/context';
import { runWrite } from '../kernel/write';
import { isStorageFault } from '../storage/storage-errors';
import { ruleParts } from '../recurrence/expand';
import { occurrenceId } from '../model/occurrence-id';
import { occurrenceOf, seriesStarts } from './series-occurrences';

const DAY = 86_400_000;
/** More than monthsAhead can grow beyond the time that passed (5 days: month lengths, leap days). */
const MONTH_LENGTH_SLACK = 7 * DAY;

/** What keeps the horizon of one calendar (in this process: a cache of the storage's value). */
export function createHorizonKeeper(config: Pick<CalendarConfig, 'recurrence'>): HorizonKeeper {
  let known = Number.NEGATIVE_INFINITY;
  /**
   * Until when the known horizon is surely far enough ahead. monthsAhead grows as fast as time
   * but for month lengths and leap days (at most 5 days more; horizon.test.ts checks it), so a horizon
   * `known - due` ahead of what `now` needs is enough for that long less a week.
   */
  let enoughUntil = Number.NEGATIVE_INFINITY;
  const settings = config.recurrence;
  const enough = (now: number): boolean => {
    if (settings.horizonMonths === 0 || now <= enoughUntil) return true;
    const due = monthsAhead(now, settings.horizonMonths);
    if (known < due) return false;
    enoughUntil = now + (known - due) - MONTH_LENGTH_SLACK;
    return true;
  };
  const refresh = async (call: Call) => {
    known = Math.max(known, await call.storage.sequences.peek('horizon'));
    return known;
  };
  const extend = async (call: Call, until: number) => {
    await extendHorizon(call, until);
    known = Math.max(known, until);
  };
  return {
    lags: (now) => !enough(now),
    async roll(call) {
      if (enough(call.now)) return;
      await refresh(call);
      if (enough(call.now)) return;
      await extend(call, monthsAhead(call.now, settings.horizonMonths + 1));
    },
    async reach(call, until) {
      if (settings.horizonMonths === 0 || until <= known) return false;
      if ((await refresh(call)) >= until) return false;
      const target = Math.min(Math.ceil(until / DAY) * DAY, monthsAhead(call.now, settings.maxHorizonMonths));
      if (target <= known) return false;
      try {
        await extend(call, target);
      } catch (error) {
        // A storage that takes no writes now (full, read-only): the list is read as stored.
        if (isStorageFault(error)) return false;
        throw error;
      }
      return true;
    },
    async forWrite(call) {
      const stored = await call.storage.sequences.peek('horizon');
      return Math.max(stored, monthsAhead(call.now, settings.horizonMonths), known);
    },
  };
}

/** The latest instant a list query can include (its end bounds, and starts before): undefined when open. */
export function queryReach(query: EventQuery): number | undefined {
  const bounds = [query.end?.lt, query.end?.lte, query.start?.lt, query.start?.lte].filter((x): x is number => x !== undefined);
  return bounds.length ? Math.min(...bounds) : undefined;
}

/**
 * Stores the occurrences of every series without an end up to `until` and records the new
 * horizon, in one write transaction; nothing when the horizon is there already.
 */
export async function extendHorizon(call: Call, until: number): Promise<void> {
  await runWrite(call, async (c) => {
    const from = await c.storage.sequences.peek('horizon');
    if (from >= until) return;
    const { items } = await c.storage.events.list({
      records: 'series', statuses: POST_STATUSES, excludeHidden: false, sort: [{ field: 'id', direction: 'asc' }],
    });
    const unlimited = { ...c.config.recurrence, maxOccurrences: Number.MAX_SAFE_INTEGER };
    const open = items.filter((series) => !isBounded(series));
    // Without such series nothing is written (reads stay reads): a series written later is
    // stored up to `horizonMonths` ahead of its write anyway.
    if (open.length === 0) return;
    for (const series of open) {
      const fresh = seriesStarts(series, until, unlimited).starts.filter((g) => g.startUtc > from);
      const ids = fresh.map((g) => occurrenceId(series.recurrence!.idBase, g.date));
      const stored = new Set((await c.storage.events.getMany(ids)).map((e) => e.id));
      for (const g of fresh) {
        if (!stored.has(occurrenceId(series.recurrence!.idBase, g.date))) await c.storage.events.insert(occurrenceOf(series, g, undefined, c.storage.change));
      }
    }
    await c.storage.sequences.bump('horizon', until);
  });
}

/** Whether a series' rule ends (COUNT, UNTIL, or RDATEs alone). */
export function isBounded(series: EventRecord): boolean {
  const rrule = series.recurrence?.rrule ?? '';
  if (rrule === '') return true;
  const parts = ruleParts(rrule);
  return parts.has('COUNT') || parts.has('UNTIL');
}

/** The instant `months` calendar months after `now` (UTC). */
export function monthsAhead(now: number, months: number): number {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
}
