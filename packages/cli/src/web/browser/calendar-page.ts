// The calendar page in the browser (bundled into dist/web/calendar-page.global.js by this
// package's build): FullCalendar's month and list views fed by the API through @evcal/client,
// filters by category and venue, and an event's details in a dialog. The server puts the API
// root, the language, the calendar's today and the page's texts in #evcal-page.
import { createEvcalClient, type Event, type Venue } from '@evcal/client';
import { Calendar, type EventInput, type EventSourceFuncArg } from '@fullcalendar/core';
import allLocales from '@fullcalendar/core/locales-all';
import dayGridPlugin from '@fullcalendar/daygrid';
import listPlugin from '@fullcalendar/list';

interface PageConfig {
  readonly apiRoot: string;
  readonly language: string;
  readonly today: string;
  readonly texts: Readonly<Record<string, string>>;
}

const config = readConfig();
const texts = (key: string) => config.texts[key] ?? key;
const client = createEvcalClient({ baseUrl: new URL(config.apiRoot, window.location.href).href });
const categorySelect = element('category', HTMLSelectElement);
const venueSelect = element('venue', HTMLSelectElement);
const status = element('status', HTMLParagraphElement);

const calendar = new Calendar(element('calendar', HTMLElement), {
  plugins: [dayGridPlugin, listPlugin],
  locales: allLocales,
  locale: config.language,
  // Events are shown at their own wall-clock times (`start_date` in the event's time zone), as
  // their announcements give them.
  timeZone: 'UTC',
  initialView: 'dayGridMonth',
  initialDate: config.today,
  now: config.today,
  headerToolbar: { left: 'prev,next today', center: 'title', right: 'dayGridMonth,listMonth' },
  dayMaxEvents: true,
  events: loadEvents,
  eventClick: ({ event, jsEvent }) => {
    jsEvent.preventDefault();
    const data: unknown = event.extendedProps.evcal;
    if (isEvent(data)) showDetails(data);
  },
});
calendar.render();
void fillFilters();
for (const select of [categorySelect, venueSelect]) select.addEventListener('change', () => calendar.refetchEvents());

/** Every event of the visible range (all pages), with the chosen filters. */
async function loadEvents(range: EventSourceFuncArg): Promise<EventInput[]> {
  status.hidden = true;
  const category = categorySelect.value;
  const venue = venueSelect.value;
  try {
    const events: EventInput[] = [];
    for await (const event of client.all('/events', {
      start_date: range.startStr.slice(0, 10),
      end_date: dayBefore(range.endStr.slice(0, 10)),
      per_page: 50,
      ...(category ? { categories: [category] } : {}),
      ...(venue ? { venue: [venue] } : {}),
    })) {
      events.push({
        id: String(event.id),
        title: plainText(event.title),
        start: event.start_date.replace(' ', 'T'),
        end: event.end_date.replace(' ', 'T'),
        allDay: event.all_day === true,
        url: event.url,
        extendedProps: { evcal: event },
      });
    }
    return events;
  } catch (error) {
    status.textContent = texts('loadFailed');
    status.hidden = false;
    throw error;
  }
}

/** The category and venue choices: every category and venue the API lists. */
async function fillFilters(): Promise<void> {
  for await (const term of client.all('/categories', { per_page: 50, hide_empty: false })) {
    categorySelect.append(new Option(plainText(term.name), String(term.id)));
  }
  for await (const venue of client.all('/venues', { per_page: 50 })) {
    if (typeof venue.venue === 'string') venueSelect.append(new Option(plainText(venue.venue), String(venue.id)));
  }
}

