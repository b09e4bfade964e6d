// @evcal/cli: the `evcal` command, and its server as a function for programs and tests.
export { serve } from './serve';
export { parseUser } from './serve-users';
export type { ServeOptions, ServeTimeouts, ServeUser, ServeWebhookOptions, RunningServer } from './serve-options';
export { createLogger, LOG_LEVELS } from './logger';
export type { Logger, LoggerOptions, LogLevel, LogFields } from './logger';
export { openStorage, StorageUrlError, DEFAULT_STORAGE } from './storage-url';
export type { OpenStorageOptions } from './storage-url';
export { importFile, exportStorage } from './transfer';
export { demoDataset } from './demo-dataset';
export { asBulkLoad } from './bulk-load';
