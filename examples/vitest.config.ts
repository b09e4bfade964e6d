// The examples' tests (`npm run test:examples` at the repository root): one vitest project per
// example, each app importing the @evcal packages from their sources (vitest.shared.ts).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { projects: ['express', 'fastify', 'hono', 'nextjs', 'node-http'] },
});