function showDetails(event: Event): void {
  const dialog = element('details', HTMLDialogElement);
  element('details-title', HTMLElement).textContent = plainText(event.title);
  const fields = element('details-fields', HTMLElement);
  fields.replaceChildren();
  const add = (label: string, value: string | Node | undefined) => {
    if (value === undefined || value === '') return;
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.append(value);
    fields.append(dt, dd);
  };
  add(texts('when'), when(event));
  const venues: Venue[] = Array.isArray(event.venue) ? event.venue : [event.venue];
  add(texts('where'), venues.map((v) => [v.venue, v.address, v.city, v.country].filter((x) => typeof x === 'string' && x !== '').join(', ')).filter(Boolean).join('; '));
  add(texts('organizers'), event.organizer.map((o) => (typeof o.organizer === 'string' ? plainText(o.organizer) : '')).filter(Boolean).join(', '));
  add(texts('categories'), event.categories.map((c) => plainText(c.name)).join(', '));
  add(texts('cost'), event.cost);
  if (event.website) {
    const site = link(event.website, event.website, 'website');
    site.rel = 'noopener';
    add(texts('website'), site);
  }
  // The description is HTML written by the calendar's editors: shown as text.
  element('details-description', HTMLElement).textContent = plainText(event.description);
  element('details-ics', HTMLAnchorElement).href = `${config.apiRoot}/events/${event.id}.ics`;
  showFeeds(event, venues);
  dialog.showModal();
}

/**
 * Subscriptions a calendar app keeps up to date (docs/icalendar.md#subscribing): the whole
 * calendar, and the event's categories and venues, each as a webcal:// link (which opens the
 * calendar app) and as the https address to paste into one.
 */
function showFeeds(event: Event, venues: readonly Venue[]): void {
  const feeds: [label: string, query: Record<string, string>][] = [
    [texts('everyEvent'), {}],
    ...event.categories.map((c): [string, Record<string, string>] => [`${texts('category')}: ${plainText(c.name)}`, { categories: c.slug }]),
    ...venues.filter((v) => typeof v.id === 'number' && typeof v.venue === 'string')
      .map((v): [string, Record<string, string>] => [`${texts('venue')}: ${plainText(String(v.venue))}`, { venue: String(v.id) }]),
  ];
  element('details-feeds', HTMLUListElement).replaceChildren(...feeds.map(([label, query]) => {
    const address = new URL(`${config.apiRoot}/events.ics`, window.location.href);
    for (const [key, value] of Object.entries(query)) address.searchParams.set(key, value);
    const item = document.createElement('li');
    item.append(label, link(`webcal://${address.host}${address.pathname}${address.search}`, texts('subscribeWebcal'), 'webcal'), link(address.href, texts('feedAddress'), 'feed'));
    return item;
  }));
}

function link(href: string, text: string, className: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  a.className = className;
  return a;
}

/** The event's dates in the page's language, at the event's own wall-clock times. */
function when(event: Event): string {
  const day = { dateStyle: 'full', timeZone: 'UTC' } as const;
  const time = { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' } as const;
  const start = new Date(`${event.start_date.replace(' ', 'T')}Z`);
  const end = new Date(`${event.end_date.replace(' ', 'T')}Z`);
  const format = new Intl.DateTimeFormat(config.language, event.all_day === true ? day : time);
  const range = format.formatRange(start, end);
  return event.all_day === true ? `${range} (${texts('allDay')})` : `${range} (${event.timezone})`;
}

// ---- helpers ----

function readConfig(): PageConfig {
  const parsed: unknown = JSON.parse(document.getElementById('evcal-page')?.textContent ?? '{}');
  if (typeof parsed !== 'object' || parsed === null) throw new Error('evcal: the page has no configuration');
  const get = (key: string): unknown => Reflect.get(parsed, key);
  const textsValue = get('texts');
  return {
    apiRoot: String(get('apiRoot') ?? '/cal/events/v1'),
    language: String(get('language') ?? 'en'),
    today: String(get('today') ?? new Date().toISOString().slice(0, 10)),
    texts: typeof textsValue === 'object' && textsValue !== null ? Object.fromEntries(Object.entries(textsValue).map(([k, v]) => [k, String(v)])) : {},
  };
}

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`evcal: the page has no #${id}`);
  return found;
}

function isEvent(value: unknown): value is Event {
  return typeof value === 'object' && value !== null && 'start_date' in value && 'title' in value;
}

/** Text of an HTML fragment (titles carry entities such as &#8211;, descriptions markup). */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/** YYYY-MM-DD of the day before (FullCalendar's range end is exclusive; the API's end_date is inclusive). */
function dayBefore(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}
