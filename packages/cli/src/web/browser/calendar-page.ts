// The calendar page in the browser (bundled into dist/web/calendar-page.global.js by this
// package's build): FullCalendar's month view and a paged list of upcoming events with their
// places, both fed by the API through @evcal/client, filters by category and venue, and an
// event's details in a dialog linking its page. The server puts the API root, the language
// (and the site's default one), the calendar's today and the page's texts in #evcal-page.
import { createEvcalClient, type Event, type Venue } from '@evcal/client';
import { Calendar, type EventInput, type EventSourceFuncArg } from '@fullcalendar/core';
import allLocales from '@fullcalendar/core/locales-all';
import dayGridPlugin from '@fullcalendar/daygrid';
import { eventStart, eventWhen } from '../event-when';
import { inLanguage } from '../language-address';
import { isRedacted } from '../redaction';

interface PageConfig {
  readonly apiRoot: string;
  readonly language: string;
  readonly today: string;
  readonly defaultLanguage: string;
  readonly texts: Readonly<Record<string, string>>;
}

/** Upcoming events the list shows at a time. */
const PER_PAGE = 10;

const config = readConfig();
const texts = (key: string) => config.texts[key] ?? key;
const client = createEvcalClient({ baseUrl: new URL(config.apiRoot, window.location.href).href });
const categorySelect = element('category', HTMLSelectElement);
const venueSelect = element('venue', HTMLSelectElement);
const status = element('status', HTMLParagraphElement);
const monthButton = element('view-month', HTMLButtonElement);
const listButton = element('view-list', HTMLButtonElement);
const upcoming = element('upcoming', HTMLElement);
let listPage = 1;

const calendar = new Calendar(element('calendar', HTMLElement), {
  plugins: [dayGridPlugin],
  locales: allLocales,
  locale: config.language,
  // Events are shown at their own wall-clock times (`start_date` in the event's time zone), as
  // their announcements give them.
  timeZone: 'UTC',
  initialView: 'dayGridMonth',
  initialDate: config.today,
  now: config.today,
  // Title, then the moves: wraps onto two lines on a narrow screen rather than overflowing it.
  headerToolbar: { start: 'title', end: 'today prev,next' },
  // Dark enough for white text to be read (WCAG AA).
  eventColor: '#1d4f91',
  // A few events a day, then "+n more": a day's cell grows to show them rather than hiding them all on a small screen.
  dayMaxEvents: 3,
  // The month as tall as its weeks need: no scrolling box inside the page.
  height: 'auto',
  events: loadMonth,
  // A day's cell is named by its date alone, while it also shows its events: named by what it
  // shows instead (axe: label-content-name-mismatch).
  dayCellDidMount: ({ el }) => el.removeAttribute('aria-labelledby'),
  // The arrows are drawn by icons; the buttons are named by their titles ("Previous month").
  datesSet: hideIcons,
  eventClick: ({ event, jsEvent }) => {
    jsEvent.preventDefault();
    const data: unknown = event.extendedProps.evcal;
    if (isEvent(data)) showDetails(data);
  },
});
calendar.render();
hideIcons();
void fillFilters();
for (const select of [categorySelect, venueSelect]) {
  select.addEventListener('change', () => {
    listPage = 1;
    refresh();
  });
}
monthButton.addEventListener('click', () => showView('month'));
listButton.addEventListener('click', () => showView('list'));
element('upcoming-previous', HTMLButtonElement).addEventListener('click', () => void loadList(listPage - 1));
element('upcoming-next', HTMLButtonElement).addEventListener('click', () => void loadList(listPage + 1));

function showView(view: 'month' | 'list'): void {
  const list = view === 'list';
  monthButton.setAttribute('aria-pressed', String(!list));
  listButton.setAttribute('aria-pressed', String(list));
  element('calendar', HTMLElement).hidden = list;
  upcoming.hidden = !list;
  if (list) void loadList(listPage);
  else calendar.updateSize();
}

function refresh(): void {
  if (upcoming.hidden) calendar.refetchEvents();
  else void loadList(1);
}

/** The chosen filters, as list parameters. */
function filters(): { categories?: string[]; venue?: string[] } {
  return {
    ...(categorySelect.value ? { categories: [categorySelect.value] } : {}),
    ...(venueSelect.value ? { venue: [venueSelect.value] } : {}),
  };
}

