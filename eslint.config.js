import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

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
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
