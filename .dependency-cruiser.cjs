/**
 * Import rules checked by `npm run lint` (dependency-cruiser). A cycle makes a module's job
 * impossible to read on its own and its load order fragile, so none are allowed; type-only
 * imports count too, since they tie the files' meanings together just the same.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules must not import each other in a circle; move the shared part into its own file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'grounding-is-pure',
      severity: 'error',
      comment:
        'packages/grounding is pure computation over the contract types: no I/O, no other workspace, no library (docs/citations.md).',
      from: { path: '^packages/grounding/src/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: ['^packages/(grounding|contract)/', '^@xt/contract$'] },
    },
    {
      name: 'apps-stay-apart',
      severity: 'error',
      comment:
        'The API and the worker are separate processes; what both need lives in a package (the lifecycle in packages/extractions).',
      from: { path: '^apps/(api|worker)/' },
      to: { path: '^apps/(api|worker)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'packages-below-apps',
      severity: 'error',
      comment: 'Dependencies point one way: apps use packages, never the other way round.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'sources-know-no-lifecycle',
      severity: 'error',
      comment:
        'Fetching and preparing a source knows nothing of extraction rows or their states; the worker joins the two.',
      from: { path: '^packages/sources/' },
      to: { path: '^packages/extractions/' },
    },
    {
      name: 'tests-use-app-entries',
      severity: 'error',
      comment:
        'The tests workspace reaches an app through its package exports or by starting its process, never by a path into its source.',
      from: { path: '^tests/' },
      to: { path: '^apps/' },
    },
    {
      name: 'nothing-imports-tests',
      severity: 'error',
      comment: 'tests/ sits on top of everything: no app, package or script depends on it.',
      from: { path: '^(apps|packages|scripts)/' },
      to: { path: '^tests/' },
    },
    {
      name: 'formats-read-bytes-only',
      severity: 'error',
      comment:
        'packages/formats recognises a file from its bytes: it knows the contract’s format names and nothing else of the service, so the API, the fetcher and the sources can all use it.',
      from: { path: '^packages/formats/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(apps|packages)/', pathNot: '^packages/(formats|contract)/' },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'The contract is what every side agrees on; it depends on no other workspace.',
      from: { path: '^packages/contract/' },
      to: { path: '^(apps|packages)/', pathNot: '^packages/contract/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|drizzle|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
