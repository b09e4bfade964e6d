// Writes that involve recurrence (docs/recurrence.md): making an event a series, changing a
// series (its occurrences follow, exceptions keep their own changes), changing or deleting one
// occurrence (it becomes an exception and keeps its id), "this and following" (the series is
// split; the new one numbers its occurrences from the old one's id, so they keep theirs), and
// deleting a whole series. Each returns the event to answer with; the change recorder learns
// what happened to the occurrences from the writes themselves (changes/occurrence-folding.ts).
import { CalendarError, invalidParam } from '../domain/errors';
import { msg } from '../domain/messages';
import type { EventRecord, RecurrenceRecord } from '../model/records';
import { formatRule, ruleParts, untilInstant } from '../recurrence/expand';
import { materialise, occurrenceOf, occurrencesOf, overridesOf, seriesStarts } from './series-occurrences';
import { eventWallClock } from '../time/interpret';
import { formatUtc, formatWall, parseWall, wallFromEpochUtc, wallToEpochUtc } from '../time/wall-clock';
import { resolveZone, wallToInstant } from '../time/zone';
import type { WriteCall } from '../kernel/call';
import { applyEventWrite, type EventWriteMode, type EventWriteValues } from './event-apply';
import { resolveSlug, stamps } from '../shared/post-write';
import type { RecurrenceValue } from './recurrence-args';

export type Scope = 'this' | 'following' | 'all';
/** The parsed values of an event write, and the scope of one to an occurrence. */
type Values = EventWriteValues & { readonly scope?: Scope | undefined };

/** A new event, a series when the write carries a recurrence: stored with its occurrences. */
export async function insertEvent(c: WriteCall, created: EventRecord, values: Values, idBase = created.id): Promise<EventRecord> {
  const value = values.recurrence;
  const event = value && !value.remove ? { ...created, recurrence: recurrenceOf(c, created, value, idBase) } : created;
  await c.storage.events.insert(event);
  if (event.recurrence) await materialise(c, event, [], await c.config.horizon.forWrite(c), c.config.recurrence);
  return event;
}

/** An update of an event, a series or an occurrence (`scope` for occurrences). */
export async function updateAnyEvent(c: WriteCall, current: EventRecord, values: Values, mode: EventWriteMode): Promise<EventRecord> {
  const scope = scopeFor(current, values.scope);
  if (current.occurrence) {
    if (scope === 'this') return updateOccurrence(c, current, values, mode);
    const series = await seriesOf(c, current);
    if (scope === 'all') {
      const updated = await updateSeries(c, series, shiftedToSeries(c, current, series, values), mode);
      return (await c.storage.events.get(current.id)) ?? updated;
    }
    return splitSeries(c, series, current, values, mode);
  }
  return updateSeries(c, current, values, mode);
}

/** A delete: the event, one occurrence, this and the following ones, or a whole series (to the trash). */
export async function deleteAnyEvent(c: WriteCall, event: EventRecord, values: Values): Promise<EventRecord> {
  const scope = scopeFor(event, values.scope);
  if (event.occurrence && scope === 'this') {
    if (event.status === 'trash') throw new CalendarError('event_in_trash', msg('The event is already trashed'));
    const series = await seriesOf(c, event);
    const now = stamps(c.now, c.config.zone);
    const overrides = { ...event.occurrence.overrides, status: 'trash' as const, modified: now.local, modifiedUtc: now.utc };
    const record = occurrenceOf(series, generatedStart(series, event), overrides, c.storage.change);
    await c.storage.events.replace(record);
    return record;
  }
  if (event.occurrence && scope === 'following') {
    const series = await seriesOf(c, event);
    const existing = await occurrencesOf(c, series.id);
    const before = existing.filter((e) => e.occurrence!.date < event.occurrence!.date);
    if (!before.some((e) => e.occurrence!.originalStart < event.occurrence!.originalStart)) return trashSeries(c, series);
    const ended = { ...series, recurrence: endedBefore(series, event), revision: c.storage.change };
    await c.storage.events.replace(ended);
    await materialise(c, ended, existing, await c.config.horizon.forWrite(c), c.config.recurrence);
    return ended;
  }
  return trashSeries(c, event.occurrence ? await seriesOf(c, event) : event);
}

// ---- series ----

