// @ts-check
/**
 * `npm run test:mutation` (not in CI): StrykerJS mutates the pure modules and checks that the unit
 * tests notice. Scores per module and the surviving mutants judged equivalent: docs/testing.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  // The domain (shared by the service and the web client: formula, input masks), the web client's
  // score formatting on top of the masks, and the outbox relay's decisions.
  mutate: ['src/domain/**/*.ts', 'web/shared/score-format.ts', 'outbox/replay-plan.ts'],
  coverageAnalysis: 'perTest',
  // Module-level constants (limits, tables): every test would have to run for each; they are listed as
  // ignored in the report, and the unit tests pin the values that matter by name.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
