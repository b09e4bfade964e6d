// The tables, as Kysely sees them. Booleans are 0/1 integers and JSON values text in both
// dialects, so one set of row mappings serves SQLite and PostgreSQL. Instants are epoch
// milliseconds (bigint); wall clocks are fixed-width "YYYY-MM-DD HH:MM:SS" text, which sorts
// correctly byte by byte. `search_*` and `*_key` columns hold folded copies (core's foldText)
// so the database compares text exactly as the reference engine does.

import type { Generated } from 'kysely';

/** PostgreSQL returns bigint as a string. */
export type BigIntColumn = number | string;

interface PostColumns {
  id: number;
  author_id: number;
  status: string;
  slug: string;
  password: string;
  title: string;
  description: string;
  excerpt: string;
  date: string;
  date_utc: string | null;
  modified: string;
  modified_utc: string;
  /** JSON of the image record, or null. */
  image: string | null;
  /** The change number of the record's last write (core's `revision`). */
  revision: BigIntColumn;
  /** JSON array of the global ids the post was migrated or imported from, or null (migration 0005). */
  lineage: string | null;
  search_title: string;
  search_description: string;
  search_excerpt: string;
}

export interface EventsTable extends PostColumns {
  parent_id: number;
  timezone: string;
  timezone_abbr: string;
  all_day: number;
  start_local: string;
  end_local: string;
  start_utc: BigIntColumn;
  end_utc: BigIntColumn;
  /** JSON array of the cost strings. */
  cost: string;
  currency_symbol: string;
  currency_position: string;
  currency_code: string;
  website: string | null;
  show_map: number;
  show_map_link: number;
  /** 1 when hidden from lists; plus 2 for a series, whose occurrences are listed instead (migration 0009). */
  hide_from_listings: number;
  sticky: number;
  featured: number;
  ticketed: number | null;
  /** The UID of the iCalendar event it was imported from (migration 0004). */
  ical_uid: string | null;
  /** Local start read as UTC minus start_utc (rows.ts startOffset). */
  start_offset: BigIntColumn;
  /** The folded title, description and excerpt joined by U+001F, indexed by trigrams (compile.ts search). */
  search_text: string;
  /** A series: JSON of its RecurrenceRecord (migration 0009); its hide_from_listings is then 2 or 3. */
  recurrence: string | null;
  /** An occurrence: JSON of its OccurrenceRecord (migration 0009). */
  occurrence: string | null;
}

/** Event ↔ category, tag, venue and organizer links, in the order the event lists them. */
export interface EventLinksTable {
  event_id: number;
  kind: 'category' | 'tag' | 'venue' | 'organizer';
  ref_id: number;
  position: number;
  /** The event's start_utc, so that term filters with a date window read only the window's links. */
  start_utc: BigIntColumn;
  /** The event's start_local, so that a term's events are read in list order (migration 0010). */
  start_local: string;
}

interface LinkedPostColumns extends PostColumns {
  phone: string;
  website: string;
  /** foldText(title.trim()) and foldText(description.trim()), for duplicate detection. */
  title_key: string;
  /** A 32-bit hash of title_key, indexed: names can be longer than an index entry may be. */
  title_hash: number;
  description_key: string;
  search_phone: string;
}

export interface VenuesTable extends LinkedPostColumns {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  stateprovince: string;
  show_map: number;
  show_map_link: number;
  geo_lat: number | null;
  geo_lng: number | null;
  search_address: string;
  search_city: string;
  search_province: string;
  search_state: string;
  search_stateprovince: string;
  search_zip: string;
}

export interface OrganizersTable extends LinkedPostColumns {
  email: string;
  search_email: string;
  search_website: string;
}

export interface TermsTable {
  id: number;
  taxonomy: 'category' | 'tag';
  name: string;
  slug: string;
  description: string;
  parent: number;
  name_key: string;
  slug_key: string;
  description_key: string;
  revision: BigIntColumn;
  /** The term's last modification, UTC wall clock; null for terms written before migration 0007. */
  modified_utc: string | null;
}