async function updateSeries(c: WriteCall, current: EventRecord, values: Values, mode: EventWriteMode): Promise<EventRecord> {
  let updated = await applyEventWrite(c, current, values, mode);
  const value = values.recurrence;
  if (value?.remove) {
    const { recurrence: _, ...single } = updated;
    updated = single;
  } else if (value) {
    updated = { ...updated, recurrence: recurrenceOf(c, updated, value, current.recurrence?.idBase ?? current.id) };
  } else if (current.recurrence) {
    // Times are kept as wall clocks: re-read in a changed zone, rdates and exdates keep theirs.
    updated = { ...updated, recurrence: current.recurrence };
  }
  await c.storage.events.replace(updated);
  const existing = current.recurrence ? await occurrencesOf(c, current.id) : [];
  if (!updated.recurrence) {
    for (const e of existing) await c.storage.events.delete(e.id);
    return updated;
  }
  await materialise(c, updated, existing, await c.config.horizon.forWrite(c), c.config.recurrence);
  return updated;
}

async function trashSeries(c: WriteCall, event: EventRecord): Promise<EventRecord> {
  if (event.status === 'trash') throw new CalendarError('event_in_trash', msg('The event is already trashed'));
  const now = stamps(c.now, c.config.zone);
  const slug = await resolveSlug({ requested: undefined, current: event.slug, title: event.title, id: event.id, status: 'trash', taken: async () => false });
  const record: EventRecord = { ...event, status: 'trash', slug, modified: now.local, modifiedUtc: now.utc, revision: c.storage.change };
  await c.storage.events.replace(record);
  if (record.recurrence) await materialise(c, record, await occurrencesOf(c, record.id), await c.config.horizon.forWrite(c), c.config.recurrence);
  return record;
}

// ---- one occurrence ----

async function updateOccurrence(c: WriteCall, occurrence: EventRecord, values: Values, mode: EventWriteMode): Promise<EventRecord> {
  if (values.recurrence !== undefined) {
    throw invalidParam('recurrence', msg('An occurrence has no recurrence of its own: change its series (scope=all) or this and the following occurrences (scope=following).'));
  }
  if (values.slug !== undefined) throw invalidParam('slug', msg('An occurrence takes its slug from its series.'));
  const series = await seriesOf(c, occurrence);
  const g = generatedStart(series, occurrence);
  const updated = await applyEventWrite(c, occurrence, values, mode);
  const plain = occurrenceOf(series, g, undefined, c.storage.change);
  const record = occurrenceOf(series, g, overridesOf(updated, plain), c.storage.change);
  await c.storage.events.replace(record);
  return record;
}

// ---- this and following ----

/**
 * Splits `series` at `at`: the series ends before it, and a new series starts with it,
 * carrying the write's values, the rest of the rule (a COUNT shared out), the later RDATEs and
 * EXDATEs, and the later exceptions. Its occurrences keep their ids (it numbers them from the
 * old series' id). At the first occurrence, there is nothing before it: the whole series changes.
 */
async function splitSeries(c: WriteCall, series: EventRecord, at: EventRecord, values: Values, mode: EventWriteMode): Promise<EventRecord> {
  const existing = await occurrencesOf(c, series.id);
  const date = at.occurrence!.date;
  const earlier = existing.filter((e) => e.occurrence!.date < date);
  if (earlier.length === 0) {
    const updated = await updateSeries(c, series, shiftedToSeries(c, at, series, values), mode);
    return (await c.storage.events.get(at.id)) ?? updated;
  }
  const rec = series.recurrence!;
  const g = generatedStart(series, at);
  // The new series' rule: the old one from `at` on, its COUNT less the occurrences before.
  const parts = rec.rrule === '' ? undefined : ruleParts(rec.rrule);
  if (parts?.has('COUNT')) {
    const before = seriesStarts(series, Number.MAX_SAFE_INTEGER, c.config.recurrence).starts.filter((s) => s.date < date).length;
    parts.set('COUNT', String(Math.max(1, Number(parts.get('COUNT')) - before)));
  }
  const ended = { ...series, recurrence: endedBefore(series, at), revision: c.storage.change };
  await c.storage.events.replace(ended);
  const horizon = await c.config.horizon.forWrite(c);
  await materialise(c, ended, earlier, horizon, c.config.recurrence);

  const id = await c.storage.sequences.next('post');
  const { icalUid: _, lineage: __, ...fields } = series;
  const plain = occurrenceOf(series, g, undefined, 0);
  const base: EventRecord = {
    ...fields,
    id,
    slug: '',
    startLocal: g.start,
    endLocal: plain.endLocal,
    startUtc: g.startUtc,
    endUtc: plain.endUtc,
    recurrence: {
      rrule: parts ? formatRule(parts) : '',
      rdate: rec.rdate.filter((r) => r.slice(0, 10) >= date),
      exdate: rec.exdate.filter((x) => x.slice(0, 10) >= date),
      idBase: rec.idBase,
    },
  };
  let next = await applyEventWrite(c, base, values, mode);
  const value = values.recurrence;
  if (value?.remove) throw invalidParam('recurrence', msg('The following occurrences keep a recurrence: delete them with scope=following instead.'));
  next = { ...next, recurrence: value ? recurrenceOf(c, next, value, rec.idBase) : base.recurrence };
  await c.storage.events.insert(next);
  const later = existing.filter((e) => e.occurrence!.date >= date);
  await materialise(c, next, later, horizon, c.config.recurrence);
  return (await c.storage.events.get(at.id)) ?? next;
}

