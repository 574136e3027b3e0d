/**
 * Reference judges beside an E-panel (issue 47). Two reference judges give execution values of
 * their own; their mean (the reference score) checks the panel's aggregate. FIG Appendix to the
 * Code of Points, "Rules for Reference Judges": when the E-panel's score and the reference score
 * differ by more than the tolerance for the reference score, the E score becomes the average of the
 * two; the reference score counts only while the two reference judges agree within a set range.
 * Reading and source in docs/decisions.md ("Reference judges").
 */
import { roundToDecimals } from './input-mask.js';

/** One row of a tolerance table: scores from `from` up (to the next row's `from`) allow `tolerance`. */
export interface ToleranceStep {
  readonly from: number;
  readonly tolerance: number;
}

/**
 * The FIG's table of the difference allowed between the reference score and the E-panel's score,
 * by the reference score (FIG Appendix to the Code of Points, Rules for Reference Judges).
 */
export const FIG_REFERENCE_TOLERANCES: readonly ToleranceStep[] = [
  { from: 9.6, tolerance: 0.05 },
  { from: 9.4, tolerance: 0.1 },
  { from: 9.0, tolerance: 0.15 },
  { from: 8.5, tolerance: 0.2 },
  { from: 8.0, tolerance: 0.3 },
  { from: 7.5, tolerance: 0.4 },
  { from: 0, tolerance: 0.5 },
];

/** The range within which the two reference judges must agree, when the settings name none. */
export const DEFAULT_REFERENCE_AGREEMENT = 0.3;

export interface ReferenceSettings {
  /** The two reference judges' fields. */
  readonly fieldIds: readonly number[];
  /** Largest difference between the two reference values for their mean to count. */
  readonly agreement: number;
  readonly tolerances: readonly ToleranceStep[];
}

/** What the reference judges did to one score's E, as the reads show it. */
export interface ReferenceOutcome {
  /** The reference score (mean of the two values, rounded like the aggregate); null until both are given. */
  readonly mean: number | null;
  /** The two reference values lie within `agreement` of each other. */
  readonly agree: boolean;
  /** The tolerance the table gives for the reference score; null without one. */
  readonly tolerance: number | null;
  /** |panel aggregate − reference score|; null without both. */
  readonly difference: number | null;
  /** The E score became the mean of the panel's aggregate and the reference score. */
  readonly applied: boolean;
}

const EPSILON = 1e-9;

/** The tolerance for `score`: the row with the highest `from` not above it; below every row, the lowest row's. */
export function toleranceFor(score: number, steps: readonly ToleranceStep[]): number | null {
  if (steps.length === 0) return null;
  const sorted = [...steps].sort((a, b) => b.from - a.from);
  return (sorted.find((step) => score >= step.from - EPSILON) ?? sorted[sorted.length - 1]!).tolerance;
}

/**
 * The E score after the reference judges: `panelScore` (the panel's rounded aggregate) unless the
 * two reference values agree and the reference score is further from it than the table allows, in
 * which case the mean of the two, rounded to `decimals`. A difference equal to the tolerance is within.
 */
export function applyReference(
  panelScore: number | null,
  referenceValues: ReadonlyArray<number | null>,
  settings: ReferenceSettings,
  decimals: number,
): { score: number | null; outcome: ReferenceOutcome } {
  const [first, second] = referenceValues;
  if (first === null || first === undefined || second === null || second === undefined) {
    return { score: panelScore, outcome: { mean: null, agree: false, tolerance: null, difference: null, applied: false } };
  }
  const mean = roundToDecimals((first + second) / 2, decimals);
  const agree = Math.abs(first - second) <= settings.agreement + EPSILON;
  const tolerance = toleranceFor(mean, settings.tolerances);
  const difference = panelScore === null ? null : roundToDecimals(Math.abs(panelScore - mean), 10);
  const applied = agree && tolerance !== null && difference !== null && difference > tolerance + EPSILON;
  const score = applied ? roundToDecimals((panelScore! + mean) / 2, decimals) : panelScore;
  return { score, outcome: { mean, agree, tolerance, difference, applied } };
}

/** Problems of a tolerance table; empty when it is usable. */
export function toleranceTableProblems(steps: readonly ToleranceStep[], path: string): string[] {
  const problems: string[] = [];
  if (steps.length === 0) problems.push(`${path}: needs at least one row`);
  if (new Set(steps.map((step) => step.from)).size !== steps.length) problems.push(`${path}: each "from" may appear only once`);
  if (steps.some((step) => !Number.isFinite(step.from) || !Number.isFinite(step.tolerance) || step.tolerance < 0))
    problems.push(`${path}: "from" and "tolerance" must be numbers, tolerance >= 0`);
  return problems;
}
