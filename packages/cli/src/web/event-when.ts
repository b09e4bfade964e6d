// When an event takes place, in words, for the calendar page (in the browser) and the event
// pages (on the server) alike: its dates in the reader's language, at the event's own
// wall-clock times, followed by its time zone (all-day events: the days, and "All day").
// The wall clock is formatted as if it were UTC, so that no zone rule of the reader's
// machine, nor a zone name Intl does not know (`UTC+2`), moves it.

/** The fields of an event (API JSON) its dates are read from. */
export interface EventTimes {
  readonly start_date: string;
  readonly end_date: string;
  readonly all_day?: boolean | null | undefined;
  readonly timezone: string;
}

/** "Friday, December 4, 2026, 8:00 – 11:00 PM (Europe/Rome)", in `language`. */
export function eventWhen(event: EventTimes, language: string, allDay: string): string {
  const whole = event.all_day === true;
  const options: Intl.DateTimeFormatOptions = whole
    ? { dateStyle: 'full', timeZone: 'UTC' }
    : { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' };
  const range = new Intl.DateTimeFormat(language, options).formatRange(wallClock(event.start_date), wallClock(event.end_date));
  return whole ? `${range} (${allDay})` : `${range} (${event.timezone})`;
}

/** A date of the event's list entry: "Fri, Dec 4, 8:00 PM" (the year when it is not `thisYear`). */
export function eventStart(event: EventTimes, language: string, thisYear: string): string {
  const sameYear = event.start_date.startsWith(thisYear);
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short', day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }),
    ...(event.all_day === true ? {} : { hour: 'numeric', minute: '2-digit' }), timeZone: 'UTC',
  };
  return new Intl.DateTimeFormat(language, options).format(wallClock(event.start_date));
}

/** "2026-12-04 20:00:00" as the instant that reads so in UTC. */
function wallClock(local: string): Date {
  return new Date(`${local.replace(' ', 'T')}Z`);
}
