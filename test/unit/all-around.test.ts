import { describe, expect, it } from 'vitest';
import { ageCategoryOf, ageClassOrder, ageOn, parseAgeCategoryRanges } from '../../src/domain/age.js';
import { listingOrder, rankAllAround, type RankInput } from '../../src/domain/all-around.js';

const entry = (scores: Array<number | null>, outOfCompetition = false): RankInput => ({ scores, outOfCompetition });
const ranks = (entries: RankInput[], rule: 'none' | 'best-device-scores' = 'none') => rankAllAround(entries, rule).map((row) => row.rank);

describe('all-around totals and ranks', () => {
  it('sums the disciplines in thousandths, so float4 noise neither splits nor breaks a tie', () => {
    const [a, b] = rankAllAround([entry([13.449999, 12.1]), entry([13.45, 12.100001])], 'none');
    expect(a).toMatchObject({ total: 25.55, rank: 1, complete: true });
    expect(b).toMatchObject({ total: 25.55, rank: 1 });
  });

  it('shares ranks and skips the next (1, 1, 3)', () => {
    expect(ranks([entry([10, 9]), entry([9, 10]), entry([8, 8]), entry([19, 0])])).toEqual([1, 1, 4, 1]);
  });

  it('is incomplete while a discipline is missing, and sums what is there', () => {
    const [partial, none] = rankAllAround([entry([9.5, null, 8]), entry([null, null, null])], 'none');
    expect(partial).toMatchObject({ total: 17.5, complete: false, rank: 1, disciplineRanks: [1, null, 1] });
    expect(none).toMatchObject({ total: 0, complete: false, rank: null });
  });

  it('gives out-of-competition entries no rank and takes none from the others', () => {
    expect(ranks([entry([10, 10], true), entry([9, 9]), entry([8, 8])])).toEqual([null, 1, 2]);
    expect(rankAllAround([entry([10], true), entry([9])], 'none')[1]!.disciplineRanks).toEqual([1]);
  });

  it('ranks each discipline on its own with shared ranks', () => {
    const rows = rankAllAround([entry([9, 8]), entry([9, 9]), entry([8, 9])], 'none');
    expect(rows.map((row) => row.disciplineRanks)).toEqual([
      [1, 3],
      [1, 1],
      [3, 1],
    ]);
  });
});

describe('tie-break rules', () => {
  // Equal totals 27: best single scores 10 / 9.5 / 9.5, then 9 / 9 / 9.5.
  const tied = [entry([10, 9, 8]), entry([9.5, 9, 8.5]), entry([9.5, 9.5, 8]), entry([9, 9, 8])];

  it('none: equal totals share the rank', () => {
    expect(ranks(tied, 'none')).toEqual([1, 1, 1, 4]);
  });

  it('best-device-scores: the higher best single score wins, then the next best', () => {
    expect(ranks(tied, 'best-device-scores')).toEqual([1, 3, 2, 4]);
  });

  it('best-device-scores: entries equal on every score still share the rank', () => {
    expect(ranks([entry([9, 10]), entry([10, 9]), entry([9.5, 9.5])], 'best-device-scores')).toEqual([1, 1, 3]);
  });

  it('best-device-scores: never reorders different totals', () => {
    expect(ranks([entry([10, 5]), entry([8, 8])], 'best-device-scores')).toEqual([2, 1]);
  });

  it('best-device-scores: a missing device ranks below any score', () => {
    // Totals 18 each: (10, 8, –) against (10, 4, 4) → second best 8 beats 4.
    expect(ranks([entry([10, 8, null]), entry([10, 4, 4])], 'best-device-scores')).toEqual([1, 2]);
    expect(ranks([entry([10, 8, null]), entry([10, 8, 0])], 'best-device-scores')).toEqual([2, 1]);
  });

  it('lists by rank, then the unranked by total, equal ones by name', () => {
    const rows = [
      { rank: null, total: 0, name: 'Zoe' },
      { rank: 2, total: 9, name: 'Bert' },
      { rank: null, total: 20, name: 'Ausser' },
      { rank: 1, total: 10, name: 'Ödön' },
      { rank: 1, total: 10, name: 'Anna' },
    ];
    expect(rows.sort(listingOrder((row) => row.name)).map((row) => row.name)).toEqual(['Anna', 'Ödön', 'Bert', 'Ausser', 'Zoe']);
  });
});

describe('age rules and classes', () => {
  const ranges = parseAgeCategoryRanges('6-8, 9-10,11-12,bad,14-13');

  it('birth-year: the age reached in the event year; 1 January and 31 December of one year are one class', () => {
    expect(ageOn('2014-01-01', '2024-05-17', 'birth-year')).toBe(10);
    expect(ageOn('2014-12-31', '2024-05-17', 'birth-year')).toBe(10);
    expect(ageCategoryOf(ageOn('2014-01-01', '2024-05-17', 'birth-year'), ranges)).toBe(
      ageCategoryOf(ageOn('2014-12-31', '2024-05-17', 'birth-year'), ranges),
    );
  });

  it('exact: completed years on the start date; the two differ', () => {
    expect(ageOn('2014-01-01', '2024-05-17', 'exact')).toBe(10);
    expect(ageOn('2014-12-31', '2024-05-17', 'exact')).toBe(9);
    expect(ageCategoryOf(ageOn('2014-01-01', '2024-05-17', 'exact'), ranges)).toBe('9-10');
    expect(ageCategoryOf(ageOn('2018-12-31', '2024-05-17', 'exact'), ranges)).toBe('other');
    expect(ageCategoryOf(ageOn('2018-12-31', '2024-05-17', 'birth-year'), ranges)).toBe('6-8');
  });

  it('other outside every range, unknown without a birth date, order as written', () => {
    expect(ageCategoryOf(ageOn('2000-01-01', '2024-05-17', 'birth-year'), ranges)).toBe('other');
    expect(ageCategoryOf(ageOn(null, '2024-05-17', 'birth-year'), ranges)).toBe('unknown');
    expect(ageCategoryOf(ageOn('2014-02-30', '2024-05-17', 'birth-year'), ranges)).toBe('unknown');
    expect(ageClassOrder(ranges)).toEqual(['6-8', '9-10', '11-12', 'other', 'unknown']);
  });

  it('a birth date after the reference gives age 0 under both rules', () => {
    expect(ageOn('2025-01-01', '2024-05-17', 'birth-year')).toBe(0);
    expect(ageOn('2025-01-01', '2024-05-17', 'exact')).toBe(0);
  });
});
