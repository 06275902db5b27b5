import { configDefaults, defineConfig } from 'vitest/config';

/** Files that need a Citus cluster: .ci/run's Citus step runs them with TEST_CITUS_URL set. */
const CITUS_ONLY = ['test/citus/**'];

/** .ci/run names a JSON report per step, and adds the steps' counts up at its end. */
const reportFile = process.env.TEST_REPORT_FILE;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: process.env.TEST_CITUS_URL
      ? configDefaults.exclude
      : [...configDefaults.exclude, ...CITUS_ONLY],
    ...(reportFile ? { reporters: ['default', ['json', { outputFile: reportFile }]] } : {}),
    globalSetup: ['test/helpers/globalSetup.ts'],
    // Each file gets its own database cloned from a migrated template, so files run in parallel.
    pool: 'forks',
    fileParallelism: true,
    // Vitest's default on two cores is one worker; the files mostly wait on Postgres, Redis
    // and child processes, so three overlap those waits without starving the services.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
