// @evcal/file-json: the calendar as one JSON document on disk.
export { freeBytesAt, openJsonFileStorage } from './json-file-storage';
export type { JsonFileStorageOptions } from './json-file-storage';
export type { FileSystemLike, FileHandleLike, FileStatLike } from './file-system';
