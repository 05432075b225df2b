import { defineConfig } from 'vitest/config';

// The lanes (scripts/test-all.sh runs them all):
//   unit     pure code beside it (the build scripts' too), in seconds;
//   service  each service's rules beside it (*.service.test.ts), in process on the embedded database;
//   api      the API and services through app.inject, on the embedded database and, when
//            TEST_DATABASE_URL is set, again on PostgreSQL (api-postgres);
//   process  the real entry point, the database lock and the embedded database on disk;
//   e2e      Chromium driving the production build (run `npm run build` first);
//   fault    server processes against their own PostgreSQL cluster and Redis, which the tests restart,
//            freeze and stop (tests/fault/).
const setupFiles = ['tests/setup/fail-on-console-error.ts'];
const apiTests = ['tests/api/**/*.test.ts'];
// Two browser test files at a time against the one server, each with its own Chromium and its own accounts.
const browserTests = {
  globalSetup: ['tests/e2e/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // A page's answer to a click can take a few seconds on a loaded 2-core machine: a poll waits up to
  // 10 s (not vitest's 1 s) before it fails.
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  test: {
    // Two workers, also on a 2-core machine: most of a test's time is spent waiting on PostgreSQL, a
    // server process or Chromium, so a second file runs meanwhile (the suite takes half the time).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', 'db/**/*.test.ts', 'server/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['server/**/*.service.test.ts'],
          setupFiles,
        },
      },
      {
        // Each service's rules, called in process (no HTTP) on the worker's embedded database.
        test: {
          name: 'service',
          include: ['server/**/*.service.test.ts'],
          setupFiles,
          env: { TEST_DB: 'embedded' },
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api',
          include: apiTests,
          setupFiles,
          env: { TEST_DB: 'embedded' },
          // Files share one embedded database per worker (tests/helpers/test-app.ts), emptied between files.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'api-postgres',
                include: apiTests,
                setupFiles,
                env: { TEST_DB: 'postgres' },
                globalSetup: ['tests/setup/postgres-template.ts'],
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      { test: { name: 'process', include: ['tests/process/**/*.test.ts'], setupFiles, testTimeout: 60_000, hookTimeout: 60_000 } },
      {
        test: {
          name: 'fault',
          include: ['tests/fault/**/*.test.ts'],
          // Each file starts its own PostgreSQL cluster, Redis and server processes: one at a time.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: ['tests/e2e/site-wide.test.ts'],
          ...browserTests,
        },
      },
      {
        test: {
          // What staff write for every visitor, which the other files assert the defaults of: after
          // them, one file at a time.
          name: 'e2e-site-wide',
          include: ['tests/e2e/site-wide.test.ts'],
          ...browserTests,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