/** Every event of the visible month (all pages), with the chosen filters. */
async function loadMonth(range: EventSourceFuncArg): Promise<EventInput[]> {
  status.hidden = true;
  try {
    const events: EventInput[] = [];
    for await (const event of client.all('/events', { start_date: range.startStr.slice(0, 10), end_date: dayBefore(range.endStr.slice(0, 10)), per_page: 50, ...filters() })) {
      events.push({
        id: String(event.id),
        title: plainText(event.title),
        start: event.start_date.replace(' ', 'T'),
        end: event.end_date.replace(' ', 'T'),
        allDay: event.all_day === true,
        url: pageOf(event.url),
        extendedProps: { evcal: event },
      });
    }
    return events;
  } catch (error) {
    failed();
    throw error;
  }
}

/** A page of upcoming events (from today on), with their places. */
async function loadList(page: number): Promise<void> {
  status.hidden = true;
  try {
    const pages = client.pages('/events', { start_date: config.today, page: Math.max(1, page), per_page: PER_PAGE, ...filters() });
    const first = (await pages.next()).value;
    await pages.return(undefined);
    if (!first) return;
    listPage = Math.max(1, page);
    // Password-protected events, which lists show redacted, have no page to link.
    const items = first.items.filter((event) => !isRedacted(event, 'event')).map((event) => {
      const li = document.createElement('li');
      const link = document.createElement('a');
      link.href = pageOf(event.url);
      link.textContent = plainText(event.title);
      li.append(link, line('when', eventStart(event, config.language, config.today.slice(0, 4))));
      const place = venuesOf(event).map((v) => [v.venue, v.city].filter((x) => typeof x === 'string' && x !== '').map(String).map(plainText).join(', ')).filter(Boolean).join('; ');
      if (place) li.append(line('where', place));
      return li;
    });
    if (items.length === 0) items.push(Object.assign(document.createElement('li'), { textContent: texts('noEvents') }));
    element('upcoming-list', HTMLElement).replaceChildren(...items);
    const pagesTotal = Math.max(1, first.totalPages);
    element('upcoming-page', HTMLElement).textContent = texts('pageOf').replace('{page}', String(listPage)).replace('{pages}', String(pagesTotal));
    element('upcoming-previous', HTMLButtonElement).disabled = listPage <= 1;
    element('upcoming-next', HTMLButtonElement).disabled = listPage >= pagesTotal;
  } catch (error) {
    failed();
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
  add(texts('when'), eventWhen(event, config.language, texts('allDay')));
  add(texts('where'), venuesOf(event).map((v) => [v.venue, v.address, v.city, v.country].filter((x) => typeof x === 'string' && x !== '').join(', ')).filter(Boolean).join('; '));
  add(texts('organizers'), event.organizer.map((o) => (typeof o.organizer === 'string' ? plainText(o.organizer) : '')).filter(Boolean).join(', '));
  add(texts('categories'), event.categories.map((c) => plainText(c.name)).join(', '));
  add(texts('cost'), event.cost);
  // The description is HTML written by the calendar's editors: shown as text (its page shows it sanitised).
  element('details-description', HTMLElement).textContent = plainText(event.description);
  element('details-page', HTMLAnchorElement).href = pageOf(event.url);
  element('details-ics', HTMLAnchorElement).href = `${config.apiRoot}/events/${event.id}.ics`;
  showFeeds(event, venuesOf(event));
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
    item.append(label, link(`webcal://${address.host}${address.pathname}${address.search}`, texts('subscribe'), 'webcal'), link(address.href, texts('feedAddress'), 'feed'));
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

// ---- helpers ----

function hideIcons(): void {
  for (const icon of document.querySelectorAll('#calendar .fc-icon')) icon.setAttribute('aria-hidden', 'true');
}

/** An event's page in the page's language. */
function pageOf(url: string): string {
  return inLanguage(url, window.location.origin, config.language, config.defaultLanguage);
}

function venuesOf(event: Event): Venue[] {
  return Array.isArray(event.venue) ? event.venue : [event.venue];
}

function line(className: string, text: string): HTMLElement {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = text;
  return span;
}

function failed(): void {
  status.textContent = texts('loadFailed');
  status.hidden = false;
}

function readConfig(): PageConfig {
  const parsed: unknown = JSON.parse(document.getElementById('evcal-page')?.textContent ?? '{}');
  if (typeof parsed !== 'object' || parsed === null) throw new Error('evcal: the page has no configuration');
  const get = (key: string): unknown => Reflect.get(parsed, key);
  const textsValue = get('texts');
  return {
    apiRoot: String(get('apiRoot') ?? '/cal/events/v1'),
    language: String(get('language') ?? 'en'),
    today: String(get('today') ?? new Date().toISOString().slice(0, 10)),
    defaultLanguage: String(get('defaultLanguage') ?? 'en'),
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
