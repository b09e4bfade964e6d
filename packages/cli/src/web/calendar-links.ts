// "Add to calendar" and "subscribe" on an event's page: the event's own iCalendar file (the
// API's `.ics`), Google Calendar's and Outlook's forms for a new event filled in from it, and
// the calendar's feed as `webcal://` (calendar apps subscribe to it) and as https.

/** What the links are made from: an event as the API reads it. */
export interface LinkedEvent {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  readonly all_day?: boolean | null | undefined;
  readonly start_date: string;
  readonly end_date: string;
  readonly utc_start_date: string;
  readonly utc_end_date: string;
}

export interface AddLinks {
  readonly ics: string;
  readonly google: string;
  readonly outlook: string;
}

/**
 * The event's links. `title`, `details` and `location` are plain text; times are the UTC
 * instants (an all-day event: its days, the end day included), so no zone name has to be
 * understood by the other side.
 */
export function addToCalendarLinks(event: LinkedEvent, text: { title: string; details: string; location: string }, apiRoot: string): AddLinks {
  const whole = event.all_day === true;
  const google = new URL('https://calendar.google.com/calendar/render');
  google.search = new URLSearchParams({
    action: 'TEMPLATE',
    text: text.title,
    dates: whole
      ? `${compactDate(event.start_date)}/${compactDate(dayAfter(event.end_date))}`
      : `${compactInstant(event.utc_start_date)}/${compactInstant(event.utc_end_date)}`,
    details: text.details,
    location: text.location,
  }).toString();
  const outlook = new URL('https://outlook.live.com/calendar/0/action/compose');
  outlook.search = new URLSearchParams({
    rru: 'addevent',
    subject: text.title,
    startdt: whole ? event.start_date.slice(0, 10) : isoInstant(event.utc_start_date),
    enddt: whole ? dayAfter(event.end_date) : isoInstant(event.utc_end_date),
    allday: String(whole),
    body: text.details,
    location: text.location,
  }).toString();
  return { ics: `${apiRoot}/events/${event.id}.ics`, google: google.href, outlook: outlook.href };
}

/** The calendar's feed: to subscribe to (`webcal://`), and its https address. */
export function feedLinks(apiRoot: string): { webcal: string; https: string } {
  const https = `${apiRoot}/events.ics`;
  return { webcal: https.replace(/^https?:/, 'webcal:'), https };
}

// ---- helpers ----

/** "2026-12-04 19:00:00" (UTC) as "20261204T190000Z". */
function compactInstant(utc: string): string {
  return `${utc.slice(0, 10).replace(/-/g, '')}T${utc.slice(11, 19).replace(/:/g, '')}Z`;
}

function compactDate(local: string): string {
  return local.slice(0, 10).replace(/-/g, '');
}

function isoInstant(utc: string): string {
  return `${utc.replace(' ', 'T')}Z`;
}

/** The day after a date's day, YYYY-MM-DD (an all-day end is exclusive in both forms). */
function dayAfter(local: string): string {
  const day = new Date(`${local.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}