// ---- helpers ----

/** The scope of a write: an occurrence defaults to itself; a series or event is always whole. */
function scopeFor(event: EventRecord, scope: Scope | undefined): Scope {
  if (!event.occurrence) {
    if (scope !== undefined && scope !== 'all') throw invalidParam('scope', msg('Only an occurrence of a series can be changed on its own or with the following ones.'));
    return 'all';
  }
  return scope ?? 'this';
}

async function seriesOf(c: WriteCall, occurrence: EventRecord): Promise<EventRecord> {
  const series = await c.storage.events.get(occurrence.parentId);
  // Occurrences are written with their series in one transaction: one without is a storage fault.
  if (!series?.recurrence) throw new Error(`evcal: occurrence ${occurrence.id} has no series ${occurrence.parentId}`);
  return series;
}

/** The start the series generates for an occurrence (its RECURRENCE-ID), placed in the series' zone. */
function generatedStart(series: EventRecord, occurrence: EventRecord) {
  const { date, originalStart } = occurrence.occurrence!;
  return { date, start: originalStart, startUtc: wallToInstant(parseWall(originalStart)!, resolveZone(series.timezone)!) };
}

/** The recurrence a write sets: RDATEs and EXDATEs read as times in the event's zone. */
function recurrenceOf(c: WriteCall, event: EventRecord, value: Exclude<RecurrenceValue, { remove: true }>, idBase: number): RecurrenceRecord {
  const zone = resolveZone(event.timezone)!;
  const wall = (t: string) => {
    const w = formatWall(eventWallClock(t, zone, c.now));
    return event.allDay ? `${w.slice(0, 10)} 00:00:00` : w;
  };
  return {
    rrule: value.rrule === '' ? '' : formatRule(ruleParts(value.rrule)),
    rdate: [...new Set(value.rdate.map(wall))].sort(),
    exdate: [...new Set(value.exdate.map((t) => (/^\d{4}-\d{2}-\d{2}$/.test(t) ? t : wall(t))))].sort(),
    idBase,
  };
}

/** The series' recurrence ending just before occurrence `at` (UNTIL one second before its start; later RDATEs dropped). */
function endedBefore(series: EventRecord, at: EventRecord): RecurrenceRecord {
  const rec = series.recurrence!;
  const zone = resolveZone(series.timezone)!;
  const date = at.occurrence!.date;
  let rrule = rec.rrule;
  if (rrule !== '') {
    const parts = ruleParts(rrule);
    const cut = generatedStart(series, at).startUtc - 1000;
    const until = parts.has('UNTIL') ? Math.min(untilInstant(parts.get('UNTIL')!, zone), cut) : cut;
    parts.delete('COUNT');
    parts.set('UNTIL', `${formatUtc(until).replace(/[-:]/g, '').replace(' ', 'T')}Z`);
    rrule = formatRule(parts);
  }
  return { ...rec, rrule, rdate: rec.rdate.filter((r) => r.slice(0, 10) < date), exdate: rec.exdate.filter((x) => x.slice(0, 10) < date) };
}

/**
 * The values of a write to an occurrence with scope=all, for its series: a new start or end
 * moves the series' start or end by as much as it moves the occurrence's.
 */
function shiftedToSeries(c: WriteCall, occurrence: EventRecord, series: EventRecord, values: Values): Values {
  const out = { ...values };
  delete out.scope;
  const zone = resolveZone(series.timezone)!;
  for (const [param, field] of [['start_date', 'startLocal'], ['end_date', 'endLocal']] as const) {
    if (values[param] === undefined) continue;
    const moved = wallToEpochUtc(eventWallClock(values[param], zone, c.now)) - wallToEpochUtc(parseWall(occurrence[field])!);
    out[param] = formatWall(wallFromEpochUtc(wallToEpochUtc(parseWall(series[field])!) + moved));
  }
  return out;
}
