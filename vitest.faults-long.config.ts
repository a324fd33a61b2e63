import { defineConfig } from 'vitest/config';

// `npm run test:faults:long`: the fault scenarios with production's recovery timings
// (docs/operations.md). They own their servers, so no global setup.
export default defineConfig({
  test: {
    include: ['tests/faults/**/*.long-test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: 1,
    pool: 'forks',
  },
});
