import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: integration files start servers, Chromium and worker processes.
    maxWorkers: 2,
    pool: 'forks',
  },
});
