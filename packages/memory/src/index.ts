// @evcal/memory: a storage adapter that keeps the calendar in this process.
export { createMemoryStorage } from './memory-storage';
export type { MemoryStorage, MemoryStorageOptions, MemorySnapshot } from './memory-storage';
