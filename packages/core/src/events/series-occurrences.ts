// Materialising a series: its occurrences are stored as events (ids above MAX_ID, parentId
// the series), so that lists, filters, totals and paging treat them as the events they are
// and every storage answers them from its indexes. They are rewritten in the transaction of
// every write to their series, and only those whose record changes are written: an edit
// reports exactly the occurrences it added, changed and removed.
import { invalidParam } from '../domain/errors';
import { msg } from '../domain/messages';
import { OVERRIDABLE_FIELDS, type EventOverrides, type EventRecord } from '../model/records';
import { addDays, daysBetween, formatWall, parseWall } from '../time/wall-clock';
import { instantToWall, resolveZone, wallToInstant, zoneAbbreviation } from '../time/zone';
import type { RecurrenceSettings, WriteCall } from '../kernel/context';

export type { RecurrenceSettings } from '../kernel/context';
import { expandRecurrence, RecurrenceProblem, ruleParts, type GeneratedStart } from '../recurrence/expand';
import { occurrenceId } from '../model/occurrence-id';

/**
 * The starts of a series: its whole set when bounded, else up to `horizon`. A problem with
 * the rule becomes a 400 naming `param`.
 */
export function seriesStarts(series: EventRecord, horizon: number, settings: RecurrenceSettings, param = 'recurrence'): { starts: readonly GeneratedStart[]; bounded: boolean } {
  const rec = series.recurrence!;
  const zone = resolveZone(series.timezone)!;
  try {
    const parts = rec.rrule === '' ? undefined : ruleParts(rec.rrule);
    if (parts && !parts.has('COUNT') && !parts.has('UNTIL') && settings.horizonMonths === 0) {
      throw new RecurrenceProblem(msg('A recurrence without COUNT or UNTIL needs a horizon; give it a COUNT or an UNTIL.'));
    }
    return expandRecurrence(parseWall(series.startLocal)!, zone, rec, horizon, settings.maxOccurrences, series.allDay);
  } catch (error) {
    if (error instanceof RecurrenceProblem) throw invalidParam(param, error.text);
    throw error;
  }
}

/**
 * Brings the stored occurrences of `series` (`existing`, all of them) in line with it: each
 * start gets its record (an exception keeps its own changes), records no start has any more
 * are removed. `starts` may be given when already computed.
 */
export async function materialise(
  c: WriteCall, series: EventRecord, existing: readonly EventRecord[], horizon: number, settings: RecurrenceSettings,
  starts = seriesStarts(series, horizon, settings).starts,
): Promise<void> {
  const byId = new Map(existing.map((e) => [e.id, e]));
  const wanted = new Map<number, EventRecord>();
  for (const g of starts) {
    const id = occurrenceId(series.recurrence!.idBase, g.date);
    wanted.set(id, occurrenceOf(series, g, byId.get(id)?.occurrence?.overrides, c.storage.change));
  }
  const fresh = [...wanted.keys()].filter((id) => !byId.has(id));
  const taken = fresh.length ? await c.storage.events.getMany(fresh) : [];
  const clash = taken.find((e) => e.parentId !== series.id);
  if (clash) {
    throw invalidParam('recurrence', msg('The series would have an occurrence on {date}, which belongs to the series {id}.', { date: clash.occurrence?.date ?? '', id: clash.parentId }));
  }
  for (const [id, record] of wanted) {
    const prior = byId.get(id) ?? taken.find((e) => e.id === id);
    if (!prior) await c.storage.events.insert(record);
    else if (!sameEvent(prior, record)) await c.storage.events.replace(record);
  }
  for (const e of existing) {
    if (!wanted.has(e.id)) await c.storage.events.delete(e.id);
  }
}

/** Makes the stored occurrence of `series` on `date` an exception with these changes (imports). */
export async function applyException(c: WriteCall, series: EventRecord, date: string, overrides: EventOverrides): Promise<void> {
  const current = await c.storage.events.get(occurrenceId(series.recurrence!.idBase, date));
  if (!current?.occurrence) throw invalidParam('occurrence', msg('The series has no occurrence on {date}.', { date }));
  const zone = resolveZone(series.timezone)!;
  const g = { date, start: current.occurrence.originalStart, startUtc: wallToInstant(parseWall(current.occurrence.originalStart)!, zone) };
  await c.storage.events.replace(occurrenceOf(series, g, overrides, c.storage.change));
}

