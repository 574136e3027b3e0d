/**
 * All-around ranking (result lists): totals over a competition's disciplines, shared ranks and the
 * tie-break rules. Pure: no database, no I/O.
 *
 * - Scores are float4 in the legacy tables, so everything is compared and summed in thousandths
 *   (13.45 and 13.449999 are the same score); totals are reported rounded to thousandths.
 * - A discipline's score is the best attempt: the highest final value over the attempts (and over
 *   the score rows, should the desktop program have written a participant twice).
 * - `total` sums the disciplines that have a score; `complete` is false while one is missing.
 *   Someone without any score yet has total 0 and no rank (null), and is listed last.
 * - Out of competition (bol_ak): listed with rank null; takes no rank from anybody.
 * - Ties share a rank and the next rank is skipped (1, 1, 3), or with the `dense` notation the
 *   next rank follows on (1, 1, 2). A tie-break rule only decides between equal totals; entries
 *   still equal after it share the rank. The per-discipline ranks follow the apparatus rule
 *   (`./apparatus-ranking.ts`).
 *
 * Tie-break rules (app setting `results`, per competition):
 * - `none`: equal totals share the rank.
 * - `best-device-scores`: the higher best single device score wins; if equal, the second best,
 *   and so on (FIG all-around qualification). A missing device counts as no score, i.e. it
 *   ranks below any score, so with equal totals the entry with more devices is compared by its
 *   scores as they are.
 * - `drop-lowest`: the lowest apparatus score is dropped and the rest compared again, then the
 *   next lowest, up to `maxDrops` times (FIG: men best 5 of 6, then 4…; women best 3 of 4…).
 *   A missing apparatus counts 0, so it is the first to go.
 * - `apparatus-order`: the scores of the named apparatus compared one after the other (national
 *   programs, e.g. Swiss GeTu: rings, then vault, then high bar); a missing score ranks below any.
 * A stored rule that is not one of these counts as `none` (the settings reader checks it).
 */

import { rankApparatus, type ApparatusEntry, type ApparatusTieBreak } from './apparatus-ranking.js';
import { DEFAULT_RANK_NOTATION, scoreUnits, sharedRanks, type RankNotation } from './ranks.js';

export { DEFAULT_RANK_NOTATION, isRankNotation, RANK_NOTATIONS, scoreUnits, type RankNotation } from './ranks.js';

export type TieBreakRule = 'none' | 'best-device-scores' | 'drop-lowest' | 'apparatus-order';

export const TIE_BREAK_RULES: readonly TieBreakRule[] = ['none', 'best-device-scores', 'drop-lowest', 'apparatus-order'];
export const DEFAULT_TIE_BREAK: TieBreakRule = 'none';

/** The parameters of the rules beside the rule's name; every one optional. */
export interface RankingOptions {
  /** `drop-lowest`: the most scores dropped; absent: all but one. */
  maxDrops?: number | undefined;
  /** `apparatus-order`: positions in `RankInput.scores`, compared in this order. */
  order?: readonly number[] | undefined;
  notation?: RankNotation | undefined;
  /** The per-discipline ranks' tie-break rule; absent: `shared`. */
  apparatusTieBreak?: ApparatusTieBreak | undefined;
}

export function isTieBreakRule(value: unknown): value is TieBreakRule {
  return typeof value === 'string' && (TIE_BREAK_RULES as readonly string[]).includes(value);
}

export interface RankInput {
  /** Scores per discipline, in the competition's discipline order; null where none yet. */
  scores: ReadonlyArray<number | null>;
  /** E and D per discipline (parallel to `scores`) for `e-then-d`; absent or null where unknown. */
  parts?: ReadonlyArray<{ e: number | null; d: number | null } | null> | undefined;
  outOfCompetition: boolean;
}

export interface RankedTotals {
  /** null: out of competition, or no score at all. */
  rank: number | null;
  total: number;
  complete: boolean;
  /** Rank per discipline among the competing entries, by the apparatus rule and the notation; null without a score. */
  disciplineRanks: Array<number | null>;
  /** Per discipline: the apparatus rule where it ranked this entry apart from an equal score; else null. */
  disciplineTieBreaks: Array<ApparatusTieBreak | null>;
  /** The rule that ranked this entry apart from another with the same total; null when none did. */
  tieBreak: TieBreakRule | null;
}

interface Prepared {
  index: number;
  totalUnits: number;
  /** Present scores in thousandths, best first: the `best-device-scores` key. */
  descending: number[];
  /** `drop-lowest` key: the sums after dropping 1, 2, … lowest scores (missing ones as 0). */
  dropSums: number[];
  /** `apparatus-order` key: the named apparatus' scores in thousandths, missing as -Infinity. */
  inOrder: number[];
  ranked: boolean;
}

