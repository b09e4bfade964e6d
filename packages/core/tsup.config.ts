import { defineConfig } from 'tsup';
import { library } from '../../tsup.shared.ts';

// The app surface, and the subpaths for storage adapters (./adapter) and transport bindings (./binding).
export default defineConfig({ ...library, entry: ['src/index.ts', 'src/adapter.ts', 'src/binding.ts'] });
