import { defineConfig } from 'tsup';
import { library } from '../../tsup.shared.ts';

export default defineConfig(library);
