import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser`: the web client in Debian's Chromium (playwright-core) against the real
 * service. Kept out of `npm test` so that stays fast; the browser setup fails loudly, never skips,
 * when Chromium or the built client is missing.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts', 'test/browser/support/browser-setup.ts'],
    pool: 'forks',
    // One browser at a time on a two-core machine; the tests wait for conditions, never time them.
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
    teardownTimeout: 30_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