function compareDescending(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    // A missing score ranks below any score.
    const left = a[i] ?? Number.NEGATIVE_INFINITY;
    const right = b[i] ?? Number.NEGATIVE_INFINITY;
    if (left !== right) return right > left ? 1 : -1;
  }
  return 0;
}

/** Order of two competing entries: negative when `a` ranks before `b`, 0 when they share a rank. */
export function compareEntries(a: Prepared, b: Prepared, rule: TieBreakRule): number {
  if (a.totalUnits !== b.totalUnits) return b.totalUnits - a.totalUnits;
  switch (rule) {
    case 'best-device-scores':
      return compareDescending(a.descending, b.descending);
    case 'drop-lowest':
      return compareDescending(a.dropSums, b.dropSums);
    case 'apparatus-order':
      return compareDescending(a.inOrder, b.inOrder);
    case 'none':
      return 0;
  }
}

/** The sums of `units` (best first) after dropping the lowest 1, 2, … `maxDrops`, keeping at least one. */
function dropSums(units: readonly number[], maxDrops: number): number[] {
  const sums: number[] = [];
  let sum = units.reduce((total, value) => total + value, 0);
  for (let dropped = 1; dropped <= Math.min(maxDrops, units.length - 1); dropped++) {
    sum -= units[units.length - dropped]!;
    sums.push(sum);
  }
  return sums;
}

/**
 * Ranks one class. The result is parallel to `entries`; the caller orders the list by
 * (rank, name), ranked entries first.
 */
export function rankAllAround(entries: readonly RankInput[], rule: TieBreakRule, options: RankingOptions = {}): RankedTotals[] {
  const notation = options.notation ?? DEFAULT_RANK_NOTATION;
  const prepared: Prepared[] = entries.map((entry, index) => {
    const present = entry.scores.filter((score): score is number => score !== null).map(scoreUnits);
    const withZeros = entry.scores.map((score) => (score === null ? 0 : scoreUnits(score))).sort((a, b) => b - a);
    return {
      index,
      totalUnits: present.reduce((sum, units) => sum + units, 0),
      descending: [...present].sort((a, b) => b - a),
      dropSums: rule === 'drop-lowest' ? dropSums(withZeros, options.maxDrops ?? withZeros.length) : [],
      inOrder: (rule === 'apparatus-order' ? (options.order ?? []) : []).map((position) => {
        const score = entry.scores[position];
        return score === null || score === undefined ? Number.NEGATIVE_INFINITY : scoreUnits(score);
      }),
      ranked: !entry.outOfCompetition && present.length > 0,
    };
  });
  const competing = prepared.filter((entry) => entry.ranked).sort((a, b) => compareEntries(a, b, rule));
  const ranks = sharedRanks(competing, (a, b) => compareEntries(a, b, rule) === 0, notation);
  const rankOf = new Map(competing.map((entry, position) => [entry.index, ranks[position]!]));
  // Equal totals with more than one rank among them: the rule decided between them.
  const ranksPerTotal = new Map<number, Set<number>>();
  competing.forEach((entry, position) => {
    const seen = ranksPerTotal.get(entry.totalUnits) ?? new Set<number>();
    ranksPerTotal.set(entry.totalUnits, seen.add(ranks[position]!));
  });

  const disciplineCount = entries.reduce((max, entry) => Math.max(max, entry.scores.length), 0);
  const disciplineRankOf = Array.from({ length: disciplineCount }, (_, discipline) =>
    rankApparatus(
      entries.map((entry): ApparatusEntry => ({
        score: entry.scores[discipline] ?? null,
        outOfCompetition: entry.outOfCompetition,
        ...entry.parts?.[discipline],
      })),
      { rule: options.apparatusTieBreak ?? 'shared', notation },
    ),
  );

  return entries.map((entry, index) => ({
    rank: rankOf.get(index) ?? null,
    total: prepared[index]!.totalUnits / 1000,
    complete: entry.scores.length > 0 && entry.scores.every((score) => score !== null),
    disciplineRanks: entry.scores.map((_, discipline) => disciplineRankOf[discipline]![index]!.rank),
    disciplineTieBreaks: entry.scores.map((_, discipline) => disciplineRankOf[discipline]![index]!.tieBreak),
    tieBreak: rankOf.has(index) && ranksPerTotal.get(prepared[index]!.totalUnits)!.size > 1 ? rule : null,
  }));
}

// One collator for every comparison: localeCompare with a locale builds a new one on each call.
const germanNames = new Intl.Collator('de');

/** Listing order: ranked entries by rank, then the unranked by total; equal ones by `name` (German collation). */
export function listingOrder<T extends { rank: number | null; total: number }>(name: (item: T) => string): (a: T, b: T) => number {
  return (a, b) =>
    (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) ||
    scoreUnits(b.total) - scoreUnits(a.total) ||
    germanNames.compare(name(a), name(b));
}
