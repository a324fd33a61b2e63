import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Node's compile cache (its TypeScript transform's output and V8's code), shared by the test
// processes and every API, worker and CLI process the tests start: these inherit this
// environment, and each loads the same few thousand modules. Starting a worker took about 3.2 s
// of CPU without it and 1.5 s with it, an API 2.0 s and 1.3 s. Inside node_modules, so a fresh
// install starts it afresh; Node checks each entry against the file's contents.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(
  new URL('node_modules/.cache/node-compile-cache', import.meta.url),
);

// Workspace packages that publish built files (packages/sdk) point this condition at their
// sources, so tests run the code as written without a build step first.
// Without `module`: Node ignores that condition, and some packages (the AWS SDK's) point it at
// builds only a bundler can load; tests resolve dependencies as the service does when it runs.
const conditions = ['@xt/source', ...defaultServerConditions.filter((c) => c !== 'module')];

// Which project a test file belongs to follows from its path and name alone (README, "Tests").
const besideCode = ['apps/*/src/**', 'packages/*/src/**', 'scripts/**'];
const integrationName = '**/*.integration.test.ts';
const browserName = '**/*.browser.test.ts';
// PostgreSQL, Redis and the template database, found once for every project that asks.
const servers = ['packages/testkit/src/global-setup.ts'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Three files at a time on two cores, across all projects together: a file mostly waits for
    // the processes it started (servers, Chromium, workers, the model stand-in's delays), so a
    // third keeps the cores busier. 22 end-to-end files took 146 s at three against 157-169 s at
    // two, each file about 25% longer; beside other work the suite's share of the cores grows.
    maxWorkers: 3,
    pool: 'forks',
    projects: [
      {
        test: {
          name: 'unit',
          include: besideCode.map((dir) => `${dir}/*.test.ts`),
          exclude: [integrationName, browserName],
          // Unit files share a process's modules instead of loading them afresh per file: loading
          // was about 40% of the project's time. They start nothing and restore what they change
          // (fake timers), so no file sees another's state; the other projects stay isolated.
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            ...besideCode.map((dir) => `${dir}/${integrationName.slice(3)}`),
            'tests/e2e/**/*.test.ts',
            'tests/clients/**/*.test.ts',
          ],
          exclude: [browserName],
          globalSetup: servers,
        },
      },
      {
        test: {
          name: 'browser',
          include: [
            ...besideCode.map((dir) => `${dir}/${browserName.slice(3)}`),
            'tests/browser/**/*.test.ts',
          ],
          globalSetup: servers,
        },
      },
      {
        // The fault scenarios start their own PostgreSQL, Redis and processes, so no set-up.
        test: { name: 'faults', include: ['tests/faults/**/*.test.ts'] },
      },
    ],
  },
});
