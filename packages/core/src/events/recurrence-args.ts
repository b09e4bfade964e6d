// The `recurrence` argument of event writes (docs/recurrence.md): an RRULE alone, or
// `{ rrule, rdate, exdate }`; empty (`""`, `null`) on an update makes a series a single event
// again. RDATE and EXDATE values are times as start_date takes them, read in the event's zone
// when the write is applied (recurrence/series-write.ts).
import * as v from 'valibot';
import { arg } from '../kernel/args';
import { msg } from '../domain/messages';
import { RecurrenceProblem, ruleParts } from '../recurrence/expand';
import { parsePhpTime } from '../time/php-time';

const times = v.union([v.string(), v.array(v.union([v.string(), v.number()]))]);

/** A recurrence as sent: `remove`, or its parts (times not yet read). */
export type RecurrenceValue =
  | { readonly remove: true }
  | { readonly remove?: false; readonly rrule: string; readonly rdate: readonly string[]; readonly exdate: readonly string[] };

const schema = v.pipe(
  v.union([v.null(), v.string(), v.object({ rrule: v.optional(v.string()), rdate: v.optional(times), exdate: v.optional(times) })]),
  v.transform((x): RecurrenceValue => {
    if (x === null || (typeof x === 'string' && x.trim() === '')) return { remove: true };
    if (typeof x === 'string') return { rrule: x.trim(), rdate: [], exdate: [] };
    const list = (t: unknown) => (t === undefined ? [] : (Array.isArray(t) ? t : String(t).split(',')).map((s) => String(s).trim()).filter((s) => s !== ''));
    return { rrule: (x.rrule ?? '').trim(), rdate: list(x.rdate), exdate: list(x.exdate) };
  }),
);

export const recurrenceArg = arg({
  schema,
  description: 'Makes the event a series: an RRULE (RFC 5545, e.g. FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10), or {"rrule", "rdate": [times], "exdate": [times or dates]}; empty turns a series back into one event',
  validate: (value, ctx) => {
    if (value.remove) return undefined;
    if (value.rrule === '' && value.rdate.length === 0) return msg('The recurrence rule is not valid: {part}', { part: 'FREQ' });
    try {
      if (value.rrule !== '') ruleParts(value.rrule);
    } catch (error) {
      if (error instanceof RecurrenceProblem) return error.text;
      throw error;
    }
    const bad = [...value.rdate, ...value.exdate].find((t) => !/^\d{4}-\d{2}-\d{2}$/.test(t) && !parsePhpTime(t, { now: ctx.now, timeZone: 'UTC' }));
    return bad === undefined ? undefined : msg('Not a date or time: {value}', { value: bad });
  },
});
