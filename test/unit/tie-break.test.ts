import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankAllAround, TIE_BREAK_RULES, type RankInput, type RankingOptions, type TieBreakRule } from '../../src/domain/all-around.js';

const entry = (scores: Array<number | null>, outOfCompetition = false): RankInput => ({ scores, outOfCompetition });
const rank = (entries: RankInput[], rule: TieBreakRule, options: RankingOptions = {}) => rankAllAround(entries, rule, options);
const ranks = (entries: RankInput[], rule: TieBreakRule, options: RankingOptions = {}) =>
  rank(entries, rule, options).map((row) => row.rank);

describe('drop-lowest (FIG all-around: best 5, then 4, …; women best 3, then 2, …)', () => {
  // Totals 54 each. Lowest scores 8 / 8.5 / 8: dropping one leaves 46 / 45.5 / 46;
  // dropping two more from the first and the third leaves 37 / 37.5.
  const tied = [entry([9, 9, 9, 10, 9, 8]), entry([9, 9, 9, 9.5, 9, 8.5]), entry([10, 9, 9.5, 9, 8.5, 8])];

  it('drops the lowest score and compares again until a difference', () => {
    expect(ranks(tied, 'drop-lowest')).toEqual([2, 3, 1]);
  });

  it('stops after maxDrops; entries still equal share the rank', () => {
    expect(ranks(tied, 'drop-lowest', { maxDrops: 1 })).toEqual([1, 3, 1]);
  });

  it('counts a missing apparatus as 0, the first score dropped', () => {
    // 20 each: [10, 10, missing] keeps 20 after one drop, [8, 6, 6] keeps 14.
    expect(ranks([entry([8, 6, 6]), entry([10, 10, null])], 'drop-lowest')).toEqual([2, 1]);
  });

  it('never reorders different totals', () => {
    expect(ranks([entry([5, 5, 5]), entry([10, 6, 0])], 'drop-lowest')).toEqual([2, 1]);
  });
});

describe('apparatus-order (Swiss GeTu: rings, then vault, then high bar)', () => {
  // Disciplines: floor, rings, vault, high bar. Totals 36 each.
  const tied = [entry([9, 9, 9, 9]), entry([10, 9, 8, 9]), entry([8, 9, 10, 9]), entry([9, 10, 8, 9])];
  const order = [1, 2, 3];

  it('compares the named apparatus one after the other', () => {
    expect(ranks(tied, 'apparatus-order', { order })).toEqual([3, 4, 2, 1]);
  });

  it('entries equal on every named apparatus share the rank', () => {
    expect(ranks([entry([9, 9, 9]), entry([8, 9, 10])], 'apparatus-order', { order: [1] })).toEqual([1, 1]);
  });

  it('a missing score on a named apparatus ranks below any score', () => {
    expect(ranks([entry([18, null]), entry([9, 9])], 'apparatus-order', { order: [1] })).toEqual([2, 1]);
  });
});

describe('rank notation', () => {
  it('dense: the rank after a tie follows on (1, 1, 2)', () => {
    expect(ranks([entry([10]), entry([10]), entry([9]), entry([8])], 'none', { notation: 'dense' })).toEqual([1, 1, 2, 3]);
    expect(rank([entry([10]), entry([10]), entry([9])], 'none', { notation: 'dense' }).map((row) => row.disciplineRanks)).toEqual([
      [1],
      [1],
      [2],
    ]);
  });

  it('standard (default): the rank after a tie is skipped (1, 1, 3)', () => {
    expect(ranks([entry([10]), entry([10]), entry([9])], 'none')).toEqual([1, 1, 3]);
  });
});

describe('tieBreak on the entry', () => {
  it('names the rule where it ranked equal totals apart, null elsewhere', () => {
    const rows = rank([entry([10, 8]), entry([9, 9]), entry([7, 7])], 'best-device-scores');
    expect(rows.map((row) => [row.rank, row.tieBreak])).toEqual([
      [1, 'best-device-scores'],
      [2, 'best-device-scores'],
      [3, null],
    ]);
  });

  it('is null while the rule leaves a tie shared', () => {
    expect(rank([entry([9, 9]), entry([9, 9])], 'drop-lowest').map((row) => row.tieBreak)).toEqual([null, null]);
  });
});

const scores = fc.array(
  fc.option(
    fc.integer({ min: 0, max: 200 }).map((tenths) => tenths / 10),
    { nil: null },
  ),
  {
    minLength: 3,
    maxLength: 3,
  },
);
const field = fc.array(fc.record({ scores, outOfCompetition: fc.boolean() }), { maxLength: 12 });
const anyRule = fc.constantFrom(...TIE_BREAK_RULES);
const options = fc.record({
  maxDrops: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  order: fc.option(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 3 }), { nil: undefined }),
  notation: fc.constantFrom('standard' as const, 'dense' as const),
});

describe('properties', () => {
  it('the shared rule with the standard notation is the ranking without options', () => {
    fc.assert(
      fc.property(field, (entries) => {
        expect(rank(entries, 'none', { notation: 'standard' })).toEqual(rankAllAround(entries, 'none'));
      }),
    );
  });

  it('a rule only reorders equal totals and never changes totals', () => {
    fc.assert(
      fc.property(field, anyRule, options, (entries, rule, opts) => {
        const shared = rank(entries, 'none', { notation: 'standard' });
        const ruled = rank(entries, rule, { ...opts, notation: 'standard' });
        ruled.forEach((row, i) => {
          expect(row.total).toBe(shared[i]!.total);
          ruled.forEach((other, j) => {
            if (row.rank !== null && other.rank !== null && row.total > other.total) expect(row.rank).toBeLessThan(other.rank);
            if (shared[i]!.rank !== null && shared[j]!.rank !== null && shared[i]!.rank! < shared[j]!.rank!)
              expect(row.rank!).toBeLessThan(other.rank!);
          });
        });
      }),
    );
  });

  it('standard ranks are 1 + the number of entries ranked strictly before; dense ones count the distinct ranks before', () => {
    fc.assert(
      fc.property(field, anyRule, options, (entries, rule, opts) => {
        const standard = rank(entries, rule, { ...opts, notation: 'standard' }).map((row) => row.rank);
        const dense = rank(entries, rule, { ...opts, notation: 'dense' }).map((row) => row.rank);
        const given = standard.filter((value): value is number => value !== null);
        standard.forEach((value, i) => {
          if (value === null) return expect(dense[i]).toBeNull();
          expect(value).toBe(1 + given.filter((other) => other < value).length);
          expect(dense[i]).toBe(1 + new Set(given.filter((other) => other < value)).size);
        });
      }),
    );
  });
});
