// The stored shape of each resource. Core normalises everything before it reaches storage
// (ids, slugs, UTC instants, derived fields), so adapters persist these records as they are.

/** Every post status the reference registers. Writes use the first five. */
export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** The statuses a write may set. */
export const WRITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const satisfies readonly PostStatus[];

/** The largest id a record may have (32-bit, as storage holds them); larger ids name nothing. */
export const MAX_ID = 2_147_483_647;

/** The kinds of record sharing the post id sequence. */
export type PostKind = 'event' | 'venue' | 'organizer';
export type Taxonomy = 'category' | 'tag';

/** A featured image: the URL, and what an image provider knows about it. */
export interface ImageRecord {
  readonly url: string;
  readonly id?: number;
  readonly width?: number;
  readonly height?: number;
  readonly filesize?: number;
  readonly sizes?: Readonly<Record<string, ImageSizeRecord>>;
}

export interface ImageSizeRecord {
  readonly url: string;
  readonly width?: number;
  readonly height?: number;
  readonly 'mime-type'?: string;
  readonly filesize?: number;
}

/** Fields every post (event, venue, organizer) has. */
export interface PostRecord {
  readonly id: number;
  /** User id of the author; 0 when there is none. */
  readonly authorId: number;
  readonly status: PostStatus;
  /** "" for drafts that never had one; `<slug>__trashed` while in the trash. */
  readonly slug: string;
  /** A non-empty password makes the post "protected" (redacted in lists). */
  readonly password: string;
  readonly title: string;
  readonly description: string;
  readonly excerpt: string;
  /** Publish date, site-local wall clock "YYYY-MM-DD HH:MM:SS". */
  readonly date: string;
  /** Publish date in UTC; null for a draft whose date was never set (shown as 0000-00-00 00:00:00). */
  readonly dateUtc: string | null;
  readonly modified: string;
  readonly modifiedUtc: string;
  readonly image: ImageRecord | null;
  /**
   * The storage's change number of the write that last changed the record (see
   * `StorageTransaction.change`): it grows with every write, so it names the record's state.
   */
  readonly revision: number;
  /**
   * The global ids of the sources the post was imported or migrated from (`global_id_lineage`
   * after the post's own global id); absent or empty for a post created here.
   */
  readonly lineage?: readonly string[];
}

export interface EventRecord extends PostRecord {
  /** Id of the parent event (recurring instances); 0 for none. */
  readonly parentId: number;
  /** The zone string stored with the event, e.g. "America/New_York", "UTC+2". */
  readonly timezone: string;
  readonly timezoneAbbr: string;
  readonly allDay: boolean;
  /** Local wall clocks "YYYY-MM-DD HH:MM:SS" in the event zone. */
  readonly startLocal: string;
  readonly endLocal: string;
  /** UTC instants, epoch milliseconds. */
  readonly startUtc: number;
  readonly endUtc: number;
  /** The cost strings as given (one per value sent). */
  readonly cost: readonly string[];
  readonly currencySymbol: string;
  /** "" when none was inferred or stored. */
  readonly currencyPosition: '' | 'prefix' | 'postfix';
  readonly currencyCode: string;
  /** null: never set, and the permalink stands in for it; "" when explicitly empty. */
  readonly website: string | null;
  readonly showMap: boolean;
  readonly showMapLink: boolean;
  readonly hideFromListings: boolean;
  readonly sticky: boolean;
  readonly featured: boolean;
  /** Set by an app that sells tickets; null when unknown. */
  readonly ticketed: boolean | null;
  readonly categoryIds: readonly number[];
  readonly tagIds: readonly number[];
  readonly venueIds: readonly number[];
  readonly organizerIds: readonly number[];
  /** The UID of the iCalendar event it was imported from (a new import of the file updates it); absent otherwise. */
  readonly icalUid?: string;
  /**
   * A series (docs/recurrence.md): the rule its occurrences follow. Lists show the
   * occurrences in its place; its own start and end are those of the first occurrence.
   */
  readonly recurrence?: RecurrenceRecord;
  /**
   * An occurrence of the series `parentId`, materialised by core from the series (and its own
   * changes, when it is an exception). Its id is above MAX_ID (model/occurrence-id.ts).
   */
  readonly occurrence?: OccurrenceRecord;
}

/** The recurrence of a series, in the series' zone. */
export interface RecurrenceRecord {
  /** The RRULE value (RFC 5545, without DTSTART), normalised; "" for a series of RDATEs alone. */
  readonly rrule: string;
  /** Extra starts, local wall clocks "YYYY-MM-DD HH:MM:SS", sorted. */
  readonly rdate: readonly string[];
  /** Starts left out: local wall clocks, or dates "YYYY-MM-DD" (every start that day), sorted. */
  readonly exdate: readonly string[];
  /**
   * The id occurrence ids are numbered from: the series' own, or for a series split off
   * another ("this and following"), that one's, so that the occurrences keep their ids.
   */
  readonly idBase: number;
}

/** What makes an event an occurrence. */
export interface OccurrenceRecord {
  /** The local date the rule generated it on, "YYYY-MM-DD": with the series, its identity. */
  readonly date: string;
  /** The start the rule generated (its RECURRENCE-ID), local wall clock. */
  readonly originalStart: string;
  /** What was changed on this occurrence alone (an exception); absent when it follows its series. */
  readonly overrides?: EventOverrides;
}

/** The fields an occurrence may change on its own. */
export const OVERRIDABLE_FIELDS = [
  'status', 'password', 'title', 'description', 'excerpt', 'image', 'timezone', 'allDay', 'startLocal', 'endLocal',
  'cost', 'currencySymbol', 'currencyPosition', 'currencyCode', 'website', 'showMap', 'showMapLink', 'hideFromListings',
  'sticky', 'featured', 'ticketed', 'categoryIds', 'tagIds', 'venueIds', 'organizerIds', 'modified', 'modifiedUtc',
] as const satisfies readonly (keyof EventRecord)[];
export type EventOverrides = Partial<Pick<EventRecord, (typeof OVERRIDABLE_FIELDS)[number]>>;

export interface VenueRecord extends PostRecord {
  readonly address: string;
  readonly city: string;
  readonly country: string;
  readonly province: string;
  readonly state: string;
  readonly zip: string;
  readonly phone: string;
  readonly stateprovince: string;
  readonly website: string;
  readonly showMap: boolean;
  readonly showMapLink: boolean;
  readonly geoLat: number | null;
  readonly geoLng: number | null;
}

export interface OrganizerRecord extends PostRecord {
  readonly phone: string;
  readonly website: string;
  readonly email: string;
}

export interface TermRecord {
  readonly id: number;
  readonly name: string;
  readonly slug: string;
  readonly description: string;
  /** Parent category id; always 0 for tags. */
  readonly parent: number;
  /** The change number of the write that last changed the term (as `PostRecord.revision`). */
  readonly revision: number;
  /**
   * When the term itself (name, slug, description, parent) last changed, UTC "YYYY-MM-DD
   * HH:MM:SS"; absent for terms written before evcal kept it (they match no `modified` filter).
   */
  readonly modifiedUtc?: string;
}

export type LinkedPostRecord = VenueRecord | OrganizerRecord;
