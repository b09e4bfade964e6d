import { registerStorageSuite } from '@evcal/storage-test-suite';
import { createMemoryStorage } from './memory-storage';

registerStorageSuite({ name: 'memory', create: () => createMemoryStorage() });
