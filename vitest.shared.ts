// Settings every test project shares: resolve workspace packages (@evcal/*) to their
// TypeScript sources through the "@evcal/source" export condition, so tests never need a build.
import { defaultServerConditions } from 'vite';
import type { ViteUserConfig } from 'vitest/config';

const conditions = ['@evcal/source', ...defaultServerConditions];

export const shared: ViteUserConfig = {
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
};
