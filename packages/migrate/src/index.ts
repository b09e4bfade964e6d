// @evcal/migrate: moving in from a live site running The Events Calendar (or evcal in its
// layout), over the site's REST API, into a calendar's storage. An HTTP client, kept out of
// @evcal/core, which stays pure functions over a storage; it writes through core's public API.

export { migrateFromReference } from './migrate';
export type { MigrateOptions, MigrationProgress } from './migrate';
export { MigrationError, isMigrationError } from './migration-error';
export type { MigrationErrorCode } from './migration-error';
export type { MigrationReport, MigrationKind, KindCounts, RecordIssue } from './migration-report';
export type { FetchLike } from './source-client';
