// The texts of the pages `evcal serve` shows (the calendar, the API reference, the pages of
// events, venues, organizers, categories and tags), extracted and translated like the API's
// messages (packages/http/src/i18n/*.json): each page gets them in its language. Texts with
// `{placeholders}` are filled where they are used (formatMessage).
import { msg, verbatim, type Message } from '@evcal/core';
import { translator } from '@evcal/http';

const TEXTS = {
  title: msg('Events'),
  siteNav: msg('Site navigation'),
  calendar: msg('Calendar'),
  reference: msg('API reference'),
  referenceTitle: msg('The evcal API reference'),
  apiName: msg('evcal API'),
  apiDescription: msg('evcal serves an event calendar over HTTP: events, venues, organizers, categories and tags, their iCalendar feeds, and a change feed for keeping copies in sync. Its API is wire-compatible with The Events Calendar REST API v1.'),
  servers: msg('API server'),
  category: msg('Category'),
  allCategories: msg('All categories'),
  venue: msg('Venue'),
  allVenues: msg('All venues'),
  organizer: msg('Organizer'),
  tag: msg('Tag'),
  language: msg('Language'),
  views: msg('View'),
  month: msg('Month'),
  list: msg('List'),
  when: msg('When'),
  where: msg('Where'),
  organizers: msg('Organizers'),
  categories: msg('Categories'),
  tags: msg('Tags'),
  cost: msg('Cost'),
  website: msg('Website'),
  phone: msg('Phone'),
  email: msg('Email'),
  map: msg('Show on a map'),
  addToCalendar: msg('Add to my calendar (iCalendar)'),
  addTo: msg('Add to calendar'),
  icsFile: msg('iCalendar file (.ics)'),
  // Names of products, the same in every language.
  googleCalendar: verbatim('Google Calendar'),
  outlook: verbatim('Outlook'),
  subscribe: msg('Subscribe'),
  subscribeApp: msg('Subscribe in a calendar app'),
  everyEvent: msg('Every event'),
  feedAddress: msg('Feed address'),
  series: msg('Series'),
  nextDates: msg('Next dates'),
  upcoming: msg('Upcoming events'),
  noEvents: msg('No upcoming events.'),
  previous: msg('Previous'),
  next: msg('Next'),
  pageOf: msg('Page {page} of {pages}'),
  details: msg('Event page'),
  close: msg('Close'),
  loadFailed: msg('The events could not be loaded.'),
  allDay: msg('All day'),
  notFound: msg('Page not found'),
  notFoundText: msg('There is no public page at this address.'),
  unavailable: msg('The calendar cannot be reached right now; try again later.'),
} satisfies Record<string, Message>;

/** The page's texts by name (`title`, `category`…), in one language. */
export type PageTexts = Readonly<Record<keyof typeof TEXTS, string>>;

const NAMES = Object.keys(TEXTS) as (keyof typeof TEXTS)[];

/** The page's texts in a language evcal ships (`en`, `de`, `fr`, `es`). */
export function pageTexts(language: string): PageTexts {
  const t = translator(language);
  return Object.fromEntries(NAMES.map((name) => [name, t.message(TEXTS[name])])) as Record<keyof typeof TEXTS, string>;
}
