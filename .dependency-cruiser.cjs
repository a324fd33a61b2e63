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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|drizzle|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
