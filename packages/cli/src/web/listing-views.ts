// The pages of venues, organizers, categories and tags: what the record says (address and
// map, contact, description), then its upcoming events, paged.
import type { OrganizerJson, TermJson, VenueJson } from '@evcal/core';
import { html, sanitized, textOf, type Html } from './html';
import { addressOf, eventList, mapUrl, pager, recordDocument, type ListedEvent, type PageContext } from './record-document';

/** A page of the record's upcoming events. */
export interface EventsPage {
  readonly events: readonly ListedEvent[];
  readonly page: number;
  readonly pages: number;
}

export function venueDocument(ctx: PageContext, venue: VenueJson, events: EventsPage): string {
  const t = ctx.texts;
  const name = typeof venue.venue === 'string' ? textOf(venue.venue) : '';
  const address = addressOf(venue);
  const map = venue.show_map_link !== false ? mapUrl(venue) : undefined;
  const facts = html`${address && html`
<dt>${t.where}</dt><dd>${address}${map && html`<br><a href="${map}" rel="noopener">${t.map}</a>`}</dd>`}${contact(ctx, venue)}`;
  return listingDocument(ctx, { url: venue.url, name, description: venue.description ?? '', image: imageOf(venue.image), jsonLd: venue.json_ld, facts }, events);
}

export function organizerDocument(ctx: PageContext, organizer: OrganizerJson, events: EventsPage): string {
  const name = typeof organizer.organizer === 'string' ? textOf(organizer.organizer) : '';
  return listingDocument(ctx, {
    url: organizer.url, name, description: organizer.description ?? '', image: imageOf(organizer.image), jsonLd: organizer.json_ld, facts: contact(ctx, organizer),
  }, events);
}

export function termDocument(ctx: PageContext, term: TermJson, events: EventsPage): string {
  const kind = term.taxonomy === 'post_tag' ? ctx.texts.tag : ctx.texts.category;
  return listingDocument(ctx, { url: term.url, name: textOf(term.name), kindLabel: kind, description: term.description, image: undefined, jsonLd: undefined, facts: html`` }, events);
}

// ---- helpers ----

interface Listing {
  readonly url: string;
  readonly name: string;
  /** "Category" or "Tag", shown before the name. */
  readonly kindLabel?: string;
  readonly description: string;
  readonly image: string | undefined;
  /** The API's schema.org object of the record (Place, Person). */
  readonly jsonLd: object | undefined;
  /** The record's facts, as <dt>/<dd> pairs. */
  readonly facts: Html;
}

function listingDocument(ctx: PageContext, l: Listing, events: EventsPage): string {
  const t = ctx.texts;
  const main = html`
<article>${l.kindLabel && html`
<p class="kind">${l.kindLabel}</p>`}
<h1>${l.name}</h1>${l.image && html`
<p><img src="${l.image}" alt="${l.name}"></p>`}${l.facts.text && html`
<dl class="facts">${l.facts}
</dl>`}${l.description && html`
<div class="description">${sanitized(l.description)}</div>`}
<h2>${t.upcoming}</h2>
${eventList(ctx, events.events)}
${pager(ctx, events.page, events.pages)}
</article>`;
  const jsonLd = l.jsonLd ? [{ '@context': 'https://schema.org', ...l.jsonLd }] : [];
  return recordDocument(ctx, { url: l.url, title: l.name, description: textOf(l.description), image: l.image, jsonLd, main });
}

/** Phone, e-mail and website, where the record has them. */
function contact(ctx: PageContext, r: { phone?: string; email?: string; website?: string }): Html {
  const t = ctx.texts;
  const email = r.email ? textOf(r.email) : '';
  return html`${r.phone && html`
<dt>${t.phone}</dt><dd><a href="tel:${r.phone.replace(/[^\d+]/g, '')}">${r.phone}</a></dd>`}${email && html`
<dt>${t.email}</dt><dd><a href="mailto:${email}">${email}</a></dd>`}${r.website && html`
<dt>${t.website}</dt><dd><a href="${r.website}" rel="noopener">${r.website}</a></dd>`}`;
}

function imageOf(image: VenueJson['image']): string | undefined {
  return image ? image.url : undefined;
}
