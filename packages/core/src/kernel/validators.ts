// Validators: short strings that name the state a representation was built from, so that a
// client can ask "has it changed?" (HTTP ETag / If-None-Match) and "change it only if it has
// not" (If-Match). A record's validator is built from its revision and the revisions (and
// term counts) of what its representation embeds; a list's from the storage's change counter
// and the normalised query. They say nothing about the form of the representation (language,
// fields, addresses): the HTTP binding adds that part to make its entity tags.
import { CalendarError } from '../domain/errors';
import { msg } from '../domain/messages';
import type { EventRecord, OrganizerRecord, TermRecord, VenueRecord } from '../model/records';
import type { Related } from '../represent/event-json';

/**
 * Conditions on the current state of the record a write addresses, as validators: the write
 * proceeds when `ifMatch` names the current state (`'*'`: any state), and is refused when
 * `ifNoneMatch` names it (`'*'`: any state, so only a missing record passes).
 */
export interface Preconditions {
  readonly ifMatch?: '*' | readonly string[];
  readonly ifNoneMatch?: '*' | readonly string[];
}

/** An event's state: its revision and that of each venue, organizer and term it embeds (with term counts). */
export function eventValidator(event: EventRecord, related: Related): string {
  const parts: string[] = [];
  for (const id of event.venueIds) parts.push(`v${id}.${related.venues.get(id)?.revision ?? '-'}`);
  for (const id of event.organizerIds) parts.push(`o${id}.${related.organizers.get(id)?.revision ?? '-'}`);
  for (const [key, ids, terms] of [['c', event.categoryIds, related.categories], ['t', event.tagIds, related.tags]] as const) {
    for (const id of ids) {
      const t = terms.get(id);
      parts.push(t ? `${key}${id}.${t.term.revision}.${t.count}` : `${key}${id}.-`);
    }
  }
  return `e${event.id}r${event.revision}${parts.length ? `h${hash(parts.join(','))}` : ''}`;
}

/** A venue's or organizer's state (their representations embed nothing else). */
export function linkedPostValidator(kind: 'venue' | 'organizer', post: VenueRecord | OrganizerRecord): string {
  return `${kind === 'venue' ? 'v' : 'o'}${post.id}r${post.revision}`;
}

/** A term's state: its revision and its count of published events. */
export function termValidator(taxonomy: 'category' | 'tag', term: TermRecord, count: number): string {
  return `${taxonomy === 'category' ? 'c' : 't'}${term.id}r${term.revision}n${count}`;
}

/**
 * A list's state: the storage's change counter when the list was read, and the query (any
 * JSON-able description of everything the list's content depends on besides the stored data).
 */
export function listValidator(lastChange: number, query: unknown): string {
  return listValidatorOfText(lastChange, JSON.stringify(query));
}

/** `listValidator` of a query already serialised. */
export function listValidatorOfText(lastChange: number, text: string): string {
  return `l${lastChange}q${hash(text)}`;
}

/**
 * The change counter a list's entity tag (as sent back in `If-None-Match`) was made at, or
 * undefined for any other tag: a server reading from replicas sends a request carrying one
 * only to a replica that has replayed that far.
 */
export function listTagChange(tag: string): number | undefined {
  const m = /^(?:W\/)?"l(\d{1,15})q/.exec(tag.trim());
  return m ? Number(m[1]) : undefined;
}

/** Throws `precondition_failed` unless `conditions` hold for a record whose state is `current`. */
export function checkPreconditions(conditions: Preconditions | undefined, current: () => string): void {
  if (!conditions) return;
  const { ifMatch, ifNoneMatch } = conditions;
  // The record exists here (a missing one was answered before preconditions are evaluated).
  if (ifMatch !== undefined && ifMatch !== '*' && !ifMatch.includes(current())) throw preconditionFailed();
  if (ifNoneMatch !== undefined && (ifNoneMatch === '*' || ifNoneMatch.includes(current()))) throw preconditionFailed();
}

/** Whether the conditions need the current validator (not only that the record exists). */
export function needsValidator(conditions: Preconditions | undefined): boolean {
  return conditions !== undefined
    && ((conditions.ifMatch !== undefined && conditions.ifMatch !== '*') || (conditions.ifNoneMatch !== undefined && conditions.ifNoneMatch !== '*'));
}

function preconditionFailed(): CalendarError {
  return new CalendarError('precondition_failed', msg('The resource has changed since it was read; read it again before changing it.'));
}

/**
 * A 53-bit hash of a string's UTF-16 code units (cyrb53: two multiplicative lanes mixed at
 * the end), in base 36. Not cryptographic: validators only need distinct states to differ,
 * and their inputs are the server's own.
 */
export function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
