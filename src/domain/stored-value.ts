/**
 * Whether a value a client based its write on is the one stored: null for none stored; numbers
 * compared as the float4 the legacy columns hold, so 13.45 sent back matches 13.45 read.
 */
export function sameStoredValue(expected: number | null, stored: number | null): boolean {
  if (expected === null || stored === null) return expected === stored;
  return Math.fround(expected) === Math.fround(stored) || Math.abs(expected - stored) < 1e-9;
}
