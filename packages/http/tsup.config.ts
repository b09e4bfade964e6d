import { defineConfig } from 'tsup';
import { library } from '../../tsup.shared.ts';

// The fetch handler, and the bridges as subpaths (./node, ./next).
export default defineConfig({ ...library, entry: ['src/index.ts', 'src/node.ts', 'src/next.ts'] });
