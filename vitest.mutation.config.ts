import { defineConfig } from 'vitest/config';

/**
 * The unit tests that cover the code `npm run test:mutation` mutates (stryker.config.mjs): no
 * database, no global setup, so each of Stryker's many runs takes well under a second.
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/domain-*.test.ts',
      'test/unit/formula.test.ts',
      'test/unit/input-mask.test.ts',
      'test/unit/final-score.test.ts',
      'test/unit/squad-planner.test.ts',
      'test/unit/all-around.test.ts',
      'test/unit/web-jury-model.test.ts',
      'test/unit/web-office-model.test.ts',
      'test/unit/web-ranking.test.ts',
      'test/unit/outbox-replay-plan.test.ts',
    ],
    setupFiles: ['test/support/mutation-setup.ts'],
    // Properties run 50 cases per mutant instead of up to 2,000 (test/support/property-runs.ts).
    env: { PROPERTY_RUNS: '50' },
    pool: 'threads',
    // Stryker's instrumented code is slower; the property tests (fast-check) need the room.
    testTimeout: 60_000,
  },
});
