import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

/**
 * Each table's one owner (docs/architecture.md#who-owns-each-table): only the owner imports the
 * table's drizzle object from `@xt/db`; every other workspace calls the owner's functions.
 */
export const TABLE_OWNERS = {
  'packages/accounts': ['accounts', 'apiKeys', 'users', 'sessions'],
  'packages/blob-store': ['blobs', 'blobChunks'],
  'packages/extractions': [
    'extractions',
    'extractionCounts',
    'extractionDayCounts',
    'extractionWindows',
    'extractionWindowSources',
    'extractionWindowPdfs',
    'preparedSources',
    'modelBatches',
  ],
  'packages/webhooks': ['webhookEndpoints', 'webhookEvents', 'webhookMessages', 'webhookAttempts'],
  'apps/api': ['schemas', 'idempotencyKeys'],
};

/**
 * The reads the map allows outside the owner, each for a reason docs/architecture.md gives: the
 * API's list pages run its one keyset query over the owner's table, and packages/extractions
 * copies a schema into the extraction it creates (a package cannot call into an app).
 */
const OTHERS_READ = {
  'apps/api/src/extractions/list.ts': ['extractions', 'extractionCounts', 'extractionDayCounts'],
  'apps/api/src/reviews/service.ts': ['extractions'],
  'apps/api/src/webhooks/service.ts': ['webhookEndpoints', 'webhookAttempts'],
  'packages/extractions/src/create.ts': ['schemas'],
  'packages/extractions/src/reuse/lookup.ts': ['schemas'],
  'packages/extractions/src/review/on-completion.ts': ['schemas'],
};

const WORKSPACES_WITH_TABLES = [
  'apps/api',
  'apps/launcher',
  'apps/worker',
  ...Object.keys(TABLE_OWNERS),
];

/** `no-restricted-imports` for a file of `workspace`, allowed `read` besides its own tables. */
function onlyOwnTables(workspace, read = []) {
  const own = new Set([...(TABLE_OWNERS[workspace] ?? []), ...read]);
  const others = Object.entries(TABLE_OWNERS).flatMap(([owner, tables]) =>
    tables.filter((t) => !own.has(t)).map((t) => [t, owner]),
  );
  return {
    'no-restricted-imports': [
      'error',
      ...others.map(([table, owner]) => ({
        name: '@xt/db',
        importNames: [table],
        message: `${owner} owns this table: call its functions (docs/architecture.md#who-owns-each-table).`,
      })),
    ],
  };
}

const tableOwnership = [
  ...WORKSPACES_WITH_TABLES.map((workspace) => ({
    files: [`${workspace}/src/**/*.ts`],
    // Tests set up and look at rows directly; that is what they check.
    ignores: ['**/*.test.ts'],
    rules: onlyOwnTables(workspace),
  })),
  ...Object.entries(OTHERS_READ).map(([file, read]) => ({
    files: [file],
    rules: onlyOwnTables(
      WORKSPACES_WITH_TABLES.find((w) => file.startsWith(`${w}/`)),
      read,
    ),
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'drizzle/**',
      '.data/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  {
    // Type-checked by its own test against a client generated during the test (see there).
    ignores: ['apps/api/src/openapi/client-check/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Hostile content must cost linear time: a pattern that backtracks super-linearly on some
    // input lets one small source freeze a worker (docs/security.md).
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false } },
      ],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through the app config module.',
        },
      ],
    },
  },
  {
    // Tests probe JSON bodies of unknown shape; asserting on them is the point.
    files: [
      '**/*.test.ts',
      '**/test-support.ts',
      '**/test-site.ts',
      'scripts/**',
      'tests/**',
      'apps/*/test/**',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: [
      '**/config.ts',
      '**/*.test.ts',
      'packages/testkit/**',
      'tests/**',
      'scripts/**',
      '*.config.ts',
      'apps/launcher/**',
      // The helper launcher's client hands its environment (the allow-listed one the worker
      // gave it) on to the helper: forwarded, not configuration.
      'packages/sources/src/isolation/launcher/client.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  ...tableOwnership,
);
