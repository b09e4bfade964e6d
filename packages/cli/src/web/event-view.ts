// An event's page: everything a visitor needs without JavaScript — when (in the event's zone),
// where (address and a map), who, what it costs, what it is about (its description,
// sanitised), its categories and tags, its series and next dates, and how to put it in a
// calendar or subscribe to the calendar.
import { eventPageJsonLd, termArchiveUrl, type EventJson } from '@evcal/core';
import { addToCalendarLinks, feedLinks } from './calendar-links';
import { eventWhen } from './event-when';
import { html, sanitized, textOf, type Html } from './html';
import { addressOf, eventList, here, mapUrl, recordDocument, venuesOf, type ListedEvent, type PageContext } from './record-document';

export interface EventPage {
  readonly event: EventJson;
  /** The series, when the event is one of its occurrences. */
  readonly series: EventJson | undefined;
  /** The series' next occurrences, when the event is a series or one of its occurrences. */
  readonly nextDates: readonly ListedEvent[] | undefined;
}

export function eventDocument(ctx: PageContext, { event, series, nextDates }: EventPage): string {
  const t = ctx.texts;
  const title = textOf(event.title);
  const description = textOf(event.excerpt || event.description);
  const venues = venuesOf(event.venue);
  const image = event.image === false ? undefined : event.image.url;
  const links = { siteUrl: ctx.siteRoot, apiRoot: ctx.apiRoot };
  const terms = (taxonomy: 'category' | 'tag', list: EventJson['categories']) =>
    list.map((term, i) => html`${i > 0 && ', '}<a href="${here(ctx, termArchiveUrl(links, taxonomy, term.slug))}">${textOf(term.name)}</a>`);
  const organizers = event.organizer.filter((o) => typeof o.organizer === 'string')
    .map((o, i) => html`${i > 0 && ', '}<a href="${here(ctx, o.url)}">${textOf(String(o.organizer))}</a>`);
  const place = venues.map((v) => [v.venue, addressOf(v)].filter(Boolean).join(', ')).join('; ');
  const add = addToCalendarLinks(event, { title, details: `${description}\n\n${event.url}`.trim(), location: place }, ctx.apiRoot);
  const feed = feedLinks(ctx.apiRoot);
  const seriesOf = series ?? (event.recurrence ? event : undefined);
  const jsonLd = eventPageJsonLd(event);
  const main = html`
<article class="event">
<h1>${title}</h1>${image && html`
<p><img src="${image}" alt="${title}"></p>`}
<dl class="facts">
<dt>${t.when}</dt><dd><time datetime="${event.utc_start_date.replace(' ', 'T')}Z">${eventWhen(event, ctx.language, t.allDay)}</time></dd>${venues.length > 0 && html`
<dt>${t.where}</dt><dd>${venues.map((v, i) => venueLines(ctx, v, i, event.show_map_link !== false))}</dd>`}${organizers.length > 0 && html`
<dt>${t.organizers}</dt><dd>${organizers}</dd>`}${event.cost && html`
<dt>${t.cost}</dt><dd>${event.cost}</dd>`}${event.website && event.website !== event.url && html`
<dt>${t.website}</dt><dd><a href="${event.website}" rel="noopener">${event.website}</a></dd>`}${event.categories.length > 0 && html`
<dt>${t.categories}</dt><dd>${terms('category', event.categories)}</dd>`}${event.tags.length > 0 && html`
<dt>${t.tags}</dt><dd>${terms('tag', event.tags)}</dd>`}${seriesOf && html`
<dt>${t.series}</dt><dd><a href="${here(ctx, seriesOf.url)}">${textOf(seriesOf.title)}</a></dd>`}
</dl>
<div class="description">${sanitized(event.description)}</div>${nextDates && html`
<h2>${t.nextDates}</h2>
${eventList(ctx, nextDates, event.id)}`}
<h2>${t.addTo}</h2>
<ul class="actions">
<li><a href="${add.ics}" type="text/calendar">${t.icsFile}</a></li>
<li><a href="${add.google}" rel="noopener">${t.googleCalendar}</a></li>
<li><a href="${add.outlook}" rel="noopener">${t.outlook}</a></li>
</ul>
<h2>${t.subscribe}</h2>
<ul class="actions">
<li><a href="${feed.webcal}">${t.subscribeApp}</a></li>
<li><a href="${feed.https}" type="text/calendar">${t.feedAddress}</a></li>
</ul>
</article>`;
  return recordDocument(ctx, { url: event.url, title, description, image, jsonLd: jsonLd ? [jsonLd] : [], main });
}

/** A venue of the event: its name (linking its page), its address, and a map link. */
function venueLines(ctx: PageContext, v: ReturnType<typeof venuesOf>[number], i: number, withMap: boolean): Html {
  const address = addressOf(v);
  const map = withMap ? mapUrl(v) : undefined;
  return html`${i > 0 && html`<br>`}${v.url ? html`<a href="${here(ctx, v.url)}">${v.venue}</a>` : v.venue}${address && html`<br>${address}`}${map && html`<br><a href="${map}" rel="noopener">${ctx.texts.map}</a>`}`;
}
