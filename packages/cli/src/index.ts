// @evcal/cli: the `evcal` command, and its server as a function for programs and tests.
export { serve, parseUser } from './serve';
export type { ServeOptions, ServeUser, RunningServer } from './serve';
export { openStorage, StorageUrlError, DEFAULT_STORAGE } from './storage-url';
export { importFile, exportStorage } from './transfer';
export { demoDataset } from './demo-dataset';
