/**
 * How many cases a fast-check property runs. `npm run test:mutation` runs a property once for every
 * mutant it covers, so its vitest config sets PROPERTY_RUNS to cap them (and the default, through
 * test/support/mutation-setup.ts); the example-based tests beside each property pin the cases
 * that matter. Unset, every property runs in full.
 */
export function propertyRuns(full: number): number {
  const cap = Number(process.env.PROPERTY_RUNS);
  return Number.isInteger(cap) && cap > 0 ? Math.min(full, cap) : full;
}
