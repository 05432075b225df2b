import { defineConfig } from 'vitest/config';

// Two phases (scripts/test-all.sh): `api` runs unit and API tests on the embedded database and,
// when TEST_DATABASE_URL is set, the API tests again on PostgreSQL; `e2e` drives the built site.
const phase = process.env.TEST_PHASE ?? 'api';

const apiTests = ['tests/api/**/*.test.ts'];
const unitTests = ['common/**/*.test.ts', 'server/**/*.test.ts', 'db/**/*.test.ts'];
const shared = { setupFiles: ['tests/setup/fail-on-console-error.ts'], testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    projects:
      phase === 'e2e'
        ? [
            {
              test: {
                name: 'e2e',
                include: ['tests/e2e/**/*.test.ts'],
                globalSetup: ['tests/e2e/global-setup.ts'],
                // One browser at a time on a 2-core machine; pages share one server.
                fileParallelism: false,
                testTimeout: 60_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : [
            { test: { ...shared, name: 'embedded', include: [...unitTests, ...apiTests], env: { TEST_DB: 'embedded' } } },
            ...(process.env.TEST_DATABASE_URL
              ? [
                  {
                    test: {
                      ...shared,
                      name: 'postgres',
                      include: apiTests,
                      env: { TEST_DB: 'postgres' },
                      globalSetup: ['tests/setup/postgres-template.ts'],
                    },
                  },
                ]
              : []),
          ],
  },
});
