// The texts of the calendar page and the API reference page, extracted and translated like the
// API's messages (packages/http/src/i18n/*.json): the page gets them in its language.
import { msg, type Message } from '@evcal/core';
import { translator } from '@evcal/http';

const TEXTS = {
  title: msg('Events'),
  reference: msg('API reference'),
  referenceTitle: msg('The evcal API reference'),
  category: msg('Category'),
  allCategories: msg('All categories'),
  venue: msg('Venue'),
  allVenues: msg('All venues'),
  language: msg('Language'),
  when: msg('When'),
  where: msg('Where'),
  organizers: msg('Organizers'),
  categories: msg('Categories'),
  cost: msg('Cost'),
  website: msg('Website'),
  addToCalendar: msg('Add to my calendar (iCalendar)'),
  subscribe: msg('Subscribe in a calendar app'),
  everyEvent: msg('Every event'),
  subscribeWebcal: msg('Subscribe'),
  feedAddress: msg('Feed address'),
  close: msg('Close'),
  loadFailed: msg('The events could not be loaded.'),
  allDay: msg('All day'),
} satisfies Record<string, Message>;

/** The page's texts by name (`title`, `category`…), in one language. */
export type PageTexts = Readonly<Record<keyof typeof TEXTS, string>>;

/** The page's texts in a language evcal ships (`en`, `de`, `fr`, `es`). */
export function pageTexts(language: string): PageTexts {
  const t = translator(language);
  const of = (key: keyof typeof TEXTS) => t.message(TEXTS[key]);
  return {
    title: of('title'), reference: of('reference'), referenceTitle: of('referenceTitle'), category: of('category'),
    allCategories: of('allCategories'), venue: of('venue'), allVenues: of('allVenues'), language: of('language'),
    when: of('when'), where: of('where'), organizers: of('organizers'), categories: of('categories'), cost: of('cost'),
    website: of('website'), addToCalendar: of('addToCalendar'), subscribe: of('subscribe'), everyEvent: of('everyEvent'),
    subscribeWebcal: of('subscribeWebcal'), feedAddress: of('feedAddress'), close: of('close'), loadFailed: of('loadFailed'), allDay: of('allDay'),
  };
}
