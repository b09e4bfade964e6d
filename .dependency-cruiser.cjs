// Import rules checked by `npm run lint:imports` (part of npm test): no cycle in any package;
// core imports neither the migration client nor anything that speaks over the network.
// dependency-cruiser reads the TypeScript imports, type-only ones included (a type cycle is a
// cycle for the reader too). docs/architecture.md says how core's layers stay acyclic.
const CORE = 'packages/core/src/';
const FOUNDATION = 'model|time|query|domain|recurrence|represent|storage|auth|accounts';
/** The composition root: createCalendar and its configuration, and the package's entry points. */
const ROOT = 'calendar/|index\\.ts$|binding\\.ts$|adapter\\.ts$';
const ABOVE_EVENTS = `changes/|dataset/|ical/|${ROOT}`;
const ABOVE_RESOURCES = `events/|${ABOVE_EVENTS}`;
const ABOVE_SHARED = `terms/|linked-posts/|${ABOVE_RESOURCES}`;
const ABOVE_KERNEL = `shared/|${ABOVE_SHARED}`;
const ABOVE_FOUNDATION = `kernel/|${ABOVE_KERNEL}`;

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
    // @evcal/core's folders are layers (docs/architecture.md, "Core's layers"); a folder imports
    // only the layers below it, so no two folders import each other.
    {
      name: 'core-foundation',
      severity: 'error',
      comment: 'The model, time, query rules, representations, storage interface and permissions know nothing of the operations built on them.',
      from: { path: `^${CORE}(${FOUNDATION})/` },
      to: { path: `^${CORE}(?:${ABOVE_FOUNDATION})` },
    },
    {
      name: 'core-kernel',
      severity: 'error',
      comment: 'The kernel (call context, configuration, the write runner, argument parsing) imports no feature.',
      from: { path: `^${CORE}kernel/` },
      to: { path: `^${CORE}(?:${ABOVE_KERNEL})` },
    },
    {
      name: 'core-shared',
      severity: 'error',
      comment: 'The rules the resources share (access, status filters, slugs and publish dates, common arguments) import no resource.',
      from: { path: `^${CORE}shared/` },
      to: { path: `^${CORE}(?:${ABOVE_SHARED})` },
    },
    {
      name: 'core-resources',
      severity: 'error',
      comment: 'Terms and linked posts (venues, organizers) sit side by side, below the events that refer to them.',
      from: { path: `^${CORE}(terms|linked-posts)/` },
      to: { path: `^${CORE}(?:terms/|linked-posts/|${ABOVE_RESOURCES})`, pathNot: `^${CORE}$1/` },
    },
    {
      name: 'core-events',
      severity: 'error',
      comment: 'Events and series import neither the services built on them nor the composition root.',
      from: { path: `^${CORE}events/` },
      to: { path: `^${CORE}(?:${ABOVE_EVENTS})` },
    },
    {
      name: 'core-services',
      severity: 'error',
      comment: 'Changes and webhooks, datasets and iCalendar sit side by side: none imports another, nor the composition root.',
      from: { path: `^${CORE}(changes|dataset|ical)/` },
      to: { path: `^${CORE}(?:changes/|dataset/|ical/|${ROOT})`, pathNot: `^${CORE}$1/` },
    },
    {
      name: 'core-not-migrate',
      severity: 'error',
      comment: 'Core is pure functions over a storage: the client of a remote site (@evcal/migrate) builds on core, never the other way.',
      from: { path: '^packages/core/src/' },
      to: { path: ['^packages/migrate/', 'node_modules/@evcal/migrate/'] },
    },
    {
      name: 'core-no-network',
      severity: 'error',
      comment: 'Core does no network I/O: HTTP servers and clients live in @evcal/http, @evcal/migrate and @evcal/cli.',
      from: { path: '^packages/core/src/' },
      to: { path: ['^(node:)?(http|https|http2|net|tls|dgram|dns)$', '(^|/)node_modules/(undici|node-fetch|axios|got|ky|ws)/'] },
    },
    {
      name: 'migrate-through-core-api',
      severity: 'error',
      comment: "@evcal/migrate uses core's public entry points (@evcal/core, @evcal/core/adapter), never its internals.",
      from: { path: '^packages/migrate/src/' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/(index|adapter)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', 'dist'] },
    exclude: { path: ['node_modules', '/dist/', '\\.test\\.ts$', '/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // exportsFields: dependency-cruiser reads no `exports` by default, and without it no import of
    // another workspace package (@evcal/core from @evcal/migrate) was resolved, so no rule saw one.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['@evcal/source', 'import', 'require', 'node', 'default'] },
  },
};
