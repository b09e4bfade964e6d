// `importIcs`: the events of an iCalendar file into a calendar, validated and normalised like
// the create route, in one transaction. Each event remembers its VEVENT's UID, so importing a
// new version of the file updates the events it created instead of adding copies.
import { DEFAULT_ROLES, type Capability } from '../auth/capabilities';
import { isCalendarError } from '../domain/errors';
import { parseArgs } from '../kernel/args';
import { POST_STATUSES, type EventRecord } from '../model/records';
import { beginCall, type WriteCall } from '../kernel/call';
import type { CalendarConfig } from '../kernel/context';
import { eventWriteArgs } from '../events/event-args';
import { applyEventWrite, blankEvent, type EventWriteValues } from '../events/event-apply';
import { deleteAnyEvent, insertEvent, updateAnyEvent } from '../events/series-write';
import { formatRule, ruleParts } from '../recurrence/expand';
import { occurrenceId } from '../model/occurrence-id';
import { formatWall } from '../time/wall-clock';
import { instantToWall, resolveZone } from '../time/zone';
import { createNamedTerm } from '../terms/term-refs';
import { runWrite } from '../kernel/write';
import type { Storage } from '../storage/storage';
import { icsError } from './ics-lines';
import { readIcs, type IcsEvent, type IcsSkipped } from './ics-reader';
import { textToHtml } from './ical-text';

export interface ImportIcsOptions {
  /** The status of the events the file creates (events it updates keep theirs). @default 'publish' */
  readonly status?: 'publish' | 'draft' | 'pending' | 'private';
  /** The author of what the file creates. @default 0 (none) */
  readonly author?: number;
}

export interface ImportIcsSummary {
  /** Events created. */
  readonly created: number;
  /** Events an earlier import created (same UID), changed by this one. */
  readonly updated: number;
  /** Events an earlier import created that the file does not change. */
  readonly unchanged: number;
  /** Venues and categories the file created. */
  readonly venues: number;
  readonly categories: number;
  /** VEVENTs not imported: recurrences evcal does not keep (more often than daily), overrides of series not in the file, and cancelled events. */
  readonly skipped: readonly IcsSkipped[];
}

/** A calendar (createCalendar's) or its configuration: what the import writes to. */
type ImportTarget = { readonly config: CalendarConfig } | CalendarConfig;

/**
 * Imports the events of an iCalendar text. Throws `invalid_ical` naming the line of the first
 * problem (not iCalendar, a broken line, an unknown zone, a value an event cannot have); then
 * nothing is written.
 */
export async function importIcs(target: ImportTarget, text: string, options: ImportIcsOptions = {}): Promise<ImportIcsSummary> {
  const config = 'config' in target ? target.config : target;
  const contents = readIcs(text, config.timezone);
  const author = options.author ?? 0;
  const call = beginCall(config, { principal: { id: author, capabilities: IMPORTER_CAPS } });
  const counts = { created: 0, updated: 0, unchanged: 0 };
  // One write transaction (run again from the start if a concurrent writer got in the way).
  const added = await runWrite(call, async (c) => {
    const tx = c.storage;
    counts.created = counts.updated = counts.unchanged = 0;
    const before = await totals(tx);
    const byUid = await eventsByUid(tx);
    for (const item of contents.events) {
      const existing = item.uid === undefined ? undefined : byUid.get(item.uid);
      const base = existing === undefined ? undefined : await tx.events.get(existing);
      if (base) {
        const { event: updated, values } = await write(c, item, base, 'patch');
        if (sameContent(base, updated) && sameRecurrence(base, item)) counts.unchanged++;
        else {
          await guarded(item, () => updateAnyEvent(c, base, values, 'patch'));
          counts.updated++;
        }
        continue;
      }
      const id = await tx.sequences.next('post');
      const { event, values } = await write(c, item, blankEvent(id, author), 'create', options.status ?? 'publish');
      await guarded(item, () => insertEvent(c, item.uid === undefined ? event : { ...event, icalUid: item.uid }, values));
      if (item.uid !== undefined) byUid.set(item.uid, id);
      counts.created++;
    }
    // Changed and cancelled occurrences, once their series are stored.
    for (const o of contents.overrides) {
      const series = await tx.events.get(byUid.get(o.uid)!);
      if (!series?.recurrence) continue;
      const zone = resolveZone(series.timezone)!;
      const wall = o.recurrenceId.instant === undefined ? o.recurrenceId.wall : formatWall(instantToWall(o.recurrenceId.instant, zone));
      const occurrence = await tx.events.get(occurrenceId(series.recurrence.idBase, wall.slice(0, 10)));
      if (!occurrence?.occurrence) throw icsError(o.line, `RECURRENCE-ID ${wall} is not an occurrence of "${series.title}"`);
      if (!o.event) {
        if (occurrence.status !== 'trash') await deleteAnyEvent(c, occurrence, {});
        continue;
      }
      const { values } = await write(c, o.event, occurrence, 'patch');
      await guarded(o.event, () => updateAnyEvent(c, occurrence, values, 'patch'));
    }
    const after = await totals(tx);
    return { venues: after.venues - before.venues, categories: after.categories - before.categories };
  });
  return { ...counts, ...added, skipped: contents.skipped };
}

