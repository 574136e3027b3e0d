import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: the pure tests (domain, command decisions, web models, the import graph),
 * without the global setup that starts PostgreSQL, so a run takes seconds. `npm test` runs them too.
 */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    // No database, no server: threads start faster than forks.
    pool: 'threads',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
