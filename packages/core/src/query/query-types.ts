// The queries storage adapters evaluate. Core builds them fully normalised: UTC instants in
// epoch milliseconds, folded search words, resolved ids (category filters already include
// descendants), effective statuses, and a sort that always ends with the id. Adapters never
// see raw request values, zone names or relative dates.
import type { PostStatus } from '../model/records';

export type SortDirection = 'asc' | 'desc';

/** Bounds on an instant; every bound present must hold. */
export interface InstantRange {
  readonly gt?: number;
  readonly gte?: number;
  readonly lt?: number;
  readonly lte?: number;
}

export interface Paging {
  /** Items to return at most; absent: all. */
  readonly limit?: number;
  /** Items to skip. */
  readonly offset?: number;
}

export interface EventSortKey {
  /** `startLocal`: local wall-clock start; `date`: local publish date; `distance`: from `geo.near`. */
  readonly field: 'startLocal' | 'date' | 'distance' | 'id';
  readonly direction: SortDirection;
}

export type GeoFilter =
  /** Events whose venue has coordinates. */
  | { readonly kind: 'has-coordinates' }
  /** Events whose venue lies within `radiusKm` of a point (great-circle distance). */
  | { readonly kind: 'near'; readonly lat: number; readonly lng: number; readonly radiusKm: number };

/**
 * The caller's own posts: those by `authorId` also match with these statuses (a contributor
 * sees their own drafts, not everyone's).
 */
export interface OwnedBy {
  readonly authorId: number;
  readonly statuses: readonly PostStatus[];
}

/**
 * Which records an event query reads (docs/recurrence.md): `listed`, what lists show (single
 * events and the occurrences of series, never a series itself); `stored`, what a calendar is
 * made of (single events and series, no occurrence: exports, maintenance); `series`, series alone.
 */
export type EventRecords = 'listed' | 'stored' | 'series';

export interface EventQuery extends Paging {
  readonly records: EventRecords;
  /** Statuses to include (may be empty when `ownedBy` is given). */
  readonly statuses: readonly PostStatus[];
  readonly ownedBy?: OwnedBy;
  /** Leave out events hidden from listings. */
  readonly excludeHidden: boolean;
  readonly ids?: readonly number[];
  readonly start?: InstantRange;
  readonly end?: InstantRange;
  /** Folded words; each must occur in the folded title, description or excerpt. */
  readonly search?: readonly string[];
  /** Any of these categories (descendants already included). */
  readonly categoryIds?: readonly number[];
  /** Any of these tags. */
  readonly tagIds?: readonly number[];
  readonly venueIds?: readonly number[];
  readonly organizerIds?: readonly number[];
  readonly featured?: boolean;
  readonly parentId?: number;
  readonly ticketed?: boolean;
  readonly geo?: GeoFilter;
  /** Bounds on the last modification (`modifiedUtc`, whole seconds). */
  readonly modified?: InstantRange;
  /** Ends with `id`. */
  readonly sort: readonly EventSortKey[];
}

/** Linked-event conditions of venue and organizer lists. */
export interface LinkedEventCondition {
  /** Statuses of the events that count. */
  readonly eventStatuses: readonly PostStatus[];
  /** Only events starting at or after this instant count. */
  readonly startingFrom?: number;
}

export interface LinkedPostSortKey {
  readonly field: 'date' | 'id';
  readonly direction: SortDirection;
}

/** A venue or organizer list. */
export interface LinkedPostQuery extends Paging {
  /** Statuses to include (may be empty when `ownedBy` is given). */
  readonly statuses: readonly PostStatus[];
  readonly ownedBy?: OwnedBy;
  readonly ids?: readonly number[];
  /** Folded fragments; all must occur in one and the same searchable field. */
  readonly search?: readonly string[];
  /** Folded title equal to this (duplicate detection). */
  readonly titleEquals?: string;
  /** Folded description equal to this (duplicate detection). */
  readonly descriptionEquals?: string;
  /** Linked to this event. */
  readonly eventId?: number;
  /** true: linked to at least one matching event; false: to none. */
  readonly hasEvents?: { readonly value: boolean } & LinkedEventCondition;
  /** Linked to at least one matching event. */
  readonly withEvents?: LinkedEventCondition;
  /** Bounds on the last modification (`modifiedUtc`, whole seconds). */
  readonly modified?: InstantRange;
  /** Ends with `id`. */
  readonly sort: readonly LinkedPostSortKey[];
}

export type TermSortField = 'name' | 'id' | 'slug' | 'count' | 'description' | 'parent' | 'include';

export interface TermSortKey {
  readonly field: TermSortField;
  readonly direction: SortDirection;
}

export interface TermQuery extends Paging {
  readonly ids?: readonly number[];
  readonly excludeIds?: readonly number[];
  /** Folded text contained in the folded name or slug. */
  readonly search?: string;
  readonly parent?: number;
  /** Assigned to this event. */
  readonly eventId?: number;
  /** Any of these exact slugs. */
  readonly slugs?: readonly string[];
  /** Any of these folded names (see foldText). */
  readonly nameKeys?: readonly string[];
  /**
   * Leave out terms no counted event uses. For categories, a parent stays when one of its
   * descendants is used.
   */
  readonly hideEmpty: boolean;
  /** Statuses of the events a term's count includes. */
  readonly countStatuses: readonly PostStatus[];
  /** Bounds on the term's last modification (`modifiedUtc`); terms without one never match. */
  readonly modified?: InstantRange;
  /** Ends with `id`; `include` sorts by position in `ids`. */
  readonly sort: readonly TermSortKey[];
}

/** One page of a list, and how many items match over all pages. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
}

export interface CountedTerm<T> {
  readonly term: T;
  /** Events with a counted status using the term. */
  readonly count: number;
}
