// @evcal/storage-test-suite: the suite every evcal storage adapter runs to prove itself.
export { registerStorageSuite } from './suite';
export type { StorageSuiteOptions } from './context';
export { eventRecord, venueRecord, organizerRecord, termRecord, userRecord, tokenRecord, utcWall } from './fixtures';
export { entry as changeEntry, endpoint as webhookEndpoint } from './change-log-group';
export { eventQueries, eventQueryFields } from './event-queries';
export type { EventQueryDomain } from './event-queries';
