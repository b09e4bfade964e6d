// The storage contract on an in-memory file system (memfs): logic, not durability.
import { registerStorageSuite } from '@evcal/storage-test-suite';
import { Volume } from 'memfs';
import type { FileSystemLike } from './file-system';
import { openJsonFileStorage } from './json-file-storage';

const volumes = new WeakMap<object, FileSystemLike>();

registerStorageSuite({
  name: 'file-json (memfs)',
  create: async () => {
    const fs = new Volume().promises as unknown as FileSystemLike;
    const storage = await openJsonFileStorage({ path: '/data/calendar.json', fs });
    volumes.set(storage, fs);
    return storage;
  },
  reopen: async (storage) => {
    const fs = volumes.get(storage)!;
    await storage.close();
    const again = await openJsonFileStorage({ path: '/data/calendar.json', fs });
    volumes.set(again, fs);
    return again;
  },
  propertyRuns: 25,
});
