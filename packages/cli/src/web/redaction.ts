// Records lists show redacted have no page: the pages, the sitemap and the calendar page's
// list leave them out. Used in the browser too, so it imports nothing.

/**
 * Whether a list shows a record redacted: a password-protected one, which lists show with
 * placeholders (behaviour reference: "Password-protected content (redaction)": an event's
 * `all_day` null, a venue's or organizer's name []) and which has no public page.
 */
export function isRedacted(item: { all_day?: unknown; venue?: unknown; organizer?: unknown }, kind: 'event' | 'venue' | 'organizer'): boolean {
  if (kind === 'event') return item.all_day === null;
  return typeof (kind === 'venue' ? item.venue : item.organizer) !== 'string';
}