/** Every stored occurrence of a series. */
export async function occurrencesOf(c: { storage: WriteCall['storage'] }, seriesId: number): Promise<EventRecord[]> {
  const page = await c.storage.events.list({
    records: 'listed', statuses: ALL_STATUSES, excludeHidden: false, parentId: seriesId, sort: [{ field: 'id', direction: 'asc' }],
  });
  return page.items.filter((e) => e.occurrence !== undefined);
}

const ALL_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit'] as const;

/**
 * The record of the occurrence of `series` starting at `g`: the series' fields, its own times
 * (the series' duration; all-day series keep their number of days), and its exception's
 * changes. A trashed series trashes every occurrence. An end the series gives is its start
 * plus the series' length, exactly: read back from its wall clock, an end in the second pass
 * of a repeated hour would be placed in the first, before the start.
 */
export function occurrenceOf(series: EventRecord, g: GeneratedStart, overrides: EventOverrides | undefined, revision: number): EventRecord {
  const { recurrence, occurrence: _, icalUid: __, lineage: ___, ...fields } = series;
  const zoneName = overrides?.timezone ?? series.timezone;
  const zone = resolveZone(zoneName) ?? resolveZone(series.timezone)!;
  let startLocal: string;
  let endLocal: string;
  let generatedEnd: number | undefined;
  if (series.allDay) {
    const days = daysBetween(series.startLocal, series.endLocal);
    startLocal = `${g.date} 00:00:00`;
    endLocal = `${formatWall(addDays(parseWall(startLocal)!, days)).slice(0, 10)} 23:59:59`;
  } else {
    startLocal = g.start;
    generatedEnd = g.startUtc + (series.endUtc - series.startUtc);
    endLocal = formatWall(instantToWall(generatedEnd, zone));
  }
  const ownTimes = overrides?.startLocal !== undefined || overrides?.endLocal !== undefined || overrides?.timezone !== undefined;
  startLocal = overrides?.startLocal ?? startLocal;
  endLocal = overrides?.endLocal ?? endLocal;
  const startUtc = wallToInstant(parseWall(startLocal)!, zone);
  const endUtc = generatedEnd !== undefined && !ownTimes ? generatedEnd : wallToInstant(parseWall(endLocal)!, zone);
  const modified = overrides?.modifiedUtc !== undefined && overrides.modifiedUtc > series.modifiedUtc
    ? { modified: overrides.modified ?? series.modified, modifiedUtc: overrides.modifiedUtc }
    : { modified: series.modified, modifiedUtc: series.modifiedUtc };
  return {
    ...fields,
    ...overrides,
    ...modified,
    id: occurrenceId(recurrence!.idBase, g.date),
    parentId: series.id,
    status: series.status === 'trash' ? 'trash' : overrides?.status ?? series.status,
    slug: series.slug === '' ? '' : `${series.slug}/${g.date}`,
    timezone: zoneName,
    timezoneAbbr: zoneAbbreviation(zone, startUtc),
    startLocal,
    endLocal,
    startUtc,
    endUtc,
    revision,
    occurrence: { date: g.date, originalStart: g.start, ...(overrides && Object.keys(overrides).length ? { overrides } : {}) },
  };
}

/**
 * What an occurrence changes on its own: the fields of `updated` that differ from what its
 * series gives it (`generated`). Nothing when it is just as its series makes it.
 */
export function overridesOf(updated: EventRecord, generated: EventRecord): EventOverrides | undefined {
  const out: Record<string, unknown> = {};
  for (const field of OVERRIDABLE_FIELDS) {
    if (field === 'modified' || field === 'modifiedUtc') continue;
    if (!sameValue(updated[field], generated[field])) out[field] = updated[field];
  }
  if (Object.keys(out).length === 0) return undefined;
  out.modified = updated.modified;
  out.modifiedUtc = updated.modifiedUtc;
  return out as EventOverrides;
}

/** Whether two event records are the same but for their revision. */
export function sameEvent(a: EventRecord, b: EventRecord): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete('revision');
  for (const key of keys) if (!sameValue((a as never)[key], (b as never)[key])) return false;
  return true;
}

// ---- helpers ----

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, v]) => [k, sorted(v)]));
}
