// The test projects of the monorepo. vitest 4 no longer discovers a workspace file on its
// own; the root vitest.config.ts passes this list to `test.projects`. The examples, installed
// apart, have their own (examples/vitest.config.ts, `npm run test:examples`).
export const projects = [
  'packages/core',
  'packages/memory',
  'packages/file-json',
  'packages/sql',
  'packages/http',
  'packages/client',
  'packages/migrate',
  'packages/cli',
  'test',
];
