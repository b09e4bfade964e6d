// The reference semantics of category and tag lists, as pure functions.
import type { EventRecord, PostStatus, Taxonomy, TermRecord } from '../model/records';
import { modifiedIn, paginate } from './event-engine';
import type { CountedTerm, Page, TermQuery, TermSortKey } from './query-types';
import { foldText } from './text-match';

/**
 * For each term id, how many events with one of `statuses` use it. A series counts once, as
 * the one event it is: its occurrences are not counted.
 */
export function countEventsByTerm(
  events: Iterable<EventRecord>, taxonomy: Taxonomy, statuses: readonly PostStatus[],
): Map<number, number> {
  const counts = new Map<number, number>();
  for (const e of events) {
    if (!statuses.includes(e.status) || e.occurrence !== undefined) continue;
    for (const id of taxonomy === 'category' ? e.categoryIds : e.tagIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** The ids of `rootIds` and all their descendants among `terms`. */
export function withDescendants(terms: Iterable<TermRecord>, rootIds: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const t of terms) {
    if (t.parent === 0) continue;
    const list = children.get(t.parent);
    if (list) list.push(t.id);
    else children.set(t.parent, [t.id]);
  }
  const seen = new Set<number>();
  const stack = [...rootIds];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...seen];
}

export function runTermQuery(
  taxonomy: Taxonomy, terms: readonly TermRecord[], events: Iterable<EventRecord>, query: TermQuery,
): Page<CountedTerm<TermRecord>> {
  // Read twice below (counts, then the event filter): a one-shot iterator must not run dry.
  events = Array.isArray(events) ? events : [...events];
  const counts = countEventsByTerm(events, taxonomy, query.countStatuses);
  const nonEmpty = query.hideEmpty ? nonEmptyIds(taxonomy, terms, counts) : undefined;
  const eventTerms = query.eventId === undefined ? undefined : termIdsOfEvent(events, taxonomy, query.eventId);
  const search = query.search;
  const matching: CountedTerm<TermRecord>[] = [];
  for (const term of terms) {
    if (query.ids && !query.ids.includes(term.id)) continue;
    if (query.excludeIds?.includes(term.id)) continue;
    if (search !== undefined && !foldText(term.name).includes(search) && !foldText(term.slug).includes(search)) continue;
    if (query.parent !== undefined && term.parent !== query.parent) continue;
    if (eventTerms && !eventTerms.has(term.id)) continue;
    if (query.slugs && !query.slugs.includes(term.slug)) continue;
    if (query.nameKeys && !query.nameKeys.includes(foldText(term.name))) continue;
    if (nonEmpty && !nonEmpty.has(term.id)) continue;
    if (query.modified && !modifiedIn(term.modifiedUtc, query.modified)) continue;
    matching.push({ term, count: counts.get(term.id) ?? 0 });
  }
  matching.sort((a, b) => compareTerms(a, b, query.sort, query.ids));
  return { items: paginate(matching, query), total: matching.length };
}

export function compareTerms(
  a: CountedTerm<TermRecord>, b: CountedTerm<TermRecord>, sort: readonly TermSortKey[], ids?: readonly number[],
): number {
  for (const key of sort) {
    const c = compareBy(a, b, key, ids);
    if (c !== 0) return key.direction === 'asc' ? c : -c;
  }
  return 0;
}

// ---- helpers ----

/** Used terms and, for categories, the ancestors of used terms. */
function nonEmptyIds(taxonomy: Taxonomy, terms: readonly TermRecord[], counts: Map<number, number>): Set<number> {
  const keep = new Set<number>();
  const parentOf = new Map(terms.map((t) => [t.id, t.parent]));
  for (const [id, n] of counts) {
    if (n === 0) continue;
    keep.add(id);
    if (taxonomy !== 'category') continue;
    for (let p = parentOf.get(id) ?? 0; p !== 0 && !keep.has(p); p = parentOf.get(p) ?? 0) keep.add(p);
  }
  return keep;
}

function termIdsOfEvent(events: Iterable<EventRecord>, taxonomy: Taxonomy, eventId: number): Set<number> {
  for (const e of events) {
    if (e.id === eventId) return new Set(taxonomy === 'category' ? e.categoryIds : e.tagIds);
  }
  return new Set();
}

function compareBy(a: CountedTerm<TermRecord>, b: CountedTerm<TermRecord>, key: TermSortKey, ids?: readonly number[]): number {
  switch (key.field) {
    case 'id': return a.term.id - b.term.id;
    case 'count': return a.count - b.count;
    case 'parent': return a.term.parent - b.term.parent;
    case 'include': return (ids?.indexOf(a.term.id) ?? 0) - (ids?.indexOf(b.term.id) ?? 0);
    case 'name': return cmpText(a.term.name, b.term.name);
    case 'slug': return cmpText(a.term.slug, b.term.slug);
    case 'description': return cmpText(a.term.description, b.term.description);
  }
}

/** Names sort case-insensitively (as a `_ci` collation does), then by code unit. */
function cmpText(a: string, b: string): number {
  const fa = foldText(a);
  const fb = foldText(b);
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
