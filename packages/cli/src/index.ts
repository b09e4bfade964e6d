// @evcal/cli: the `evcal` command, and its server as a function for programs and tests.
export { serve, parseUser } from './serve';
export type { ServeOptions, ServeUser, RunningServer } from './serve';
export { openStorage, StorageUrlError } from './storage-url';
export { demoDataset } from './demo-dataset';