/** Events per UTC day of their start, status and hidden flag, overall (kind '') and per category and tag; kept by triggers (migration 0006). */
export interface EventDaysTable {
  kind: '' | 'category' | 'tag';
  ref_id: number;
  status: string;
  hidden: number;
  day: BigIntColumn;
  n: BigIntColumn;
}

/** Events per category or tag and status, kept by triggers (migrations.ts). */
export interface TermCountsTable {
  kind: 'category' | 'tag';
  ref_id: number;
  status: string;
  n: BigIntColumn;
}

export interface SequencesTable {
  /**
   * The id sequences, `change`: the change counter (Storage.lastChange), `changes_pruned`: the
   * change up to which the change log was pruned (migration 0007), and `horizon`: how far
   * series without an end are stored (migration 0009).
   */
  name: 'post' | 'term' | 'change' | 'changes_pruned' | 'horizon';
  value: BigIntColumn;
}

/** The users of the server (migration 0008). */
export interface UsersTable {
  id: number;
  name: string;
  /** The name lowercased (core's userNameKey), unique. */
  name_key: string;
  role: string;
  created: BigIntColumn;
}

/** API tokens as SHA-256 hashes (migration 0008). */
export interface TokensTable {
  id: string;
  user_id: number;
  kind: 'bearer' | 'application-password';
  label: string;
  hash: string;
  created: BigIntColumn;
  expires: BigIntColumn | null;
}

/** The change log: one row per record a write transaction changed (migration 0007). */
export interface ChangesTable {
  change: BigIntColumn;
  seq: number;
  kind: string;
  record_id: BigIntColumn;
  action: string;
  revision: BigIntColumn;
  at: BigIntColumn;
  status_before: string | null;
  author_before: number | null;
  status_after: string | null;
  author_after: number | null;
  /** A series' entry: JSON of OccurrenceActions (migration 0011). */
  occurrences: string | null;
  /** An occurrence's entry: its series. */
  series_id: BigIntColumn | null;
}

/** Named values: `change_log_id`, the log's random identity. */
export interface MetaTable {
  name: string;
  value: string;
}

export interface WebhookEndpointsTable {
  id: string;
  url: string;
  secret: string;
  /** JSON array of event types. */
  types: string;
  description: string;
  enabled: number;
  disabled_reason: string | null;
  created: BigIntColumn;
  updated: BigIntColumn;
  /** The last attempt (0019_webhook_status); written by settlements only. */
  last_attempt_at: BigIntColumn | null;
  last_status: number | null;
  last_error: string | null;
  consecutive_failures: Generated<number>;
}

/** The outbox: pending and failed deliveries (delivered ones are removed). */
export interface WebhookDeliveriesTable {
  endpoint_id: string;
  change: BigIntColumn;
  seq: number;
  message_id: string;
  record_key: string;
  type: string;
  payload: string;
  state: string;
  attempts: number;
  next_attempt_at: BigIntColumn;
  leased_until: BigIntColumn | null;
  last_attempt_at: BigIntColumn | null;
  last_status: number | null;
  last_error: string | null;
}

/** The answers of writes sent with an idempotency key (migration 0018). */
export interface IdempotencyTable {
  scope: string;
  key: string;
  fingerprint: string;
  answer: string;
  created: BigIntColumn;
  expires: BigIntColumn;
}

export interface EvcalDatabase {
  evcal_events: EventsTable;
  evcal_event_links: EventLinksTable;
  evcal_venues: VenuesTable;
  evcal_organizers: OrganizersTable;
  evcal_terms: TermsTable;
  evcal_term_counts: TermCountsTable;
  evcal_event_days: EventDaysTable;
  evcal_sequences: SequencesTable;
  evcal_users: UsersTable;
  evcal_tokens: TokensTable;
  evcal_changes: ChangesTable;
  evcal_meta: MetaTable;
  evcal_webhook_endpoints: WebhookEndpointsTable;
  evcal_webhook_deliveries: WebhookDeliveriesTable;
  evcal_idempotency: IdempotencyTable;
}
