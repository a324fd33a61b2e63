import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages that publish built files (packages/sdk) point this condition at their
// sources, so tests run the code as written without a build step first.
// Without `module`: Node ignores that condition, and some packages (the AWS SDK's) point it at
// builds only a bundler can load; tests resolve dependencies as the service does when it runs.
const conditions = ['@xt/source', ...defaultServerConditions.filter((c) => c !== 'module')];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: [
      'apps/*/src/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: integration files start servers, Chromium and worker processes.
    maxWorkers: 2,
    pool: 'forks',
  },
});