// ---- helpers ----

// Imports are trusted, as dataset imports are: every capability.
const IMPORTER_CAPS = [...new Set(Object.values(DEFAULT_ROLES).flat())] as Capability[];

/** The event after the file's values, validated like a create (or a PATCH of every field the file sets). */
async function write(call: WriteCall, item: IcsEvent, base: EventRecord, mode: 'create' | 'patch', status?: string): Promise<{ event: EventRecord; values: EventWriteValues }> {
  const input = {
    title: item.title,
    description: textToHtml(item.description),
    start_date: item.start,
    end_date: item.end,
    all_day: item.allDay,
    timezone: item.timezone,
    // No URL: none stored on a new event (its permalink stands in), a stored one cleared on an update.
    ...(item.url ? { website: item.url } : mode === 'patch' && base.website ? { website: '' } : {}),
    categories: await categoryRefs(call, item.categories),
    venue: item.location
      ? { venue: item.location.name, address: item.location.address, ...(item.location.lat !== undefined ? { geo_lat: item.location.lat, geo_lng: item.location.lng } : {}) }
      : '',
    organizer: item.organizer ? { organizer: item.organizer.name, email: item.organizer.email } : '',
    ...(status ? { status } : {}),
    ...(item.recurrence ? { recurrence: item.recurrence } : {}),
  };
  return guarded(item, async () => {
    const { values } = await parseArgs(eventWriteArgs(mode), input, call.args);
    return { event: await applyEventWrite(call, base, values, mode), values };
  });
}

/** Runs a write of a VEVENT, refusals turned into an error naming its line. */
async function guarded<T>(item: IcsEvent, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!isCalendarError(e)) throw e;
    const params = e.details.params;
    const what = params && typeof params === 'object' && !Array.isArray(params)
      ? `invalid ${Object.entries(params).map(([k, v]) => (k === 'recurrence' ? `recurrence (${String(v)})` : k)).join(', ')}` : e.message;
    throw icsError(item.line, `VEVENT "${item.title}" cannot be imported: ${what}`);
  }
}

/** Whether a stored series has the recurrence of the file's VEVENT (or neither recurs). */
function sameRecurrence(event: EventRecord, item: IcsEvent): boolean {
  if (!event.recurrence || !item.recurrence) return !event.recurrence && !item.recurrence;
  const wall = (w: string) => (event.allDay && w.length > 10 ? `${w.slice(0, 10)} 00:00:00` : w);
  const same = (a: readonly string[], b: readonly string[]) => JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());
  return event.recurrence.rrule === (item.recurrence.rrule ? formatRule(ruleParts(item.recurrence.rrule)) : '')
    && same(event.recurrence.rdate, item.recurrence.rdate.map(wall)) && same(event.recurrence.exdate, item.recurrence.exdate.map((x) => (x.length === 10 ? x : wall(x))));
}

/** Category ids (as the write takes them) for names: an existing category of that name, else a new one. */
async function categoryRefs(call: WriteCall, names: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const term = (await call.storage.categories.findByName(name))[0] ?? (await createNamedTerm(call, 'category', name));
    if (!ids.includes(String(term.id))) ids.push(String(term.id));
  }
  return ids;
}

/** Whether an update changes nothing but the modification time (and the revision stamped with it). */
function sameContent(a: EventRecord, b: EventRecord): boolean {
  const strip = ({ modified: _m, modifiedUtc: _u, revision: _r, ...rest }: EventRecord) => JSON.stringify(rest);
  return strip(a) === strip(b);
}

/** The events an earlier import created, by UID (every status, trash included). */
async function eventsByUid(storage: Storage): Promise<Map<string, number>> {
  const byUid = new Map<string, number>();
  const pageSize = 500;
  for (let offset = 0; ; offset += pageSize) {
    const page = await storage.events.list({
      records: 'stored', statuses: POST_STATUSES, excludeHidden: false, sort: [{ field: 'id', direction: 'asc' }], limit: pageSize, offset,
    });
    for (const event of page.items) if (event.icalUid !== undefined && event.icalUid !== null) byUid.set(event.icalUid, event.id);
    if (page.items.length < pageSize) return byUid;
  }
}

async function totals(storage: Storage): Promise<{ venues: number; categories: number }> {
  const [venues, categories] = await Promise.all([
    storage.venues.list({ statuses: POST_STATUSES, sort: [{ field: 'id', direction: 'asc' }], limit: 0 }),
    storage.categories.list({ hideEmpty: false, countStatuses: [], sort: [{ field: 'id', direction: 'asc' }], limit: 0 }),
  ]);
  return { venues: venues.total, categories: categories.total };
}
