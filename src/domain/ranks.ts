/**
 * What every ranking shares: scores compared in thousandths and ranks over a sorted list in one of
 * two notations. Pure.
 */

/** Thousandths of a score; the unit every comparison and sum uses. */
export const scoreUnits = (score: number): number => Math.round(score * 1000);

/** `standard`: 1, 1, 3 (the default); `dense`: 1, 1, 2. */
export type RankNotation = 'standard' | 'dense';
export const RANK_NOTATIONS: readonly RankNotation[] = ['standard', 'dense'];
export const DEFAULT_RANK_NOTATION: RankNotation = 'standard';

export function isRankNotation(value: unknown): value is RankNotation {
  return typeof value === 'string' && (RANK_NOTATIONS as readonly string[]).includes(value);
}

/**
 * Ranks over `sorted` (best first); `same` tells whether two neighbours share a rank. `standard`
 * skips the ranks a tie took (1, 1, 3), `dense` does not (1, 1, 2).
 */
export function sharedRanks<T>(sorted: readonly T[], same: (a: T, b: T) => boolean, notation: RankNotation = 'standard'): number[] {
  const ranks: number[] = [];
  sorted.forEach((item, position) => {
    const previous = sorted[position - 1];
    if (previous !== undefined && same(previous, item)) ranks.push(ranks[position - 1]!);
    else ranks.push(notation === 'dense' ? (ranks[position - 1] ?? 0) + 1 : position + 1);
  });
  return ranks;
}
