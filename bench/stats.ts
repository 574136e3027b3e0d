/** Distributions as the benchmark reports them: never one number for a latency. */
export interface Distribution {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentiles; sorts a copy. Milliseconds in, milliseconds out (3 decimals). */
export function distribution(values: ArrayLike<number>): Distribution {
  const sorted = Float64Array.from(values).sort();
  const count = sorted.length;
  const at = (p: number) => (count === 0 ? Number.NaN : sorted[Math.min(count - 1, Math.max(0, Math.ceil((p / 100) * count) - 1))]!);
  let sum = 0;
  for (const value of sorted) sum += value;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    count,
    p50: round(at(50)),
    p95: round(at(95)),
    p99: round(at(99)),
    max: round(count === 0 ? Number.NaN : sorted[count - 1]!),
    mean: round(count === 0 ? Number.NaN : sum / count),
  };
}

/** `value / baseline` rounded to two decimals; null when the baseline is missing or zero. */
export function ratio(value: number, baseline: number): number | null {
  return Number.isFinite(value) && Number.isFinite(baseline) && baseline !== 0 ? Math.round((value / baseline) * 100) / 100 : null;
}
