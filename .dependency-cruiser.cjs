// Import rules checked by `npm run lint:imports` (part of npm test): no cycle in any package.
// dependency-cruiser reads the TypeScript imports, type-only ones included (a type cycle is a
// cycle for the reader too). docs/architecture.md says how core's layers stay acyclic.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A module may not import itself through others: a feature depends on the kernel below it, never the other way.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', 'dist'] },
    exclude: { path: ['node_modules', '/dist/', '\\.test\\.ts$', '/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { conditionNames: ['@evcal/source', 'import', 'require', 'node', 'default'] },
  },
};
